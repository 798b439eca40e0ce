import type { Subscription } from 'rxjs';
import { listWatch } from '../../src/sources/listWatch.js';
import type { ListWatchConfig } from '../../src/sources/listWatchConfig.js';
import type { ListWatchResource } from '../../src/client/listWatchResource.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { TestApiServer } from '../../src/testServer/index.js';
import { summarize } from './collect.js';

/** Fast backoff for wire tests (the bounds are tested on virtual time). */
export const fastBackoff = { initialDelay: 20, maxDelay: 80 } as const;

export interface Run {
  readonly events: RawEvent<KubeObject>[];
  readonly statuses: ListWatchStatus[];
  /** `summarize()`d events. */
  summary(): string[];
  errors(): Error[];
  error: Error | undefined;
  completed: boolean;
  readonly subscription: Subscription;
}

/** Subscribes a listWatch to the test server and records everything. */
export function start(
  server: TestApiServer,
  resource: ListWatchResource,
  config: ListWatchConfig<KubeObject> = {},
): Run {
  const events: RawEvent<KubeObject>[] = [];
  const statuses: ListWatchStatus[] = [];
  const run: Partial<Run> & { events: typeof events; statuses: typeof statuses } = {
    events,
    statuses,
    completed: false,
    summary: () => events.map(summarize),
    errors: () => statuses.flatMap((s) => (s.type === 'ERROR' ? [s.error] : [])),
  };
  const subscription = listWatch(server.kubeConfig, resource, {
    backoff: fastBackoff,
    ...config,
    onStatus: (s) => {
      statuses.push(s);
      config.onStatus?.(s);
    },
  }).subscribe({
    next: (e) => e.type !== 'STATUS' && events.push(e), // statuses are recorded from onStatus
    error: (e: Error) => {
      run.error = e;
    },
    complete: () => {
      run.completed = true;
    },
  });
  return Object.assign(run, { subscription }) as Run;
}

export { until } from '../helpers/until.js';

