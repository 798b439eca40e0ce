/**
 * @internal The decision of one member of a server-side ring, as a pure function of what it sees:
 * the live members (their ring gives each its target ranges), the peers' claims, and its own
 * working ranges and claim. The handshake ({@link handshakeStep}) carries it out.
 *
 * The rules keep any hash from being worked on by two live members at once:
 * - a member gives up what is no longer its target first (stop, drain, then narrow its claim);
 * - it widens only when its own view and claim are written, every live peer has written the same
 *   view (so all targets are disjoint), and no live peer claims any of what it would gain — and
 *   then only after its wider claim is written and a fresh read shows no live peer claiming it.
 */
import type { ShardRange } from '../../sources/shardSelector.js';
import { rangesOverlap, sameRanges, subtractRanges, intersectRanges } from './rangeSet.js';
import type { ShardClaim } from './shardClaim.js';

/** What the member sees. */
export interface ShardPlanInput {
  /** The live members' targets ({@link shardRanges} of the live members). */
  readonly targets: ReadonlyMap<string, readonly ShardRange[]>;
  /** {@link viewOf} the live members. */
  readonly view: string;
  readonly self: string;
  /** The live peers' claims as last seen (`undefined`: none written yet). */
  readonly peers: ReadonlyArray<ShardClaim | undefined>;
  /** What this member's work runs on. */
  readonly working: readonly ShardRange[];
  /** This member's claim as last written. */
  readonly written: ShardClaim | undefined;
}

/** What to do next. */
export type ShardPlan =
  /** Not a live member (yet), or nothing to change. */
  | { readonly type: 'wait' }
  /** Stop the work, let its runs finish, then work on `working` and claim it. */
  | { readonly type: 'shrink'; readonly working: readonly ShardRange[] }
  /** Write `claim` (a new view, the same ranges) with the next renewal. */
  | { readonly type: 'announce'; readonly claim: ShardClaim }
  /** Write the wider `claim`, check it afresh, then work on it. */
  | { readonly type: 'gain'; readonly claim: ShardClaim };

/** The next step. */
export function planShard(input: ShardPlanInput): ShardPlan {
  const { targets, view, self, peers, working, written } = input;
  const target = targets.get(self);
  if (target === undefined) return { type: 'wait' };
  if (subtractRanges(working, target).length > 0) return { type: 'shrink', working: intersectRanges(working, target) };
  const current: ShardClaim = { view, ranges: working };
  if (written === undefined || written.view !== view || !sameRanges(written.ranges, working)) return { type: 'announce', claim: current };
  const gain = subtractRanges(target, working);
  if (gain.length === 0) return { type: 'wait' };
  if (peers.some((peer) => peer?.view !== view || rangesOverlap(peer.ranges, gain))) return { type: 'wait' };
  return { type: 'gain', claim: { view, ranges: target } };
}
