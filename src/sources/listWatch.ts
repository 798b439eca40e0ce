import type { KubeConfigLike } from '../client/kubeConfigLike.js';
import type { Observable } from 'rxjs';
import type { KubeObject } from '../store/kubeObject.js';
import { httpListerWatcher } from './http/httpListerWatcher.js';
import type { ListWatchConfig } from './listWatchConfig.js';
import type { ListWatchResource } from '../client/listWatchResource.js';
import type { RawEvent } from './rawEvent.js';
import { reflector } from './reflector/reflector.js';

/**
 * List+Watch a Kubernetes collection as a cold Observable of {@link RawEvent}s: the client-go
 * Reflector (paginated list, watch from the list's resourceVersion with bookmarks, resume without
 * relist, relist on 410, backoff with jitter) over HTTP, authenticated from a KubeConfig.
 *
 * Subscribing starts it; it never stops on a transient fault. What it is doing (listing with page
 * progress, watching, backing off, relisting, errors) goes to `config.onStatus`. Unsubscribing or
 * aborting `config.signal` aborts every request and clears every timer, so a process that
 * unsubscribes exits by itself. Objects are plain JSON; resourceVersions are opaque strings.
 *
 * ```text
 * subscribe ─► LIST_START LIST_PAGE… LIST_DONE(rv) ADDED MODIFIED BOOKMARK … (watch closes) … DELETED …
 *                                         410 ─► (backoff) LIST_START LIST_PAGE… LIST_DONE(rv') …
 * ```
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { listWatch, stripManagedFields } from 'rx-informer';
 *
 * const kc = new KubeConfig();
 * kc.loadFromDefault();
 * const sub = listWatch(kc, { version: 'v1', plural: 'configmaps', namespace: 'default' }, {
 *   transform: stripManagedFields,
 *   onStatus: (s) => s.type === 'ERROR' && console.error(s.error.message),
 * }).subscribe((e) => console.log(e.type, 'object' in e ? e.object.metadata?.name : ''));
 * // Logs: LIST_START, LIST_PAGE, LIST_DONE, then ADDED my-config, MODIFIED my-config, …
 * ```
 *
 * @param kubeConfig A @kubernetes/client-node 2.x `KubeConfig`; auth (token, exec, OIDC, client
 * certificates) and TLS come from its current context. A 401 reloads credentials from it.
 * @param resource `{ group?, version, plural, namespace? }`, or `{ apiVersion, kind, namespace? }`.
 * @param config Selectors, page size, streaming list, transform, metadata-only, backoff, watchdog,
 * `fatalErrors`, `onStatus`, `scheduler`, `signal`.
 * @returns A cold Observable of raw events (never errors on transient faults).
 * @see {@link reflector} for the state machine over any {@link ListerWatcher}.
 */
export function listWatch<T = KubeObject>(
  kubeConfig: KubeConfigLike,
  resource: ListWatchResource,
  config: ListWatchConfig<T> = {},
): Observable<RawEvent<T>> {
  return reflector(httpListerWatcher<T>(kubeConfig, resource, config), config);
}
