/**
 * What one parsed JSON value takes on the V8 heap, estimated from its shape as 64-bit V8 (Node's
 * build, no pointer compression) lays it out: an object a 24-byte header and 8 bytes per property
 * (its keys are internalized strings its hidden class shares with every object of the same shape:
 * counted once per shape, so not here); an array 32 bytes plus a backing store of 16 + 8 per
 * element; a string 16 bytes plus one per character (two beyond Latin-1), rounded up to 8; a
 * number outside the small integers a 16-byte heap number; `true`, `false` and `null` nothing.
 * How close it comes to the heap measured is in BENCHMARKS.md (`bench/memoryEstimate.ts`).
 *
 * ```text
 * {"metadata":{"name":"a"},"data":{"k":"vvvv"}}  →  24+16 + (24+8 + 24) + (24+8 + 24) = 152
 * ```
 */
export function estimateHeapBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'number':
      return Number.isInteger(value) && value >= -0x80000000 && value < 0x80000000 ? 0 : 16;
    case 'object': {
      if (value === null) return 0;
      if (Array.isArray(value)) {
        let bytes = 48 + 8 * value.length;
        for (const item of value) bytes += estimateHeapBytes(item);
        return bytes;
      }
      let bytes = 24;
      for (const key in value) {
        bytes += 8 + estimateHeapBytes((value as Record<string, unknown>)[key]);
      }
      return bytes;
    }
    default:
      return 0;
  }
}

/** Bytes of the cache's own bookkeeping per object (its map entry and key), measured by the same benchmark. */
export const cacheEntryBytes = 64;

function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  const perChar = /[^\u0000-\u00ff]/.test(text) ? 2 : 1;
  return (16 + perChar * text.length + 7) & ~7;
}
