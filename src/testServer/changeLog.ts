import type { StoredObject } from './storedObject.js';

/** A change kept in the server's change log, as a watch replays it. @internal */
export interface ChangeEntry {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** Plural of the resource (with group) the object belongs to: the collection id. */
  readonly collection: string;
  /** The new version; for DELETED, the final state with the delete's resourceVersion. */
  readonly object: StoredObject;
  /** The version before the change (absent for ADDED). */
  readonly previous: StoredObject | undefined;
}

/**
 * The bounded log of recent changes that watches replay from, like the apiserver's watch cache.
 *
 * `floor` is the oldest resourceVersion a watch can start from: changes after it are all in the log.
 *
 * @internal
 */
export interface ChangeLog {
  readonly floor: number;
  readonly length: number;
  append(entry: ChangeEntry): void;
  /** Entries with `rv > after`, oldest first. Callers must check `after >= floor` first. */
  since(after: number): IterableIterator<ChangeEntry>;
  /** Drops every entry with `rv <= upTo` and raises the floor to `upTo`. */
  compact(upTo: number): void;
}

/** Creates a {@link ChangeLog} holding at most `capacity` entries, with `floor` as its starting point. @internal */
export function createChangeLog(capacity: number, floor: number): ChangeLog {
  // Ring buffer: entries[head .. head+length) modulo capacity.
  const entries: (ChangeEntry | undefined)[] = new Array<ChangeEntry | undefined>(Math.max(1, capacity));
  let head = 0;
  let length = 0;
  let currentFloor = floor;
  const at = (i: number): ChangeEntry => entries[(head + i) % entries.length]!;
  const dropOldest = (): void => {
    currentFloor = at(0).rv;
    entries[head] = undefined;
    head = (head + 1) % entries.length;
    length--;
  };
  return {
    get floor() {
      return currentFloor;
    },
    get length() {
      return length;
    },
    append(entry) {
      if (capacity <= 0) {
        currentFloor = entry.rv;
        return;
      }
      if (length === entries.length) dropOldest();
      entries[(head + length) % entries.length] = entry;
      length++;
    },
    *since(after) {
      let lo = 0;
      let hi = length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (at(mid).rv <= after) lo = mid + 1;
        else hi = mid;
      }
      // Entries appended while iterating are yielded too: a replay catches up to live.
      for (let i = lo; i < length; i++) yield at(i);
    },
    compact(upTo) {
      while (length > 0 && at(0).rv <= upTo) dropOldest();
      currentFloor = Math.max(currentFloor, upTo);
    },
  };
}
