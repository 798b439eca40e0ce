import type { Tombstone } from './delta.js';
import type { Frozen } from './frozen.js';

/**
 * What consumers are told after the cache changed, in client-go's handler vocabulary. Its objects
 * are the cache's, read-only ({@link Frozen}).
 *
 * - `add`: a key appeared; `isInInitialList` is true for the objects of the first list (not for
 *   watch events that share its batch) and for the replay a late handler receives.
 * - `update`: a cached key got a new object; `oldObject` is what was cached before. `sync` is true
 *   when both carry the same resourceVersion: a resync or an unchanged object in a relist.
 * - `delete`: a key left the cache; `object` is the final object, or a {@link Tombstone} when a
 *   relist found the deletion.
 *
 * A notification is emitted after (or atomically with) the snapshot that contains its change.
 */
export type Notification<T> =
  | { readonly type: 'add'; readonly key: string; readonly object: Frozen<T>; readonly isInInitialList: boolean }
  | { readonly type: 'update'; readonly key: string; readonly oldObject: Frozen<T>; readonly object: Frozen<T>; readonly sync: boolean }
  | { readonly type: 'delete'; readonly key: string; readonly object: Frozen<T> | Tombstone<T> };

/** The `type` of every {@link Notification}. */
export type NotificationType = Notification<unknown>['type'];
