import type { KubeConfigLike } from '../client/kubeConfigLike.js';
import type { Observable } from 'rxjs';
import type { ListWatchResource } from '../client/listWatchResource.js';
import { crdGated } from '../sources/crd/crdGated.js';
import { createHttpListerWatcher } from '../sources/http/httpListerWatcher.js';
import type { CollectionHooks } from '../sources/http/transportListerWatcher.js';
import type { ListWatchConfig } from '../sources/listWatchConfig.js';
import type { RawEvent } from '../sources/rawEvent.js';
import { reflector } from '../sources/reflector/reflector.js';
import type { KubeObject } from '../store/kubeObject.js';
import { crdTargetOf } from '../sources/crd/crdTarget.js';
import { crdWatch, type CrdWatch } from './crdWatch.js';

/** @internal The source of one of a factory's informers, from its resource, its config and the hooks that learn its names. */
export type FactorySource = <T extends KubeObject>(resource: ListWatchResource, config: ListWatchConfig<T>, hooks: CollectionHooks) => Observable<RawEvent<T>>;

/**
 * @internal The sources of a factory's informers: a reflector over the HTTP ListerWatcher of the
 * resource as asked, built at once so that bad options throw at the request. A custom resource
 * follows its CRD through one watch of CRDs for the whole factory (made for its first custom
 * resource, ended by `factory.signal`): no request while the CRD does not serve it, a fresh
 * List+Watch under the CRD's plural as soon as it does. Unless a 404 was asked to be fatal
 * (`fatalErrors: 'permanent'`): then a missing CRD fails it, as it asked.
 *
 * @param factory the factory's signal, and the clock and backoff of its watch of CRDs.
 */
export function crdGatedSources(kubeConfig: KubeConfigLike, factory: Pick<ListWatchConfig<KubeObject>, 'scheduler' | 'backoff'> & { readonly signal: AbortSignal }): FactorySource {
  let crds: CrdWatch | undefined;
  const crdWatchOf = (): CrdWatch =>
    (crds ??= crdWatch(kubeConfig, {
      signal: factory.signal,
      ...(factory.scheduler ? { scheduler: factory.scheduler } : {}),
      ...(factory.backoff ? { backoff: factory.backoff } : {}),
    }));
  return <T extends KubeObject>(resource: ListWatchResource, config: ListWatchConfig<T>, hooks: CollectionHooks): Observable<RawEvent<T>> => {
    const asAsked = reflector(createHttpListerWatcher<T>(kubeConfig, resource, config, hooks), config);
    const crd = config.fatalErrors === 'permanent' ? undefined : crdTargetOf(resource);
    if (crd === undefined) return asAsked;
    const open = (plural: string | undefined): Observable<RawEvent<T>> => {
      if (plural === undefined) return asAsked;
      hooks.onResolved?.({ group: crd.group, version: crd.version, plural });
      const named = { group: crd.group, version: crd.version, plural, ...(resource.namespace ? { namespace: resource.namespace } : {}) };
      return reflector(createHttpListerWatcher<T>(kubeConfig, named, config, hooks), config);
    };
    return crdGated(crdWatchOf().inputs(crd), crd, open, config.scheduler);
  };
}
