/**
 * `npm run bench:ranges`: how a server-side ring (KEP-5866 shard selectors) splits the hash space,
 * for the choice between contiguous splits, a ring with a few points per member, and equal slices
 * dealt by rendezvous rank under a capacity (what {@link shardRanges} does). Exact (it sums
 * range widths, no sampled keys, no timing); prints a Markdown table and asserts nothing.
 *
 * - moved: the part of the space whose owner changes when a 5th member joins 4, or one of 4 leaves
 *   (ideal: 1/5 and 1/4), averaged over 20 different member names;
 * - max share: the largest member's part over the mean, at 4 and 3 members (worst of the 20);
 * - selector: the longest member's shard selector, in characters, at 4 members (worst of the 20).
 */
import type { ShardRange } from '../../src/sources/shardSelector.js';
import { loadLibrary } from '../core/library.js';

const library = await loadLibrary();
const { shardRanges, shardSelectorOf, shardSpaceEnd } = library.controller;
const { intersectRanges, normalizeRanges, rangesFraction } = await library.module<typeof import('../../src/sharding/server/rangeSet.js')>('sharding/server/rangeSet.js');
const { hash32 } = await library.module<typeof import('../../src/sharding/hash32.js')>('sharding/hash32.js');

type Split = (members: readonly string[]) => ReadonlyMap<string, readonly ShardRange[]>;
const contiguous: Split = (members) => {
  const sorted = [...members].sort();
  return new Map(sorted.map((m, i) => [m, [{ start: (shardSpaceEnd * BigInt(i)) / BigInt(sorted.length), end: (shardSpaceEnd * BigInt(i + 1)) / BigInt(sorted.length) }]]));
};
/** A consistent-hash ring: each member at `points` points, owning [previous point, its point). */
const ring = (points: number): Split => (members) => {
  const at = [...members].flatMap((member) => Array.from({ length: points }, (_, i) => ({ member, at: (BigInt(hash32(`${member}#${i}`)) << 32n) | BigInt(hash32(`${member}#${i}`, 0x9747b28c)) })));
  at.sort((a, b) => (a.at < b.at ? -1 : 1));
  const owned = new Map<string, ShardRange[]>(members.map((m) => [m, []]));
  at.forEach((p, i) => owned.get(p.member)!.push(...(i === 0 ? [{ start: 0n, end: p.at }, { start: at[at.length - 1]!.at, end: shardSpaceEnd }] : [{ start: at[i - 1]!.at, end: p.at }])));
  return new Map([...owned].map(([m, r]) => [m, normalizeRanges(r)]));
};
const buckets = (count: number): Split => (members) => shardRanges(members, { buckets: count });

function moved(before: ReadonlyMap<string, readonly ShardRange[]>, after: ReadonlyMap<string, readonly ShardRange[]>): number {
  let kept = 0;
  for (const [member, ranges] of after) kept += rangesFraction(intersectRanges(ranges, before.get(member) ?? []));
  return 1 - kept;
}

const trials = 20;
const rows: string[] = ['| split | moved on join 4→5 (ideal 0.20) | moved on leave 4→3 (ideal 0.25) | max share / mean at 4 | at 3 | longest selector at 4 (chars) |', '|---|---|---|---|---|---|'];
for (const [name, split] of [['contiguous', contiguous], ...[1, 4, 16, 64].map((p) => [`ring, ${p} points/member`, ring(p)] as const), ...[16, 32, 64, 128].map((k) => [`${k} slices dealt by rank (shardRanges)`, buckets(k)] as const)] as Array<[string, Split]>) {
  let join = 0;
  let leave = 0;
  let share = 0;
  let share3 = 0;
  let selector = 0;
  for (let t = 0; t < trials; t++) {
    const members = Array.from({ length: 5 }, (_, i) => `replica-${t}-${i}-${(t * 7919 + i * 104729).toString(16)}`);
    const four = split(members.slice(0, 4));
    join += moved(four, split(members)) / trials;
    leave += moved(four, split(members.slice(1, 4))) / trials;
    share = Math.max(share, Math.max(...[...four.values()].map(rangesFraction)) * 4);
    share3 = Math.max(share3, Math.max(...[...split(members.slice(1, 4)).values()].map(rangesFraction)) * 3);
    selector = Math.max(selector, ...[...four.values()].map((r) => shardSelectorOf(r).length));
  }
  rows.push(`| ${name} | ${join.toFixed(3)} | ${leave.toFixed(3)} | ${share.toFixed(2)} | ${share3.toFixed(2)} | ${selector} |`);
}
console.log(rows.join('\n'));
