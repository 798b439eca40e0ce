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
