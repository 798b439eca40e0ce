import type { KubeConfigLike } from '../client/kubeConfigLike.js';
import { Observable, takeUntil, tap } from 'rxjs';
import type { KubeObject } from '../store/kubeObject.js';
import { httpListerWatcher } from './http/httpListerWatcher.js';
import type { ListWatchConfig } from './listWatchConfig.js';
import type { ListWatchResource } from '../client/listWatchResource.js';
import type { RawEvent } from './rawEvent.js';
import { reflector } from './reflector/reflector.js';
import { crdGated } from './crd/crdGated.js';
import { crdTargetOf } from './crd/crdTarget.js';
import { followCrd } from './crd/followCrd.js';

/**
 * List+Watch a Kubernetes collection as a cold Observable of {@link RawEvent}s: the client-go
 * Reflector (paginated list, watch from the list's resourceVersion with bookmarks, resume without
 * relist, relist on 410, backoff with jitter) over HTTP, authenticated from a KubeConfig.
 *
 * A custom resource (any group Kubernetes does not serve itself) follows its
 * CustomResourceDefinition as a factory's informers do: no request while the CRD does not serve the
 * resource (`CRD_MISSING`, `CRD_VERSION_NOT_SERVED` statuses), a fresh List+Watch as soon as it
 * does (`CRD_ESTABLISHED`), and, when the CRD is deleted, a relist of nothing (`CRD_REMOVED`: its
 * objects went with it). The CRD is followed by one small watch per KubeConfig and CRD, shared by
 * every source following it; without the right to list CRDs (403) the source runs as if there were
 * no CRD to follow. `fatalErrors: 'permanent'` opts out: a missing CRD then fails the source.
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
  const asAsked = reflector(httpListerWatcher<T>(kubeConfig, resource, config), config);
  const crd = config.fatalErrors === 'permanent' ? undefined : crdTargetOf(resource);
  if (crd === undefined) return asAsked;
  const open = (plural: string | undefined): Observable<RawEvent<T>> =>
    plural === undefined ? asAsked : reflector(httpListerWatcher<T>(kubeConfig, { group: crd.group, version: crd.version, plural, ...(resource.namespace ? { namespace: resource.namespace } : {}) }, config), config);
  const inputs = followCrd(kubeConfig, crd, { ...(config.scheduler ? { scheduler: config.scheduler } : {}), ...(config.backoff ? { backoff: config.backoff } : {}) });
  const gated = crdGated(inputs, crd, open, config.scheduler).pipe(
    // The gate's own statuses go to onStatus too, as the reflector's do (it calls onStatus, then emits).
    tap((event) => {
      if (event.type === 'STATUS' && event.status.type.startsWith('CRD_')) config.onStatus?.(event.status);
    }),
  );
  // While the gate waits no reflector runs to see the signal: the gate ends with it too.
  return config.signal ? gated.pipe(takeUntil(aborted(config.signal))) : gated;
}

/** Emits once `signal` is aborted (at once if it already is). */
function aborted(signal: AbortSignal): Observable<void> {
  return new Observable<void>((subscriber) => {
    const abort = (): void => subscriber.next();
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    return () => signal.removeEventListener('abort', abort);
  });
}
