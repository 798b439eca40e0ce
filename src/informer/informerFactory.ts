import type { KubeConfigLike } from '../client/kubeConfigLike.js';
import type { Subscription } from 'rxjs';
import { conflictingOptions, factoryKeys } from './factoryIdentity.js';

export type { CollectionKind } from './factoryIdentity.js';
import type { WhenSyncedOptions } from './informer.js';
import { crdGatedSources } from './crdGatedSources.js';
import { factoryInformer, type FactoryContext, type FactoryEntry } from './factoryInformer.js';
import { optionChecks, argumentError } from '../options/optionChecks.js';
import { checkKubeConfig } from '../client/transport/checkKubeConfig.js';
import type { ListWatchResource } from '../client/listWatchResource.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { SharedInformer, SharedInformerOptions } from './sharedInformer.js';

export type { SharedInformer, SharedInformerOptions } from './sharedInformer.js';

/** Defaults applied to every informer of a factory (per-informer options override them). */
export type InformerFactoryDefaults = Omit<SharedInformerOptions<KubeObject>, 'indexers' | 'keyFunc' | 'transform'> & {
  /** Applied to every object of every informer of the factory before it is cached (e.g. to drop `managedFields`). Default: none. */
  readonly transform?: (object: KubeObject) => KubeObject;
};

/** What {@link InformerFactory.metrics} reads: the sums over the factory's informers. */
export interface FactoryMetrics {
  /** How many informers the factory holds. */
  readonly informers: number;
  /** Cached objects, summed over the factory's informers. */
  readonly objects: number;
  /** The sum of each informer's `metrics().estimatedBytes`. */
  readonly estimatedBytes: number;
}

/**
 * Shares informers across a program, like client-go's SharedInformerFactory: one List+Watch per
 * (collection, namespace, label selector, field selector, transform, metadata-only), started when
 * it is first asked for and kept running until {@link InformerFactory.dispose}.
 */
export interface InformerFactory {
  /**
   * The shared informer for `resource` with these options; the same object for the same identity.
   * A collection is the same however it is named: `{ apiVersion: 'v1', kind: 'ConfigMap' }` and
   * `{ version: 'v1', plural: 'configmaps' }` at once, a CRD's kind and plural once discovery or
   * the first list has named the other. (A CRD asked for in both spellings before either answered
   * gets two informers.) Indexers and the other options are fixed by the first request; a later one
   * may leave them out or repeat them.
   *
   * @throws {TypeError} after `dispose()`, when a later request asks for an index the shared
   * informer was not created with, or for another value of an option it was created with
   * (`resyncMs`, `pageSize`, `streamingList`, `backoff`, …), naming the option.
   */
  informer<T extends KubeObject = KubeObject>(resource: ListWatchResource, options?: SharedInformerOptions<T>): SharedInformer<T>;
  /** Every informer made so far (a `'held'` one until it is released). */
  readonly informers: readonly SharedInformer<KubeObject>[];
  /** The memory of all its informers together: how many, their cached objects and the estimate of the bytes those hold. */
  metrics(): FactoryMetrics;
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
export function informerFactory(kubeConfig: KubeConfigLike, defaults: InformerFactoryDefaults = {}): InformerFactory {
  checkKubeConfig(kubeConfig);
  const abort = new AbortController();
  const keys = factoryKeys();
  const byKey = new Map<string, FactoryEntry>(); // every name of a collection → its informer
  const made: FactoryEntry[] = [];
  const running: Subscription[] = [];
  const context: FactoryContext = {
    kubeConfig,
    signal: abort.signal,
    keys,
    sources: crdGatedSources(kubeConfig, { ...defaults, signal: abort.signal }),
    alias: (key, entry) => {
      if (abort.signal.aborted || byKey.has(key)) return;
      byKey.set(key, entry);
      entry.keys.add(key);
    },
    forget: (entry) => {
      const at = made.indexOf(entry);
      if (at >= 0) made.splice(at, 1);
      for (const key of entry.keys) if (byKey.get(key) === entry) byKey.delete(key);
    },
    remember: (entry) => {
      if (abort.signal.aborted || made.includes(entry)) return;
      made.push(entry);
      for (const key of entry.keys) if (!byKey.has(key)) byKey.set(key, entry);
    },
  };

  return {
    informer<T extends KubeObject = KubeObject>(resource: ListWatchResource, options: SharedInformerOptions<T> = {}): SharedInformer<T> {
      if (abort.signal.aborted) throw argumentError('informerFactory', 'used after dispose()');
      const merged = { ...defaults, ...options } as SharedInformerOptions<T>;
      optionChecks('informerFactory', merged).oneOf('lifetime', merged.lifetime, ['factory', 'held']);
      const scope = keys.scope(resource, merged);
      const key = keys.request(resource, scope);
      const existing = byKey.get(key);
      if (existing !== undefined) {
        const { shared } = existing;
        const missing = Object.keys(merged.indexers ?? {}).filter((index) => !shared.snapshot.indexNames.includes(index));
        if (missing.length > 0) {
          throw argumentError('informerFactory', `the shared informer for ${shared.name} was created without the index(es) ${missing.join(', ')}; give every indexer in its first request`);
        }
        const conflict = conflictingOptions(shared.name, existing.options, options);
        if (conflict !== undefined) throw conflict;
        return shared as unknown as SharedInformer<T>;
      }
      const entry = factoryInformer(context, resource, merged, scope);
      // Started now and kept running until dispose(), as SharedInformerFactory.Start does. A source
      // that fails for good is not restarted: it is reported (FAILED on status$, whenSynced rejects).
      // A 'held' informer runs only while something holds it, and is forgotten when it stops.
      if (merged.lifetime !== 'held') running.push(entry.shared.connect());
      context.alias(key, entry);
      made.push(entry);
      return entry.shared as unknown as SharedInformer<T>;
    },
    get informers() {
      return made.map((entry) => entry.shared);
    },
    metrics() {
      let objects = 0;
      let estimatedBytes = 0;
      for (const { shared } of made) {
        const read = shared.metrics();
        objects += read.objects;
        estimatedBytes += read.estimatedBytes;
      }
      return { informers: made.length, objects, estimatedBytes };
    },
    async whenAllSynced(options = {}) {
      await Promise.all(made.map((entry) => entry.shared.whenSynced(options)));
    },
    dispose() {
      abort.abort(new Error('[informerFactory] disposed'));
      for (const subscription of running.splice(0)) subscription.unsubscribe();
      byKey.clear();
      made.length = 0;
    },
  };
}
