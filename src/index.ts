/**
 * rx-informer: Kubernetes informers as RxJS streams. This file alone decides what is public; every
 * name here has TSDoc at its definition. Union members (a status, a raw event, a delta of one type)
 * are reached with `Extract<>`, e.g. `Extract<ListWatchStatus, { type: 'ERROR' }>`.
 *
 * The entry points: `rx-informer` (this one: informers, sources, operators, the store),
 * `rx-informer/controller` (the controller toolkit: controllers, writes, finalizers, events, probes,
 * leader election and sharding), `rx-informer/testing` (fakes, builders, marbles; needs rxjs only),
 * `rx-informer/test-server` (an in-process API server), `rx-informer/envtest` (a real etcd +
 * kube-apiserver for tests), `rx-informer/prometheus` (metrics for
 * prom-client), `rx-informer/fleet` (informers over many clusters that join and leave; Node only), `rx-informer/web` (for a web console: every watch of a page over one connection,
 * snapshots thinned for the screen) and `rx-informer/relay` (that connection's backend half, Node).
 *
 * @module rx-informer
 */

/* Informers: the cache of one collection, shared */
export { informer } from './informer/informer.js';
export type { Informer, InformerOptions, ResourceEventHandler, HandlerOptions, WhenSyncedOptions } from './informer/informer.js';
export { informerFactory } from './informer/informerFactory.js';
export type { CollectionKind, FactoryMetrics, InformerFactory, InformerFactoryDefaults, SharedInformer, SharedInformerOptions } from './informer/informerFactory.js';
export { informerMetrics } from './metrics/informerMetrics.js';
export type { InformerMetrics, InformerMetricsCollector, InformerMetricsOptions, ReconcileOutcomeReading } from './metrics/informerMetrics.js';
export type { LatencyHistogram } from './metrics/latencyHistogram.js';
export type { LatencyObjective, LatencyObjectiveStatus } from './metrics/latencyObjective.js';

/* Sources: List+Watch as a cold Observable of raw events */
export { listWatch } from './sources/listWatch.js';
export { reflector } from './sources/reflector/reflector.js';
export { httpListerWatcher } from './sources/http/httpListerWatcher.js';
export { fetchListWatch } from './sources/fetchListWatch.js';
export type { FetchTransportConfig } from './client/transport/fetchTransport.js';
export type { KubeConfigLike } from './client/kubeConfigLike.js';
export { discoverResource } from './client/discoverResource.js';
export type { DiscoveredResource } from './client/discoverResource.js';
export { stripManagedFields } from './sources/stripManagedFields.js';
export type { RawEvent } from './sources/rawEvent.js';
export type { ListWatchConfig } from './sources/listWatchConfig.js';
export type { ListWatchResource } from './client/listWatchResource.js';
export type { ReflectorConfig, BackoffConfig, ListCompleted } from './sources/reflector/reflectorConfig.js';
export { createBackoff } from './sources/reflector/backoff.js';
export type { Backoff, BackoffStep } from './sources/reflector/backoff.js';
export type { ListWatchStatus, RelistReason } from './sources/reflector/listWatchStatus.js';
export type { ListerWatcher, ListRequest, ListResponse, WatchRequest, WatchMessage } from './sources/listerWatcher.js';

/* Operators: the informer's stages, each usable with pipe() */
export { toDeltas } from './operators/toDeltas.js';
export type { ToDeltasConfig } from './operators/toDeltas.js';
export { bufferByKey } from './operators/bufferByKey.js';
export type { BufferByKeyConfig } from './operators/bufferByKey.js';
export { dedupDeltas } from './operators/dedupDeltas.js';
export { resync } from './operators/resync.js';
export { indexReducer } from './operators/indexReducer.js';
export type { IndexReducerConfig } from './operators/indexReducer.js';

/* Controllers: from changes to work */
export { reconcile } from './controller/reconcile.js';
export type { CacheFreshness, QueueOptions, ReconcileConfig, ReconcileContext, ReconcileHandler, ReconcileOutcome, ReconcileRequest, ReconcileResult, RunFacts } from './controller/reconcile.js';
export type { ReconcileReason } from './controller/reconcileReason.js';
export { predicateFilter } from './controller/predicateFilter.js';
export type { PredicateFilterConfig } from './controller/predicateFilter.js';
export { predicates } from './controller/predicates.js';
export type { Predicate } from './controller/predicates.js';

/* Store: immutable snapshots, keys, indexes, selectors (pure functions) */
export { emptySnapshot } from './store/snapshot.js';
export type { Snapshot, ListOptions, NamespacedLister } from './store/snapshot.js';
export { applyBatch } from './store/applyBatch.js';
export type { StoreUpdate } from './store/applyBatch.js';
export { metaNamespaceKey, objectKey } from './store/keyFunc.js';
export type { KeyFunc } from './store/keyFunc.js';
export { byNamespace, byLabel } from './store/indexFunc.js';
export type { IndexFunc, Indexers } from './store/indexFunc.js';
export { parseLabelSelector, matchesLabels } from './store/labelSelector.js';
export type { LabelSelector, LabelSelectorSpec } from './store/labelSelector.js';
export type { ShardField, ShardRange, ParsedShardSelector } from './sources/shardSelector.js';
export { tombstone, isTombstone } from './store/delta.js';
export type { Delta, DeltaEvent, DeltaBatch, Tombstone } from './store/delta.js';
export type { Notification } from './store/notification.js';
export type { KubeObject, ObjectMeta } from './store/kubeObject.js';
export type { Json } from './store/json.js';
export type { Frozen } from './store/frozen.js';

/* Errors: one catalogue (src/errors.ts) */
export { KubeApiError, TransportError, TransformError, InformerError, NotSyncedError, UnknownIndexError, LabelSelectorError } from './errors.js';
export type { KubeStatus, KubeApiErrorInit, TransportErrorReason, TransportErrorOptions, InformerErrorReason, NotSyncedReason } from './errors.js';
