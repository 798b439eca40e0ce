import type { KubeConfigLike } from '../../client/kubeConfigLike.js';
import { kubeConfigTransport } from '../../client/transport/kubeConfigTransport.js';
import type { ListWatchResource } from '../../client/listWatchResource.js';
import type { KubeObject } from '../../store/kubeObject.js';
import type { ListerWatcher } from '../listerWatcher.js';
import type { ListWatchConfig } from '../listWatchConfig.js';
import { transportListerWatcher, type CollectionHooks, type TransportListerWatcherConfig } from './transportListerWatcher.js';

/**
 * The HTTP {@link ListerWatcher} of a resource: LIST and WATCH requests built from one config
 * (selectors, metadata-only `Accept`), authenticated and TLS-configured from the KubeConfig.
 *
 * List items come back as plain JSON with `kind`/`apiVersion` filled in from the list. Watch
 * streams are split into lines without buffering more than `maxLineBytes`; each line is decoded
 * and parsed once and emitted as parsed (`{type, object}`), an `ERROR` event becomes a
 * {@link KubeApiError}. A 401 makes the next request reload credentials from the KubeConfig.
 * Node only (`node:http`); in a browser, {@link fetchListWatch} runs the same protocol over `fetch`.
 *
 * @param kubeConfig A @kubernetes/client-node `KubeConfig` (only its current context is used).
 * @param resource The collection; `{ apiVersion, kind }` of a CRD is resolved by discovery on first use.
 * @param config Selectors, `metadataOnly`, `maxLineBytes`, `maxListBytes`.
 * @see {@link listWatch}, which runs {@link reflector} over this.
 */
export function httpListerWatcher<T = KubeObject>(
  kubeConfig: KubeConfigLike,
  resource: ListWatchResource,
  config: Pick<ListWatchConfig<T>, 'labelSelector' | 'fieldSelector' | 'shardSelector' | 'metadataOnly' | 'maxLineBytes' | 'maxListBytes' | 'scheduler'> = {},
): ListerWatcher<T> {
  return createHttpListerWatcher(kubeConfig, resource, config, {});
}

/** @internal {@link httpListerWatcher} with {@link CollectionHooks}. */
export function createHttpListerWatcher<T = KubeObject>(
  kubeConfig: KubeConfigLike,
  resource: ListWatchResource,
  config: TransportListerWatcherConfig<T>,
  hooks: CollectionHooks,
): ListerWatcher<T> {
  return transportListerWatcher<T>(kubeConfigTransport(kubeConfig), resource, config, hooks);
}
