import type { Frozen } from './frozen.js';
import type { KubeObject } from './kubeObject.js';

/**
 * What became of a deleted object that was missed (client-go's `DeletedFinalStateUnknown`).
 *
 * A relist that no longer contains a cached key proves the object was deleted, but not what it
 * looked like at the end: `object` is the last state the informer knew, or `undefined`.
 */
export interface Tombstone<T> {
  /** Always `DeletedFinalStateUnknown`: tells a tombstone from an object. */
  readonly kind: 'DeletedFinalStateUnknown';
  /** The cache key of the deleted object. */
  readonly key: string;
  /** The last state the informer knew, or `undefined`. */
  readonly object: Frozen<T> | undefined;
}

/** Builds a frozen {@link Tombstone}. */
export function tombstone<T>(key: string, object: Frozen<T> | undefined): Tombstone<T> {
  return Object.freeze({ kind: 'DeletedFinalStateUnknown', key, object });
}

/** Whether `value` is a {@link Tombstone} rather than an object. */
export function isTombstone<T>(value: Frozen<T> | Tombstone<T>): value is Tombstone<T> {
  const candidate = value as Partial<Tombstone<T>> & KubeObject;
  return (
    candidate !== null &&
    typeof candidate === 'object' &&
    candidate.kind === 'DeletedFinalStateUnknown' &&
    typeof candidate.key === 'string' &&
    candidate.metadata === undefined
  );
}

/** The type of a {@link Delta}, as in client-go's DeltaFIFO. */
export type DeltaType = 'Added' | 'Updated' | 'Deleted' | 'Replaced' | 'Sync';

/**
 * One change to one key.
 *
 * - `Added` / `Updated`: from watch `ADDED` / `MODIFIED`.
 * - `Replaced`: the object as listed by a (re)list.
 * - `Sync`: a periodic resync re-delivers the cached object unchanged.
 * - `Deleted`: from watch `DELETED` (the final object), or found by a relist (a {@link Tombstone}).
 *
 * The object is read-only ({@link Frozen}): it is the cache's, or about to be (the store freezes
 * it in place when it applies the batch).
 */
export type Delta<T> =
  | {
      /** `Added`, `Updated` (watch events), `Replaced` (listed by a (re)list) or `Sync` (re-delivered unchanged by a resync). */
      readonly type: 'Added' | 'Updated' | 'Replaced' | 'Sync';
      /** The object's cache key. */
      readonly key: string;
      /** The object as it now is. */
      readonly object: Frozen<T>;
    }
  | {
      /** The object was deleted. */
      readonly type: 'Deleted';
      /** The object's cache key. */
      readonly key: string;
      /** The final object, or a {@link Tombstone} when a relist found the deletion. */
      readonly object: Frozen<T> | Tombstone<T>;
    };

/**
 * A marker in a delta stream that is about the whole collection, not one key.
 *
 * - `Listed`: the deltas of a (re)list have all been emitted; the collection is current as of
 *   `resourceVersion`. The first one makes the informer synced.
 * - `Bookmark`: nothing changed; the collection is current as of `resourceVersion`.
 * - `Resync`: a resync tick; the `Sync` deltas it queues follow it (none while nothing is cached).
 *   It marks the batch it joins `resync: true`, so handlers re-check whether their resync is due.
 *
 * @inline
 */
export type CollectionMarker =
  | {
      /** `Listed`: a (re)list's deltas are all out; `Bookmark`: nothing changed. */
      readonly type: 'Listed' | 'Bookmark';
      /** The collection is current as of this resourceVersion. */
      readonly resourceVersion: string;
    }
  | {
      /** A resync tick. */
      readonly type: 'Resync';
    };

/** What {@link toDeltas} emits, {@link resync} passes on with its ticks, and {@link bufferByKey} takes. */
export type DeltaEvent<T> = Delta<T> | CollectionMarker;

/**
 * The deltas of many keys, closed by {@link bufferByKey} and applied by the index reducer as one
 * atomic step.
 *
 * `deltas` iterates keys in first-arrival order (a key keeps its position until the batch is
 * emitted) and each key's deltas oldest first. `resourceVersion` is the collection's version after
 * the last event of the batch in arrival order; `listed` is set when the batch holds a complete
 * (re)list; `resync` is set when a resync tick joined the batch (its `Sync` deltas, if any, are in it).
 */
export interface DeltaBatch<T> {
  /** Each key's deltas, oldest first; keys in first-arrival order. */
  readonly deltas: ReadonlyMap<string, readonly Delta<T>[]>;
  /** The collection's resourceVersion after the batch's last event in arrival order. */
  readonly resourceVersion?: string;
  /** The batch holds a complete (re)list. */
  readonly listed?: boolean;
  /** A resync tick joined the batch (its `Sync` deltas, if any, are in it). */
  readonly resync?: boolean;
}

/** Whether a delta-stream event is a {@link CollectionMarker} rather than a {@link Delta}. */
export function isMarker<T>(event: DeltaEvent<T>): event is CollectionMarker {
  return event.type === 'Listed' || event.type === 'Bookmark' || event.type === 'Resync';
}
