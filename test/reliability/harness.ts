/* Shared helpers of the reliability tests: an informer over listWatch against the test server, recorded. */
import type { Subscription } from 'rxjs';
import { informer, type Informer, type InformerOptions } from '../../src/informer/informer.js';
import { type InformerError } from '../../src/errors.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { ListWatchConfig } from '../../src/sources/listWatchConfig.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import { metaNamespaceKey } from '../../src/store/keyFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { Notification } from '../../src/store/notification.js';
import type { TestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export { until };

export interface Watched {
  readonly informer: Informer<KubeObject>;
  readonly statuses: ListWatchStatus[];
  readonly changes: Notification<KubeObject>[];
  readonly errors: InformerError[];
  /** Set when a stream of the informer errored. */
  streamError: unknown;
  readonly subscription: Subscription;
  /** ERROR statuses' errors. */
  statusErrors(): Error[];
  /** Whether the snapshot holds exactly the server's objects (by key and resourceVersion). */
  converged(select?: (o: KubeObject) => boolean): boolean;
  /** Waits for {@link converged}, a WATCHING status last and one open watch. */
  untilConverged(what: string, select?: (o: KubeObject) => boolean): Promise<void>;
}

export function watchConfigMaps(
  server: TestApiServer,
  config: ListWatchConfig<KubeObject> = {},
  options: InformerOptions<KubeObject> = {},
): Watched {
  const statuses: ListWatchStatus[] = [];
  const changes: Notification<KubeObject>[] = [];
  const errors: InformerError[] = [];
  const inf = informer(
    listWatch(server.kubeConfig, { version: 'v1', plural: 'configmaps' }, {
      backoff: { initialDelay: 10, maxDelay: 50 },
      ...config,
      onStatus: (s) => {
        statuses.push(s);
        config.onStatus?.(s);
      },
    }),
    options,
  );
  inf.errors$.subscribe((e) => errors.push(e));
  const watched: Watched = {
    informer: inf,
    statuses,
    changes,
    errors,
    streamError: undefined,
    subscription: inf.changes$.subscribe({ next: (c) => changes.push(c), error: (e) => (watched.streamError = e) }),
    statusErrors: () => statuses.flatMap((s) => (s.type === 'ERROR' ? [s.error] : [])),
    converged(select = () => true) {
      const want = new Map(
        (server.list('configmaps') as KubeObject[]).filter(select).map((o) => [metaNamespaceKey(o), o.metadata?.resourceVersion]),
      );
      const snapshot = inf.snapshot;
      if (!snapshot.synced || snapshot.size !== want.size) return false;
      for (const [key, rv] of want) if (snapshot.get(key)?.metadata?.resourceVersion !== rv) return false;
      return true;
    },
    untilConverged: (what, select) =>
      until(() => watched.converged(select) && statuses.at(-1)?.type === 'WATCHING' && server.openWatchCount === 1, what),
  };
  return watched;
}
