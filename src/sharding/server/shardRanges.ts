import { shardSpaceEnd, type ShardRange } from '../../sources/shardSelector.js';
import { hash32 } from '../hash32.js';
import { normalizeRanges } from './rangeSet.js';
import { argumentError } from '../../options/optionChecks.js';

/** Options of {@link shardRanges}. */
export interface ShardRangesConfig {
  /** Equal slices of the hash space that are dealt out. Default `defaultShardBuckets` (64). */
  readonly buckets?: number;
}

/**
 * Slices of the hash space a server-side ring deals out: with 64, every member of 2 or 4 holds
 * exactly 1/N (of 3, at most 1.03/N), a member that joins 4 moves about 0.25 of the space (ideal
 * 0.20), and a member's selector stays under about 1.3 kB. A ring with 16 points per member moves
 * less (0.18) but its largest member holds up to 1.55/N (BENCHMARKS.md, `npm run bench:ranges`).
 */
export const defaultShardBuckets = 64;

/**
 * Which hash ranges each member of a server-side ring owns: the 64-bit space the API server's
 * shard selectors use is cut into `buckets` equal slices, and each slice goes to the member that
 * ranks highest for it (MurmurHash3 of `<member>#<slice>`, rendezvous hashing) among those not yet
 * holding ⌈buckets / N⌉ slices — dealt in rounds, first choices first.
 *
 * ```text
 * members [a, b, c], 6 slices   |a|c|b|b|a|c|   a: [0, 1/6) ∪ [4/6, 5/6)   b: [2/6, 4/6)   c: …
 * ```
 *
 * The same members give the same ranges in every process. Shares are equal to within one slice;
 * a change of members moves a little more than the ideal 1/N, since capacities change with N.
 * More members than slices leave some members without ranges.
 *
 * @param members member names (duplicates count once).
 * @param config the number of slices.
 * @returns every member's ranges, normalized (sorted, merged); an empty map for no members.
 * @throws {TypeError} for a bad `buckets`.
 */
export function shardRanges(members: Iterable<string>, config: ShardRangesConfig = {}): ReadonlyMap<string, readonly ShardRange[]> {
  const { buckets = defaultShardBuckets } = config;
  if (!Number.isInteger(buckets) || buckets < 1 || buckets > 4096) throw argumentError('shardRanges', `buckets must be an integer from 1 to 4096, got ${String(buckets)}`);
  const sorted = [...new Set(members)].sort();
  if (sorted.length === 0) return new Map();
  const capacity = Math.ceil(buckets / sorted.length);
  const load = new Map(sorted.map((member) => [member, 0]));
  const owner = new Array<string | undefined>(buckets);
  const preferences = Array.from({ length: buckets }, (_, slice) =>
    sorted
      .map((member) => ({ member, score: hash32(`${member}#${slice}`) }))
      .sort((x, y) => y.score - x.score || (x.member < y.member ? -1 : 1))
      .map((p) => p.member),
  );
  for (let round = 0; round < sorted.length; round++) {
    for (let slice = 0; slice < buckets; slice++) {
      if (owner[slice] !== undefined) continue;
      const member = preferences[slice]![round]!;
      if (load.get(member)! < capacity) {
        owner[slice] = member;
        load.set(member, load.get(member)! + 1);
      }
    }
  }
  const owned = new Map<string, ShardRange[]>(sorted.map((member) => [member, []]));
  owner.forEach((member, slice) => owned.get(member!)!.push({ start: (shardSpaceEnd * BigInt(slice)) / BigInt(buckets), end: (shardSpaceEnd * BigInt(slice + 1)) / BigInt(buckets) }));
  return new Map([...owned].map(([member, ranges]) => [member, normalizeRanges(ranges)]));
}
