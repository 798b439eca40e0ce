import { internalizedLength, placeBelow, type InternShape } from '../store/internShape.js';

/**
 * What one parsed JSON value takes on the V8 heap, estimated from its shape as `JSON.parse` in
 * 64-bit V8 (Node's build, no pointer compression) lays it out, each figure measured on Node 24:
 * an object a 24-byte header and 8 bytes per property, an empty one nothing (the cache makes every
 * `{}` below an object's root one shared frozen `{}`: a managedFields entry is a tree of them); its
 * keys are internalized strings its hidden class shares with every object of the same shape, so
 * they count nothing here; an array 32 bytes plus a backing store of 16 + 8 per element; a string
 * 16 bytes plus one per character (two beyond Latin-1), rounded up to 8, except strings of up to
 * 8 characters, which `JSON.parse` internalizes (every `"Helm"` is one string: nothing); a number
 * outside the small integers a 16-byte heap number; `true`, `false` and `null` nothing. With
 * `places` (the store's `internedPlaces` for an object as cached), a string where the store keeps
 * one copy for all objects (a label value, a timestamp, a manager) counts nothing either. How close
 * the sum comes to the heap measured is in BENCHMARKS.md (`npm run bench:memory`).
 *
 * ```text
 * {"metadata":{"name":"a"},"data":{"k":"value-of-k"}}  →  (24+16) + (24+8) + (24+8 + 32) = 136
 * ```
 */
export function estimateHeapBytes(value: unknown, places?: InternShape | true): number {
  switch (typeof value) {
    case 'string':
      return places === true ? 0 : stringBytes(value);
    case 'number':
      return Number.isInteger(value) && value >= -0x80000000 && value < 0x80000000 ? 0 : 16;
    case 'object': {
      if (value === null) return 0;
      const shape = places === true ? undefined : places;
      if (Array.isArray(value)) {
        let bytes = 48 + 8 * value.length;
        const each = placeBelow(shape, '*');
        for (const item of value) bytes += estimateHeapBytes(item, each);
        return bytes;
      }
      let bytes = 24;
      let properties = 0;
      for (const key in value) {
        properties++;
        bytes += 8 + estimateHeapBytes((value as Record<string, unknown>)[key], placeBelow(shape, key));
      }
      return properties === 0 ? 0 : bytes;
    }
    default:
      return 0;
  }
}

/**
 * Bytes of the cache's own bookkeeping per object: its key, its entries in the store's map and in
 * the delta converter's, and this estimate's own. Fitted once on 100,000 ConfigMaps by
 * `npm run bench:memory` (the heap measured less the objects' estimate, per object).
 */
export const cacheEntryBytes = 120;

function stringBytes(text: string): number {
  if (text.length <= internalizedLength) return 0;
  // eslint-disable-next-line no-control-regex
  const perChar = /[^\u0000-\u00ff]/.test(text) ? 2 : 1;
  return (16 + perChar * text.length + 7) & ~7;
}
