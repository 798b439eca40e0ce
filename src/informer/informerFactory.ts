import type { KubeConfig } from '@kubernetes/client-node';
import { tap, type Subscription } from 'rxjs';
import { informer, type Informer, type InformerOptions, type WhenSyncedOptions } from './informer.js';
import { informerMetrics, type InformerMetrics } from '../metrics/informerMetrics.js';
import { listWatch } from '../sources/listWatch.js';
import type { ListWatchConfig } from '../sources/listWatchConfig.js';
import type { ListWatchResource } from '../sources/listWatchResource.js';
import type { KubeObject } from '../store/kubeObject.js';

/** What identifies a shared informer: asking twice with the same values returns the same one. */
export interface SharedInformerOptions<T extends KubeObject> extends Omit<InformerOptions<T>, 'onUpdate' | 'name'>, Omit<ListWatchConfig<T>, 'onStatus' | 'signal'> {}

/** Defaults applied to every informer of a factory (per-informer options override them). */
export type InformerFactoryDefaults = Omit<SharedInformerOptions<KubeObject>, 'indexers' | 'keyFunc' | 'transform'> & {
  readonly transform?: (object: KubeObject) => KubeObject;
};

/**
 * An informer made by a factory: the informer (connected by the factory until `dispose()`; its
 * `status$` tells what its source is doing), its resource and name, and its metrics.
 */
export interface SharedInformer<T extends KubeObject> extends Informer<T> {
  readonly resource: ListWatchResource;
  /** How messages name it: the resource, its namespace and selectors (`pods in namespace web`). */
  readonly name: string;
  /** Counters of this informer: requests, relists and why, events, notifications, sync time. */
  metrics(): InformerMetrics;
}

/**
 * Shares informers across a program, like client-go's SharedInformerFactory: one List+Watch per
 * (resource, namespace, label selector, field selector, transform, metadata-only), started when it
 * is first asked for and kept running until {@link InformerFactory.dispose}.
 */
export interface InformerFactory {
  /**
   * The shared informer for `resource` with these options; the same object for the same identity.
   * Indexers and other informer options are fixed by the first request.
   *
   * @throws {TypeError} after `dispose()`, or when a later request asks for an index the shared
   * informer was not created with.
   */
  informer<T extends KubeObject = KubeObject>(resource: ListWatchResource, options?: SharedInformerOptions<T>): SharedInformer<T>;
  /** Every informer made so far. */
  readonly informers: readonly SharedInformer<KubeObject>[];
  /**
   * Resolves when every informer made so far has applied its first list. Rejects with the
   * {@link NotSyncedError} of the first informer that cannot sync — its source failed (a missing
   * CRD with `fatalErrors: 'permanent'`), `signal` aborted or `timeoutMs` passed — whose message
   * names that informer and ends with its source's last error.
   */
  whenAllSynced(options?: WhenSyncedOptions): Promise<void>;
  /** Stops every watch and completes every stream; the factory cannot be used afterwards. */
  dispose(): void;
}

/**
 * Creates an {@link InformerFactory} over a KubeConfig.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { byNamespace, informerFactory, stripManagedFields } from 'rx-informer';
 *
 * const kc = new KubeConfig();
 * kc.loadFromDefault();
 * const factory = informerFactory(kc, { transform: stripManagedFields });
 * const pods = factory.informer({ version: 'v1', plural: 'pods' }, { indexers: { namespace: byNamespace } });
 * const nodes = factory.informer({ version: 'v1', plural: 'nodes' });
 * await factory.whenAllSynced();
 * console.log(pods.snapshot.size, nodes.snapshot.size);
 * factory.dispose();
 * ```
 *
 * @param kubeConfig client-node's KubeConfig (auth, TLS, server).
 * @param defaults options applied to every informer of the factory.
 */
export function informerFactory(kubeConfig: KubeConfig, defaults: InformerFactoryDefaults = {}): InformerFactory {
  const abort = new AbortController();
  const byIdentity = new Map<string, SharedInformer<KubeObject>>();
  const transformIds = new WeakMap<object, number>();
  let transforms = 0;
  const running: Subscription[] = [];

  const identityOf = (resource: ListWatchResource, options: { transform?: object; labelSelector?: string; fieldSelector?: string; metadataOnly?: boolean }): string => {
    const { transform, labelSelector = '', fieldSelector = '', metadataOnly = false } = options;
    let transformId = 0;
    if (transform !== undefined) {
      if (!transformIds.has(transform)) transformIds.set(transform, ++transforms);
      transformId = transformIds.get(transform)!;
    }
    const target = 'plural' in resource ? `${resource.group ?? ''}/${resource.version}/${resource.plural}` : `${resource.apiVersion}/${resource.kind}`;
    return JSON.stringify([target, resource.namespace ?? '', labelSelector, fieldSelector, transformId, metadataOnly]);
  };

  const create = <T extends KubeObject>(resource: ListWatchResource, options: SharedInformerOptions<T>): SharedInformer<T> => {
    const metrics = informerMetrics(options.scheduler ? { scheduler: options.scheduler } : {});
    const name = describeInformer(resource, options);
    const source = listWatch<T>(kubeConfig, resource, { ...options, signal: abort.signal, onStatus: metrics.onStatus }).pipe(tap((event) => metrics.onEvent(event)));
    const shared = informer<T>(source, { ...options, name, onUpdate: (update) => metrics.onUpdate(update) });
    // Started now and kept running until dispose(), as SharedInformerFactory.Start does. A source
    // that fails for good is not restarted: it is reported (FAILED on status$, whenSynced rejects).
    running.push(shared.connect());
    return {
      updates$: shared.updates$,
      snapshots$: shared.snapshots$,
      changes$: shared.changes$,
      synced$: shared.synced$,
      errors$: shared.errors$,
      status$: shared.status$,
      get snapshot() {
        return shared.snapshot;
      },
      connect: shared.connect,
      whenSynced: shared.whenSynced,
      addHandler: shared.addHandler,
      resource,
      name,
      metrics: () => metrics.read(),
    };
  };

  return {
    informer<T extends KubeObject = KubeObject>(resource: ListWatchResource, options: SharedInformerOptions<T> = {}): SharedInformer<T> {
      if (abort.signal.aborted) throw new TypeError('[informer] informerFactory: used after dispose()');
      const merged = { ...defaults, ...options } as SharedInformerOptions<T>;
      const identity = identityOf(resource, merged);
      const existing = byIdentity.get(identity) as SharedInformer<T> | undefined;
      if (existing !== undefined) {
        const missing = Object.keys(merged.indexers ?? {}).filter((name) => !existing.snapshot.indexNames.includes(name));
        if (missing.length > 0) {
          throw new TypeError(`[informer] informerFactory: the shared informer for ${identity} was created without the index(es) ${missing.join(', ')}; give every indexer in its first request`);
        }
        return existing;
      }
      const made = create(resource, merged);
      byIdentity.set(identity, made as unknown as SharedInformer<KubeObject>);
      return made;
    },
    get informers() {
      return [...byIdentity.values()];
    },
    async whenAllSynced(options = {}) {
      await Promise.all([...byIdentity.values()].map((shared) => shared.whenSynced(options)));
    },
    dispose() {
      abort.abort(new Error('[informer] informerFactory disposed'));
      for (const subscription of running.splice(0)) subscription.unsubscribe();
      byIdentity.clear();
    },
  };
}

/** `configmaps`, `widgets.example.com in namespace x`, `Pod (v1) with labelSelector app=web`: how a factory informer is named in messages. */
function describeInformer(resource: ListWatchResource, options: { labelSelector?: string; fieldSelector?: string; metadataOnly?: boolean }): string {
  const what = 'plural' in resource ? (resource.group ? `${resource.plural}.${resource.group}` : resource.plural) : `${resource.kind} (${resource.apiVersion})`;
  const parts = [what];
  if (resource.namespace) parts.push(`in namespace ${resource.namespace}`);
  if (options.labelSelector) parts.push(`with labelSelector ${options.labelSelector}`);
  if (options.fieldSelector) parts.push(`with fieldSelector ${options.fieldSelector}`);
  if (options.metadataOnly) parts.push('(metadata only)');
  return parts.join(' ');
}
