import { keyQueue, type KeyQueue } from './keyQueue.js';

/**
 * @internal The line of due keys of {@link reconcile}: the highest priority first, first come
 * first served within a priority (controller-runtime's priority queue orders the same way). A key
 * is in the line once; putting it in again at a higher priority raises it (to the back of its new
 * priority), at a lower or equal one does nothing.
 *
 * Each priority is a {@link keyQueue}; a raised or removed key leaves a stale entry behind that
 * `take` skips (each entry carries a ticket, and only the key's newest ticket counts), so every
 * operation stays constant-time in the number of keys.
 */
export interface ReadyLine {
  /** Keys in the line. */
  readonly size: number;
  /** Puts `key` in the line at `priority`, or raises it there. */
  put(key: string, priority: number): void;
  /** Removes and returns the first key; `undefined` when empty. */
  take(): string | undefined;
  /** Takes `key` out of the line. */
  remove(key: string): void;
  /** Keys in the line per priority (for metrics). */
  depths(): ReadonlyMap<number, number>;
  clear(): void;
}

/** @internal Creates an empty {@link ReadyLine}. */
export function readyLine(): ReadyLine {
  const current = new Map<string, { readonly priority: number; readonly ticket: number }>();
  const byPriority = new Map<number, KeyQueue<readonly [string, number]>>();
  let priorities: number[] = []; // descending
  let tickets = 0;
  return {
    get size() {
      return current.size;
    },
    put(key, priority) {
      const entry = current.get(key);
      if (entry !== undefined && entry.priority >= priority) return;
      const ticket = ++tickets;
      current.set(key, { priority, ticket });
      let line = byPriority.get(priority);
      if (line === undefined) {
        byPriority.set(priority, (line = keyQueue()));
        priorities = [...priorities, priority].sort((a, b) => b - a);
      }
      line.add([key, ticket]);
    },
    take() {
      while (priorities.length > 0) {
        const priority = priorities[0]!;
        const line = byPriority.get(priority)!;
        for (let item = line.take(); item !== undefined; item = line.take()) {
          const [key, ticket] = item;
          if (current.get(key)?.ticket !== ticket) continue; // raised or removed since
          current.delete(key);
          if (line.size === 0) drop(priority);
          return key;
        }
        drop(priority);
      }
      return undefined;
    },
    remove: (key) => void current.delete(key),
    depths() {
      const depths = new Map<number, number>();
      for (const { priority } of current.values()) depths.set(priority, (depths.get(priority) ?? 0) + 1);
      return depths;
    },
    clear() {
      current.clear();
      byPriority.clear();
      priorities = [];
    },
  };

  function drop(priority: number): void {
    byPriority.delete(priority);
    priorities = priorities.filter((p) => p !== priority);
  }
}
