import type { KubeConfigLike } from '../client/kubeConfigLike.js';
import { defer, finalize, tap } from 'rxjs';
import { resourceName } from '../client/resolveResource.js';
import type { ListWatchResource } from '../client/listWatchResource.js';
import { informerMetrics } from '../metrics/informerMetrics.js';
import type { CollectionHooks } from '../sources/http/transportListerWatcher.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { FactorySource } from './crdGatedSources.js';
import { knownKind, type FactoryKeys } from './factoryIdentity.js';
import { informer } from './informer.js';
import type { SharedInformer, SharedInformerOptions } from './sharedInformer.js';

/** @internal One informer of a factory, as the factory keeps it. */
export interface FactoryEntry {
  readonly shared: SharedInformer<KubeObject>;
  /** The factory defaults with the first request: what later requests must agree with. */
  readonly options: object;
  /** Every key it is known under. */
  readonly keys: Set<string>;
}

/** @internal What a factory gives each informer it makes, and what it hears from them. */
export interface FactoryContext {
  readonly kubeConfig: KubeConfigLike;
  /** Aborted by `dispose()`. */
  readonly signal: AbortSignal;
  readonly keys: FactoryKeys;
  readonly sources: FactorySource;
  /** A name learned later (by discovery, or from a list) for a collection that has an informer already. */
  alias(key: string, entry: FactoryEntry): void;
  /** A 'held' informer started again by a holder that kept it: shared again. */
  remember(entry: FactoryEntry): void;
  /** A 'held' informer that stopped: nobody holds it, so the factory lets it go. */
  forget(entry: FactoryEntry): void;
}

/**
 * @internal Makes one of a factory's informers, not yet connected: its metrics, its name, its source
 * (whose hooks tell the factory the names its collection is learned under), the informer, and the
 * {@link SharedInformer} over both. A `'held'` one is remembered by the factory while it runs and
 * forgotten when it stops.
 */
export function factoryInformer<T extends KubeObject>(factory: FactoryContext, resource: ListWatchResource, options: SharedInformerOptions<T>, scope: string): FactoryEntry {
  const metrics = informerMetrics({ ...(options.scheduler ? { scheduler: options.scheduler } : {}), ...(options.objective ? { objective: options.objective } : {}) });
  const name = describeInformer(resource, options);
  const config = { ...options, signal: factory.signal, onStatus: metrics.onStatus };
  let kind = knownKind(resource);
  const hooks: CollectionHooks = {
    onResolved: ({ group, version, plural }) => factory.alias(factory.keys.collection(group, version, plural, scope), entry),
    onKind: (apiVersion, named) => {
      kind ??= { apiVersion, kind: named };
      factory.alias(factory.keys.kind(apiVersion, named, scope), entry);
    },
  };
  const raw = factory.sources<T>(resource, config, hooks);
  const held = options.lifetime === 'held';
  const source = defer(() => {
    if (held) factory.remember(entry);
    return raw;
  }).pipe(
    tap({ next: (event) => metrics.onEvent(event) }),
    finalize(() => {
      metrics.onStop();
      if (held) factory.forget(entry);
    }),
  );
  const inner = informer<T>(source, { ...options, name, onUpdate: (update) => metrics.onUpdate(update) });
  const shared: SharedInformer<T> = {
    updates$: inner.updates$,
    snapshots$: inner.snapshots$,
    changes$: inner.changes$,
    synced$: inner.synced$,
    errors$: inner.errors$,
    status$: inner.status$,
    get snapshot() {
      return inner.snapshot;
    },
    connect: inner.connect,
    whenSynced: inner.whenSynced,
    addHandler: inner.addHandler,
    resource,
    get kind() {
      return kind;
    },
    name,
    metrics: () => metrics.read(),
    objective$: metrics.objective$,
    onReconcile: (outcome) => metrics.onReconcile(outcome),
  };
  const entry: FactoryEntry = { shared: shared as unknown as SharedInformer<KubeObject>, options, keys: new Set() };
  return entry;
}

/** `configmaps`, `widgets.example.com in namespace x`, `Pod (v1) with labelSelector app=web`: how a factory informer is named in messages. */
function describeInformer(resource: ListWatchResource, options: { labelSelector?: string; fieldSelector?: string; metadataOnly?: boolean }): string {
  const what = 'plural' in resource ? resourceName(resource.group ?? '', resource.plural) : `${resource.kind} (${resource.apiVersion})`;
  const parts = [what];
  if (resource.namespace) parts.push(`in namespace ${resource.namespace}`);
  if (options.labelSelector) parts.push(`with labelSelector ${options.labelSelector}`);
  if (options.fieldSelector) parts.push(`with fieldSelector ${options.fieldSelector}`);
  if (options.metadataOnly) parts.push('(metadata only)');
  return parts.join(' ');
}
