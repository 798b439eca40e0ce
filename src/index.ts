/* Store: vocabulary */
export type { KubeObject, ObjectMeta } from './store/kubeObject.js';
export type { KeyFunc } from './store/keyFunc.js';
export { metaNamespaceKey, objectKey } from './store/keyFunc.js';
export { resourceVersionOf } from './store/resourceVersionOf.js';
export type { Delta, DeltaType, DeltaEvent, DeltaBatch, CollectionMarker, Tombstone } from './store/delta.js';
export { tombstone, isTombstone } from './store/delta.js';
export type { Notification, NotificationType } from './store/notification.js';

/* Sources: vocabulary */
export type { RawEvent, RawEventType, WatchEvent, BookmarkEvent, ListStart, ListPage, ListDone } from './sources/rawEvent.js';

/* Sources */
export { listWatch } from './sources/listWatch.js';
export { reflector } from './sources/reflector.js';
export { httpListerWatcher } from './sources/httpListerWatcher.js';
export { stripManagedFields } from './sources/stripManagedFields.js';
export { KubeApiError } from './sources/kubeApiError.js';
export { TransportError } from './sources/transportError.js';
export { WatchStalledError } from './sources/watchStalledError.js';
export { VeryShortWatchError } from './sources/veryShortWatchError.js';
export { MalformedWatchLineError } from './sources/malformedWatchLineError.js';
export { WatchLineTooLongError } from './sources/watchLineTooLongError.js';
export type { KubeStatus, KubeApiErrorInit } from './sources/kubeApiError.js';
export type { ListWatchConfig } from './sources/listWatchConfig.js';
export type { ReflectorConfig, BackoffConfig } from './sources/reflectorConfig.js';
export type { ListWatchResource, GroupVersionResource, ApiVersionKind } from './sources/listWatchResource.js';
export type {
  ListWatchStatus,
  ListingStatus,
  WatchingStatus,
  BackingOffStatus,
  RelistingStatus,
  ErrorStatus,
  RelistReason,
} from './sources/listWatchStatus.js';
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
