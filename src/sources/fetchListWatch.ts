import type { Observable } from 'rxjs';
import { fetchTransport, type FetchTransportConfig } from '../client/transport/fetchTransport.js';
import type { ListWatchResource } from '../client/listWatchResource.js';
import type { KubeObject } from '../store/kubeObject.js';
import { transportListerWatcher } from './http/transportListerWatcher.js';
import type { ListWatchConfig } from './listWatchConfig.js';
import type { RawEvent } from './rawEvent.js';
import { reflector } from './reflector/reflector.js';

/**
 * {@link listWatch} over WHATWG `fetch`, for browsers (and Node, Deno, Bun): the same Reflector
 * and the same protocol rules (paging, bookmarks, resume, relist on 410, streaming list, caps on
 * lines and lists, status classification), with no KubeConfig. The page reaches the API server
 * through a `kubectl proxy` or its own backend (`connection.baseUrl`), with a bearer token or cookies.
 *
 * ```text
 * subscribe ─► LIST_START LIST_PAGE… LIST_DONE(rv) ADDED MODIFIED BOOKMARK … 410 ─► LIST_START …
 * ```
 *
 * ## Example
 * ```ts
 * import { fetchListWatch, informer } from 'rx-informer';
 *
 * const pods = informer(fetchListWatch({ baseUrl: 'http://127.0.0.1:8001' }, { version: 'v1', plural: 'pods' }));
 * pods.changes$.subscribe((change) => console.log(change.type, change.key));
 * pods.connect();
 * ```
 *
 * @param connection Where the API server is (`baseUrl`), a bearer `token`, the `credentials` mode for cookies.
 * @param resource `{ group?, version, plural, namespace? }`, or `{ apiVersion, kind, namespace? }`.
 * @param config Everything of {@link listWatch}'s config.
 * @returns A cold Observable of raw events (never errors on transient faults).
 */
export function fetchListWatch<T = KubeObject>(connection: FetchTransportConfig, resource: ListWatchResource, config: ListWatchConfig<T> = {}): Observable<RawEvent<T>> {
  return reflector(transportListerWatcher<T>(fetchTransport(connection), resource, config, {}, 'fetchListWatch'), config);
}
