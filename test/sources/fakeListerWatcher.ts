import { defer, NEVER, type Observable, type SchedulerLike } from 'rxjs';
import type { ListerWatcher, ListRequest, ListResponse, WatchMessage, WatchRequest } from '../../src/sources/listerWatcher.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import { KubeApiError, TransportError } from '../../src/errors.js';
import type { KubeObject } from '../../src/store/kubeObject.js';

/** A request the fake saw, at virtual time `at`; a random `timeoutSeconds` in [300,600) reads as `'T'`. */
export type Seen =
  | { readonly verb: 'list'; readonly at: number; readonly request: ListRequest }
  | { readonly verb: 'watch'; readonly at: number; readonly request: Record<string, unknown> };

/** A ListerWatcher that answers the n-th list/watch with the n-th scripted Observable (then NEVER). */
export function fakeListerWatcher<T = KubeObject>(
  scheduler: SchedulerLike,
  lists: Array<Observable<ListResponse<T>>>,
  watches: Array<Observable<WatchMessage<T>>>,
): { lw: ListerWatcher<T>; seen: Seen[] } {
  const seen: Seen[] = [];
  const lw: ListerWatcher<T> = {
    list: (request) =>
      defer(() => {
        seen.push({ verb: 'list', at: scheduler.now(), request });
        return lists.shift() ?? NEVER;
      }),
    watch: (request: WatchRequest) =>
      defer(() => {
        const { timeoutSeconds, ...rest } = request;
        const t = timeoutSeconds >= 300 && timeoutSeconds < 600 && Number.isInteger(timeoutSeconds) ? 'T' : timeoutSeconds;
        seen.push({ verb: 'watch', at: scheduler.now(), request: { ...rest, timeoutSeconds: t } });
        return watches.shift() ?? NEVER;
      }),
  };
  return { lw, seen };
}

export const cm = (name: string, rv: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', resourceVersion: rv },
});

export const page = (items: KubeObject[], resourceVersion: string, cont?: string): ListResponse<KubeObject> =>
  cont === undefined ? { items, resourceVersion } : { items, resourceVersion, continue: cont };

export const bookmark = (rv: string, end = false): WatchMessage<KubeObject> => ({
  type: 'BOOKMARK',
  object: { metadata: end ? { resourceVersion: rv, annotations: { 'k8s.io/initial-events-end': 'true' } } : { resourceVersion: rv } },
});

export const apiError = (verb: string, code: number, reason?: string, extra: Record<string, unknown> = {}): KubeApiError =>
  new KubeApiError({
    verb,
    resource: 'configmaps',
    namespace: 'ns',
    code,
    status: { kind: 'Status', code, ...(reason ? { reason } : {}), message: `${reason ?? code}`, ...extra },
  });

/** Status values reduced to what tests compare (errors become their name). */
export function statusSummary(s: ListWatchStatus): string {
  switch (s.type) {
    case 'LISTING':
      return `LISTING(${s.resourceVersion},${s.page})`;
    case 'WATCHING':
      return `WATCHING(${s.resourceVersion})`;
    case 'BACKING_OFF':
      return `BACKING_OFF(${s.attempt},${s.next})`;
    case 'RELISTING':
      return `RELISTING(${s.reason})`;
    case 'ERROR':
      return `ERROR(${s.error instanceof TransportError ? `TransportError:${s.error.reason}` : s.error.name}${s.permanent ? ',permanent' : ''})`;
    case 'FAILED':
      return `FAILED(${s.error.name})`;
    case 'WAITING':
      return `WAITING(${s.verb},${s.waitingMs})`;
    default:
      return `${s.type}(${s.crd})`;
  }
}
