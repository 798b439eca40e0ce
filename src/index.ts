/* Informer */
export type { Informer, InformerOptions, InformerError, ResourceEventHandler, HandlerOptions } from './informer/informer.js';
export { informer, HandlerError, HookError } from './informer/informer.js';

/* Informer factory and metrics */
export type { InformerFactory, InformerFactoryDefaults, SharedInformer, SharedInformerOptions } from './informer/informerFactory.js';
export { informerFactory } from './informer/informerFactory.js';
export type { InformerMetrics, InformerMetricsCollector } from './metrics/informerMetrics.js';
export { informerMetrics } from './metrics/informerMetrics.js';

/* Operators */
export type { ToDeltasConfig } from './operators/toDeltas.js';
export { toDeltas, InvalidObjectError } from './operators/toDeltas.js';
export type { BufferByKeyConfig } from './operators/bufferByKey.js';
export { bufferByKey } from './operators/bufferByKey.js';
export { dedupDeltas } from './operators/dedupDeltas.js';
export { resync } from './operators/resync.js';
export type { IndexReducerConfig } from './operators/indexReducer.js';
export { indexReducer } from './operators/indexReducer.js';

/* Controllers */
export type { ReconcileConfig, ReconcileContext, ReconcileHandler, ReconcileOutcome, ReconcileResult } from './controller/reconcile.js';
export { reconcile } from './controller/reconcile.js';
export type { PredicateFilterConfig } from './controller/predicateFilter.js';
export { predicateFilter } from './controller/predicateFilter.js';
export type { Predicate } from './controller/predicates.js';
export { predicates } from './controller/predicates.js';

/* Store */
export type { Snapshot, ListOptions } from './store/snapshot.js';
export { emptySnapshot } from './store/snapshot.js';
export type { StoreUpdate } from './store/applyBatch.js';
export { applyBatch } from './store/applyBatch.js';
export { dedupDeltaList } from './store/dedupDeltaList.js';
export type { IndexFunc, Indexers } from './store/indexFunc.js';
export { byNamespace, byLabel, IndexFuncError, UnknownIndexError } from './store/indexFunc.js';
export type { LabelSelector, LabelRequirement, LabelSelectorSpec } from './store/labelSelector.js';
export { parseLabelSelector, labelSelectorFromSpec, matchesLabels, matchesSelector, LabelSelectorError } from './store/labelSelector.js';
export type { KeyFunc } from './store/keyFunc.js';
export { metaNamespaceKey, objectKey } from './store/keyFunc.js';
export { resourceVersionOf } from './store/resourceVersionOf.js';

/* Types: objects, deltas, notifications */
export type { KubeObject, ObjectMeta } from './store/kubeObject.js';
export type { Delta, DeltaType, DeltaEvent, DeltaBatch, CollectionMarker, Tombstone } from './store/delta.js';
export { tombstone, isTombstone, isMarker } from './store/delta.js';
export type { Notification, NotificationType } from './store/notification.js';

/* Types: raw events of a source */
export type { RawEvent, RawEventType, WatchEvent, BookmarkEvent, ListStart, ListPage, ListDone } from './sources/rawEvent.js';

/* Sources */
export { listWatch } from './sources/listWatch.js';
export { reflector } from './sources/reflector/reflector.js';
export { httpListerWatcher } from './sources/http/httpListerWatcher.js';
export { stripManagedFields } from './sources/stripManagedFields.js';
export { KubeApiError } from './sources/kubeApiError.js';
export { TransportError } from './sources/transportError.js';
export { WatchStalledError } from './sources/watchStalledError.js';
export { VeryShortWatchError } from './sources/veryShortWatchError.js';
export { MalformedWatchLineError } from './sources/malformedWatchLineError.js';
export { WatchLineTooLongError } from './sources/watchLineTooLongError.js';
export { TransformError } from './sources/transformError.js';
export type { KubeStatus, KubeApiErrorInit } from './sources/kubeApiError.js';
export type { ListWatchConfig } from './sources/listWatchConfig.js';
export type { ReflectorConfig, BackoffConfig } from './sources/reflector/reflectorConfig.js';
export type { ListWatchResource, GroupVersionResource, ApiVersionKind } from './sources/listWatchResource.js';
export type {
  ListWatchStatus,
  ListingStatus,
  WatchingStatus,
  BackingOffStatus,
  RelistingStatus,
  ErrorStatus,
  RelistReason,
} from './sources/reflector/listWatchStatus.js';
export type {
  ListerWatcher,
  ListRequest,
  ListResponse,
  WatchRequest,
  WatchMessage,
  WatchObjectMessage,
  WatchBookmarkMessage,
  WatchSignal,
} from './sources/listerWatcher.js';
