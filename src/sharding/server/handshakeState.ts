/**
 * The server-side handshake's state machine vocabulary: where a member of a server-side ring is
 * ({@link HandshakeState}), what can happen ({@link HandshakeInput}) and what it asks its runtime
 * to do ({@link HandshakeEffect}). The one transition is {@link handshakeStep}; the runtime is
 * {@link runHandshake}.
 *
 * ```text
 *            members / peers' claims change: plan ({@link planShard})
 *   waiting ─┬─ announce ──> announcing ── its claim written, plan again ──> working / waiting
 *   working ─┤
 *            ├─ gain ──────> proposing ─── its wider claim written ──> checking ── fresh LIST:
 *            │                                                          clear ──> moving (to the wider ranges)
 *            │                                                          clash / failed ──> announcing (fall back; no gain
 *            │                                                                             before a retry period)
 *            └─ shrink ────> moving ─── the old stretch's runs settled: work on the new ranges ──> plan again
 * ```
 */
import type { Lease } from '../../coordination/lease.js';
import type { ShardRange } from '../../sources/shardSelector.js';
import type { ShardClaim } from './shardClaim.js';

/** What every state carries: what the member has seen, works on and claims. */
export interface HandshakeMemory {
  /** The ring's member Leases as last watched. */
  readonly leases: readonly Lease[];
  /** The live members, sorted. */
  readonly live: readonly string[];
  /** Their targets ({@link shardRanges} of `live`): dealt again only when `live` changes. */
  readonly targets: ReadonlyMap<string, readonly ShardRange[]>;
  /** The ranges the current stretch works on (empty: none runs). */
  readonly working: readonly ShardRange[];
  /** The claim the member Lease's next write carries. */
  readonly claim: ShardClaim;
  /** The claim as the last write that went through carried it. */
  readonly written: ShardClaim | undefined;
  /** After a check that failed: no wider claim is proposed before this time. */
  readonly holdGainsUntil: number | undefined;
}

/**
 * - `waiting`: nothing to do, and no work runs (not a live member yet, or the peers' views differ).
 * - `working`: nothing to do; the stretch of `memory.working` runs.
 * - `announcing`: the claim (the member's view, its same ranges) waits for its write.
 * - `proposing`: the wider `memory.claim` waits for its write; it is checked afresh then.
 * - `checking`: the fresh LIST of the ring's Leases for the written wider claim is in flight.
 * - `moving`: the old stretch is stopped and its runs are settling; then the member works on
 *   `next` (and, for a shrink, claims `then`).
 */
export type HandshakeState =
  | { readonly kind: 'waiting' | 'working' | 'announcing' | 'proposing' | 'checking'; readonly memory: HandshakeMemory }
  | { readonly kind: 'moving'; readonly memory: HandshakeMemory; readonly next: readonly ShardRange[]; readonly then: ShardClaim | undefined };

/** The time of an input, on the member's clock. */
interface Stamp {
  readonly now: number;
}

/**
 * - `leases`: a synced snapshot of the ring's member Leases. `members`: the live members changed.
 * - `written`: a write of the member Lease went through, carrying `claim`.
 * - `listed` / `listFailed`: the fresh LIST ended. `drained`: the stopped stretch's runs settled.
 * - `retry`: the retry timer fired.
 */
export type HandshakeInput =
  | ({ readonly type: 'leases'; readonly leases: readonly Lease[] } & Stamp)
  | ({ readonly type: 'members'; readonly members: readonly string[] } & Stamp)
  | ({ readonly type: 'written'; readonly claim: ShardClaim | undefined } & Stamp)
  | ({ readonly type: 'listed'; readonly leases: readonly Lease[] } & Stamp)
  | ({ readonly type: 'listFailed'; readonly error: unknown } & Stamp)
  | ({ readonly type: 'drained' } & Stamp)
  | ({ readonly type: 'retry' } & Stamp);

/**
 * - `claim`: the member Lease's next write carries `claim`. `renew`: write it now, out of turn
 *   (each step of the handshake waits on a write).
 * - `list`: read the ring's Leases afresh (answered by `listed` or `listFailed`).
 * - `drain`: stop the stretch and let its runs settle (answered by `drained`).
 * - `work`: start the stretch of `ranges` (empty: none), `gained` being what it adds.
 * - `retryAt`: arm the retry timer. `report`: a request failed.
 */
export type HandshakeEffect =
  | { readonly type: 'claim'; readonly claim: ShardClaim }
  | { readonly type: 'renew' }
  | { readonly type: 'list' }
  | { readonly type: 'drain' }
  | { readonly type: 'work'; readonly ranges: readonly ShardRange[]; readonly gained: readonly ShardRange[] }
  | { readonly type: 'retryAt'; readonly at: number }
  | { readonly type: 'report'; readonly error: unknown };

/** A transition's result: the next state and the effects, in order. */
export interface HandshakeStep {
  readonly state: HandshakeState;
  readonly effects: readonly HandshakeEffect[];
}

/** Where every term starts: nothing seen, nothing worked on, an empty claim. */
export const initialHandshakeState: HandshakeState = {
  kind: 'waiting',
  memory: { leases: [], live: [], targets: new Map(), working: [], claim: { view: '', ranges: [] }, written: undefined, holdGainsUntil: undefined },
};
