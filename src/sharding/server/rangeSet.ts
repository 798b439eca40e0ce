/**
 * @internal Sets of hashes as sorted, disjoint, non-adjacent `[start, end)` ranges: what a member
 * of a server-side ring targets, claims and works on. Pure; every result is normalized.
 */
import type { ShardRange } from '../../sources/shardSelector.js';

/** Sorted, overlapping and touching ranges merged, empty ones dropped. */
export function normalizeRanges(ranges: Iterable<ShardRange>): ShardRange[] {
  const sorted = [...ranges].filter((r) => r.start < r.end).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const out: ShardRange[] = [];
  for (const range of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && range.start <= last.end) {
      if (range.end > last.end) out[out.length - 1] = { start: last.start, end: range.end };
    } else out.push(range);
  }
  return out;
}

/** The hashes in both. */
export function intersectRanges(a: readonly ShardRange[], b: readonly ShardRange[]): ShardRange[] {
  const out: ShardRange[] = [];
  for (const x of a) {
    for (const y of b) {
      const start = x.start > y.start ? x.start : y.start;
      const end = x.end < y.end ? x.end : y.end;
      if (start < end) out.push({ start, end });
    }
  }
  return normalizeRanges(out);
}

/** The hashes of `a` not in `b`. */
export function subtractRanges(a: readonly ShardRange[], b: readonly ShardRange[]): ShardRange[] {
  let rest = normalizeRanges(a);
  for (const y of b) {
    rest = rest.flatMap((x) => [
      ...(x.start < y.start ? [{ start: x.start, end: x.end < y.start ? x.end : y.start }] : []),
      ...(x.end > y.end ? [{ start: x.start > y.end ? x.start : y.end, end: x.end }] : []),
    ]);
  }
  return normalizeRanges(rest);
}

/** Whether the two share a hash. */
export const rangesOverlap = (a: readonly ShardRange[], b: readonly ShardRange[]): boolean => intersectRanges(a, b).length > 0;

/** Whether the two hold the same hashes (both normalized). */
export const sameRanges = (a: readonly ShardRange[], b: readonly ShardRange[]): boolean => a.length === b.length && a.every((r, i) => r.start === b[i]!.start && r.end === b[i]!.end);

/** The number of hashes held, as a fraction of the whole space. */
export const rangesFraction = (ranges: readonly ShardRange[]): number => ranges.reduce((sum, r) => sum + Number(r.end - r.start), 0) / 2 ** 64;
