/**
 * The reflector's request builders: the one definition of the resourceVersion, `limit` and
 * `continue` of every LIST and of every WATCH (R1, R2, R3, R5, R11). Pure; used by the transition
 * ({@link reflectorStep}) and tested on their own.
 */
import type { ListRequest, WatchRequest } from '../listerWatcher.js';
import type { ResolvedReflectorConfig } from './reflectorConfig.js';
import type { ReflectorMemory } from './reflectorState.js';

/** The parts of the resolved config that shape a request. */
export type RequestConfig = Pick<ResolvedReflectorConfig<unknown>, 'pageSize' | 'pageSizeExplicit' | 'listSemantic'>;

/**
 * client-go `relistResourceVersion()`: `""` once the last RV was found unavailable (R3), the list
 * semantic's first RV (`"0"`, or `""` for `'mostRecent'`) before anything was synced (R1), and the
 * last synced RV otherwise (R2).
 */
export function relistResourceVersion(memory: ReflectorMemory, config: RequestConfig): string {
  if (memory.rvUnavailable) return '';
  if (memory.lastSyncRV === '') return config.listSemantic === 'mostRecent' ? '' : '0';
  return memory.lastSyncRV;
}

/**
 * The first page of a list cycle (R1, R2): at {@link relistResourceVersion}, with `limit` unless
 * the RV is a specific one — then paged only if `pageSize` was explicit or an RV "0" list once
 * came back paginated (client-go `paginatedResult`).
 */
export function listRequest(memory: ReflectorMemory, config: RequestConfig): ListRequest {
  const resourceVersion = relistResourceVersion(memory, config);
  const paged = config.pageSizeExplicit || memory.paginatedResult || resourceVersion === '' || resourceVersion === '0';
  return paged ? { resourceVersion, limit: config.pageSize } : { resourceVersion };
}

/** The next page (R1): the previous request's `limit` and the token, never a resourceVersion. */
export function continueRequest(previous: ListRequest, token: string): ListRequest {
  return previous.limit === undefined ? { continue: token } : { limit: previous.limit, continue: token };
}

/** After a 410 on a continue page (R3): one full list at the cycle's original RV, no `limit`, no token. */
export function fullListRequest(resourceVersion: string): ListRequest {
  return { resourceVersion };
}

/**
 * A WATCH from the last synced RV with bookmarks (R5). A streaming list (R11) asks for the initial
 * events, `NotOlderThan`, and starts at `""` once the last RV was found unavailable.
 *
 * @param timeoutSeconds This watch's server-side timeout, drawn by the caller.
 */
export function watchRequest(memory: ReflectorMemory, streaming: boolean, timeoutSeconds: number): WatchRequest {
  if (!streaming) return { resourceVersion: memory.lastSyncRV, allowWatchBookmarks: true, timeoutSeconds };
  return {
    resourceVersion: memory.rvUnavailable ? '' : memory.lastSyncRV,
    resourceVersionMatch: 'NotOlderThan',
    sendInitialEvents: true,
    allowWatchBookmarks: true,
    timeoutSeconds,
  };
}

/**
 * client-go `propagateRVFromStart` (R6): a watch from a specific RV moves the last synced RV with
 * every event; one from `""` or `"0"` only after its first non-ADDED event.
 */
export function propagatesFromStart(request: WatchRequest): boolean {
  return !(request.resourceVersion === '' || request.resourceVersion === '0');
}
