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
  | {
      /** A key appeared in the cache. */
      readonly type: 'add';
      /** The object's cache key (`namespace/name`, or `name` when cluster-scoped, by default). */
      readonly key: string;
      /** The object now cached. */
      readonly object: Frozen<T>;
      /** It came with the first list (or in the replay a late handler receives). */
      readonly isInInitialList: boolean;
    }
  | {
      /** A cached key got a new object. */
      readonly type: 'update';
      /** The object's cache key. */
      readonly key: string;
      /** What was cached before. */
      readonly oldObject: Frozen<T>;
      /** The object now cached. */
      readonly object: Frozen<T>;
      /** Both carry the same resourceVersion: a resync, or an unchanged object in a relist. */
      readonly sync: boolean;
    }
  | {
      /** A key left the cache. */
      readonly type: 'delete';
      /** The object's cache key. */
      readonly key: string;
      /** The final object, or a {@link Tombstone} when a relist found the deletion. */
      readonly object: Frozen<T> | Tombstone<T>;
    };

/** The `type` of every {@link Notification}. */
export type NotificationType = Notification<unknown>['type'];
