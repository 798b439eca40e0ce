/**
 * Which members of a ring are alive, judged as a contender judges a leader: by when their Lease
 * records were last seen to change on the observer's own clock, never by the times in them. Pure.
 */
import { durationMsOf, holderOf, recordKeyOf, type Lease } from '../coordination/lease.js';

/** What the observer has seen of one member Lease. */
export interface MemberObservation {
  readonly recordKey: string;
  /** Observer's clock when the record last changed. */
  readonly observedAt: number;
  readonly holder: string | undefined;
  readonly durationMs: number;
  /** A fresh read after the expiry showed this same record: the member is dead until it changes. */
  readonly confirmedDead?: boolean;
}

/** The key of a member Lease in the observations: `namespace/name`. */
export const memberKeyOf = (lease: Lease): string => `${lease.metadata?.namespace ?? ''}/${lease.metadata?.name ?? ''}`;

function observation(lease: Lease, now: number): MemberObservation {
  return { recordKey: recordKeyOf(lease), observedAt: now, holder: holderOf(lease), durationMs: durationMsOf(lease) };
}

/** The observations after seeing `leases` (all member Leases of the ring) at `now`. */
export function observeMembers(previous: ReadonlyMap<string, MemberObservation>, leases: Iterable<Lease>, now: number): Map<string, MemberObservation> {
  const next = new Map<string, MemberObservation>();
  for (const lease of leases) {
    const key = memberKeyOf(lease);
    const seen = previous.get(key);
    next.set(key, seen !== undefined && seen.recordKey === recordKeyOf(lease) ? seen : observation(lease, now));
  }
  return next;
}

/**
 * One member Lease read afresh at `now` after its record seemed to expire: gone (deleted), dead
 * (the same record: it has not changed for its whole duration), or alive (it changed since).
 */
export function confirmMember(previous: ReadonlyMap<string, MemberObservation>, key: string, lease: Lease | undefined, now: number): Map<string, MemberObservation> {
  const next = new Map(previous);
  const seen = previous.get(key);
  if (lease === undefined) next.delete(key);
  else if (seen !== undefined && seen.recordKey === recordKeyOf(lease)) next.set(key, { ...seen, confirmedDead: true });
  else next.set(key, observation(lease, now));
  return next;
}

/** Live members at some time, and what to do next. */
export interface LiveMembers {
  /** The live holders, sorted, each once. */
  readonly members: readonly string[];
  /** When the next record still fresh expires (`undefined`: none will). */
  readonly nextExpiry: number | undefined;
  /** With `confirm`: Leases whose record has expired and awaits a fresh read; their holders still count as live. */
  readonly suspects: readonly string[];
}

/**
 * The holders live at `now`: a record is live while `now` is before its last observed change plus
 * its duration. With `confirm`, an expired record stays live until a fresh read ({@link
 * confirmMember}) shows it unchanged: a view fed by a watch can be late, and only a read that is
 * known to be current may declare a member dead.
 */
export function liveMembersAt(observations: ReadonlyMap<string, MemberObservation>, now: number, confirm = false): LiveMembers {
  const members = new Set<string>();
  const suspects: string[] = [];
  let nextExpiry: number | undefined;
  for (const [key, seen] of observations) {
    if (seen.holder === undefined || seen.confirmedDead) continue;
    const expiresAt = seen.observedAt + seen.durationMs;
    if (now >= expiresAt) {
      if (!confirm) continue;
      suspects.push(key);
    } else if (nextExpiry === undefined || expiresAt < nextExpiry) nextExpiry = expiresAt;
    members.add(seen.holder);
  }
  return { members: [...members].sort(), nextExpiry, suspects };
}
