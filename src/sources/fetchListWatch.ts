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
 * **One connection per watch.** Each source holds one open request. Over HTTP/1.1 — `kubectl
 * proxy`, and most dev-server proxies — a browser opens at most 6 connections per host (Chromium,
 * Firefox, Safari), so in a page with more than about 5 sources the next request queues behind
 * the open watches and may never be sent. Such a source is never silently stale: after
 * `waitingAfter` (default 5 s) without a response it reports a `WAITING` status naming this cause;
 * a watch still unanswered after `noResponseTimeout` (default 30 s) ends with a `TransportError`
 * (`noResponse`) saying the same, and is opened again. `synced` keeps its meaning (a source that
 * had listed stays synced; it just hears nothing new). The remedies: `relayConnection()`, which
 * carries every source of the page over one WebSocket to `rx-informer/relay` in your backend, or
 * an API server (or proxy) the page reaches over HTTP/2, where requests share one connection.
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
