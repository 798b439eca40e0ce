import { describe, optionChecks } from '../../options/optionChecks.js';
import { hash32 } from '../hash32.js';

/** Points on the ring per member unless told otherwise; the sharding config uses it too. */
export const defaultVirtualNodes = 2_000;

/** Options of {@link hashRing}. */
export interface HashRingConfig {
  /**
   * Points on the ring per member. More points even out the shares: with 2,000 (the default) and
   * 100 members the largest share is about 1.05–1.07 × the mean (BENCHMARKS.md, `npm run
   * bench:ring`); with 100 (timebertt's sharder) it is about 1.2 ×.
   */
  readonly virtualNodes?: number;
}

/** A consistent-hash ring: which member owns a key. Immutable; build a new one when members change. */
export interface HashRing {
  /** The members, sorted. */
  readonly members: readonly string[];
  /** The owner of `key`: the member of the first point at or after the key's hash; `undefined` when there are no members. */
  ownerOf(key: string): string | undefined;
}

const memberBits = 2 ** 20;

/**
 * A consistent-hash ring over `members`, each placed at `virtualNodes` points (MurmurHash3 of
 * `<member>#<i>`); a key belongs to the member of the first point at or after its own hash.
 *
 * <span class="informal">The same members give the same ring in every process; adding a member
 * moves only the keys its points take over (about 1/(N+1) of them), removing one moves only its
 * own keys.</span>
 *
 * ```text
 * members: [a, b, c]                  ring: ─a─c──b─a──c─b──a─…─┐ (wraps)
 * hashRing(members).ownerOf('v1/ConfigMap/ns/x')  → the next point clockwise of hash(key): 'c'
 * ```
 *
 * ## Example
 * ```ts
 * import { hashRing } from 'rx-informer/controller';
 *
 * const ring = hashRing(['replica-a', 'replica-b', 'replica-c']);
 * console.log(ring.ownerOf('demo/my-config'));
 * // Logs: one of replica-a, replica-b, replica-c — the same one in every process
 * ```
 *
 * @param members member names (duplicates count once).
 * @param config points per member.
 * @returns the ring.
 * @throws {TypeError} for a member that is not a non-empty string, or a bad `virtualNodes`.
 */
export function hashRing(members: Iterable<string>, config: HashRingConfig = {}): HashRing {
  const check = optionChecks('hashRing', config);
  const virtualNodes = check.positiveInteger('virtualNodes', config.virtualNodes) ?? defaultVirtualNodes;
  const sorted = [...new Set(members)].sort();
  for (const member of sorted) if (typeof member !== 'string' || member === '') check.fail(`a member must be a non-empty string, got ${describe(member)}`);
  if (sorted.length >= memberBits) check.fail(`at most ${memberBits - 1} members`);
  // hash·2^20 + member index fits a double exactly, so one numeric sort orders by hash, ties by name.
  const packed = new Float64Array(sorted.length * virtualNodes);
  sorted.forEach((member, m) => {
    for (let v = 0; v < virtualNodes; v++) packed[m * virtualNodes + v] = hash32(`${member}#${v}`) * memberBits + m;
  });
  packed.sort();
  const points = new Uint32Array(packed.length);
  const owners = new Uint32Array(packed.length);
  for (let i = 0; i < packed.length; i++) {
    const value = packed[i]!;
    owners[i] = value % memberBits;
    points[i] = (value - owners[i]!) / memberBits;
  }
  return {
    members: sorted,
    ownerOf(key) {
      if (points.length === 0) return undefined;
      const h = hash32(key);
      let lo = 0;
      let hi = points.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (points[mid]! < h) lo = mid + 1;
        else hi = mid;
      }
      return sorted[owners[lo === points.length ? 0 : lo]!];
    },
  };
}
