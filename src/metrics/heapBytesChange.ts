import { placeBelow, type InternShape } from '../store/internShape.js';
import { estimateHeapBytes } from './estimateHeapBytes.js';

/**
 * `estimateHeapBytes(next, places) - estimateHeapBytes(previous, places)`, computed by walking only where the two
 * differ: a part `next` shares with `previous` (the same reference) counts the same on both sides,
 * so it is skipped without a look inside. The store shares every unchanged part of a new version
 * with the old one, so an update that touched two annotations costs a walk of the path to them,
 * not of the whole object (the metrics' estimate ran the whole walk, a regular expression per long
 * string included, for every watch event).
 *
 * ```text
 * previous {"metadata":{"rv":"1"},"data":D}   next {"metadata":{"rv":"22"},"data":D}   (D shared)
 * heapBytesChange(next, previous) = 0: D skipped, "22" and "1" both ≤ 8 characters
 * ```
 *
 * Internal to the metrics: nothing here is exported from the package.
 */
export function heapBytesChange(next: unknown, previous: unknown, places?: InternShape | true): number {
  if (next === previous) return 0;
  if (typeof next !== 'object' || next === null || typeof previous !== 'object' || previous === null || Array.isArray(next) !== Array.isArray(previous)) {
    return estimateHeapBytes(next, places) - estimateHeapBytes(previous, places);
  }
  const shape = places === true ? undefined : places;
  return Array.isArray(next) ? arrayChange(next, previous as readonly unknown[], shape) : recordChange(next as Record<string, unknown>, previous as Record<string, unknown>, shape);
}

/** estimateHeapBytes counts an array 48 + 8 per element + its elements. */
function arrayChange(next: readonly unknown[], previous: readonly unknown[], shape: InternShape | undefined): number {
  let bytes = 8 * (next.length - previous.length);
  const each = placeBelow(shape, '*');
  const n = Math.min(next.length, previous.length);
  for (let i = 0; i < n; i++) bytes += heapBytesChange(next[i], previous[i], each);
  for (let i = n; i < next.length; i++) bytes += estimateHeapBytes(next[i], each);
  for (let i = n; i < previous.length; i++) bytes -= estimateHeapBytes(previous[i], each);
  return bytes;
}

/** estimateHeapBytes counts a record 24 + 8 per member + its members, and nothing when it has none. */
function recordChange(next: Record<string, unknown>, previous: Record<string, unknown>, shape: InternShape | undefined): number {
  let bytes = 0;
  let members = 0;
  for (const key in next) {
    members++;
    const place = placeBelow(shape, key);
    if (Object.hasOwn(previous, key)) bytes += heapBytesChange(next[key], previous[key], place);
    else bytes += 8 + estimateHeapBytes(next[key], place);
  }
  let previousMembers = 0;
  for (const key in previous) {
    previousMembers++;
    if (!Object.hasOwn(next, key)) bytes -= 8 + estimateHeapBytes(previous[key], placeBelow(shape, key));
  }
  return bytes + (members > 0 ? 24 : 0) - (previousMembers > 0 ? 24 : 0);
}
