/**
 * A set of strings kept in ascending order, for listing a collection in key order page by page.
 *
 * Chunked (a sorted array of sorted chunks of at most {@link chunkSize} keys), so an insert or a
 * delete costs a binary search plus a copy inside one chunk, not a copy of the whole index.
 */
export interface SortedKeyList {
  readonly size: number;
  /** Adds `key`; a no-op when present. */
  insert(key: string): void;
  /** Removes `key`; a no-op when absent. */
  delete(key: string): void;
  /** Keys from `start` (inclusive; all keys when undefined), ascending. */
  keysFrom(start: string | undefined): IterableIterator<string>;
  /** How many keys are >= `start`, in O(number of chunks). */
  countFrom(start: string): number;
}

const chunkSize = 512;

/** Creates an empty {@link SortedKeyList}. */
export function createSortedKeyList(): SortedKeyList {
  const chunks: string[][] = [];
  let size = 0;

  /** Index of the first chunk whose last key is >= key (chunks.length if none). */
  const chunkFor = (key: string): number => {
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid]!;
      if (chunk[chunk.length - 1]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  /** Index of the first element of `chunk` that is >= key. */
  const position = (chunk: readonly string[], key: string): number => {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = chunk[mid]!;
      if (v < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  return {
    get size() {
      return size;
    },
    insert(key) {
      let c = chunkFor(key);
      if (c === chunks.length) {
        if (c === 0) {
          chunks.push([key]);
          size++;
          return;
        }
        c--;
      }
      const chunk = chunks[c]!;
      const i = position(chunk, key);
      if (chunk[i] === key) return;
      chunk.splice(i, 0, key);
      size++;
      if (chunk.length > chunkSize) chunks.splice(c + 1, 0, chunk.splice(chunk.length >>> 1));
    },
    delete(key) {
      const c = chunkFor(key);
      const chunk = chunks[c];
      if (chunk === undefined) return;
      const i = position(chunk, key);
      if (chunk[i] !== key) return;
      chunk.splice(i, 1);
      size--;
      if (chunk.length === 0) chunks.splice(c, 1);
    },
    countFrom(start) {
      const c = chunkFor(start);
      if (c === chunks.length) return 0;
      let count = chunks[c]!.length - position(chunks[c]!, start);
      for (let k = c + 1; k < chunks.length; k++) count += chunks[k]!.length;
      return count;
    },
    *keysFrom(start) {
      let c = start === undefined ? 0 : chunkFor(start);
      let i = start === undefined || chunks[c] === undefined ? 0 : position(chunks[c]!, start);
      for (; c < chunks.length; c++, i = 0) {
        const chunk = chunks[c]!;
        for (; i < chunk.length; i++) yield chunk[i]!;
      }
    },
  };
}
