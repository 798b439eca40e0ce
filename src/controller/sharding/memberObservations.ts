/**
 * Which members of a ring are alive, judged as a contender judges a leader: by when their Lease
 * records were last seen to change on the observer's own clock, never by the times in them. Pure.
 */
import { durationMsOf, holderOf, recordKeyOf, type Lease } from '../leaderElection/lease.js';

/** What the observer has seen of one member Lease. */
export interface MemberObservation {
  readonly recordKey: string;
  /** Observer's clock when the record last changed. */
  readonly observedAt: number;
  readonly holder: string | undefined;
  readonly durationMs: number;
}

/** The observations after seeing `leases` (all member Leases, keyed by `namespace/name`) at `now`. */
export function observeMembers(previous: ReadonlyMap<string, MemberObservation>, leases: Iterable<Lease>, now: number): Map<string, MemberObservation> {
  const next = new Map<string, MemberObservation>();
  for (const lease of leases) {
    const key = `${lease.metadata?.namespace ?? ''}/${lease.metadata?.name ?? ''}`;
    const recordKey = recordKeyOf(lease);
    const seen = previous.get(key);
    next.set(key, seen !== undefined && seen.recordKey === recordKey ? seen : { recordKey, observedAt: now, holder: holderOf(lease), durationMs: durationMsOf(lease) });
  }
  return next;
}

/**
 * The holders whose records are fresh at `now` (sorted, each once), and when the next of them
 * expires (`undefined` when none will).
 */
export function liveMembersAt(observations: ReadonlyMap<string, MemberObservation>, now: number): { readonly members: readonly string[]; readonly nextExpiry: number | undefined } {
  const members = new Set<string>();
  let nextExpiry: number | undefined;
  for (const seen of observations.values()) {
    const expiresAt = seen.observedAt + seen.durationMs;
    if (seen.holder === undefined || now >= expiresAt) continue;
    members.add(seen.holder);
    if (nextExpiry === undefined || expiresAt < nextExpiry) nextExpiry = expiresAt;
  }
  return { members: [...members].sort(), nextExpiry };
}
