/**
 * @internal The ready queue of {@link reconcile}: keys in arrival order, with constant-time add,
 * take and size however long it grows (client-go workqueue's `queue` slice). It does not check for
 * duplicates: the workqueue's `dirty` set already keeps a key from being queued twice.
 *
 * A `Set` keeps the order too, but taking its first key again and again walks over the deleted
 * entries in front of it until the table is rebuilt, which made a backlog of 100,000 keys take
 * over a second.
 */
export interface KeyQueue<T = string> {
  /** Keys waiting. */
  readonly size: number;
  /** Appends `key`. */
  add(key: T): void;
  /** Removes and returns the oldest key; `undefined` when empty. */
  take(): T | undefined;
  clear(): void;
}

/** @internal Creates an empty {@link KeyQueue}. */
export function keyQueue<T = string>(): KeyQueue<T> {
  let items: T[] = [];
  let head = 0;
  return {
    get size() {
      return items.length - head;
    },
    add(key) {
      items.push(key);
    },
    take() {
      if (head === items.length) return undefined;
      const key = items[head++]!;
      // Drop the taken prefix once it is the larger part, so memory follows the keys still waiting.
      if (head > 1024 && head * 2 > items.length) {
        items = items.slice(head);
        head = 0;
      }
      return key;
    },
    clear() {
      items = [];
      head = 0;
    },
  };
}
