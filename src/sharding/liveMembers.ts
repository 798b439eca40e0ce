import { asyncScheduler, Subscription, type Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { operate } from '../operators/operate.js';
import type { Lease, LeaseRef } from '../coordination/lease.js';
import { confirmMember, liveMembersAt, observeMembers, type MemberObservation } from './memberObservations.js';

/** Options of {@link liveMembers}. */
export interface LiveMembersConfig {
  /** Clock and timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /**
   * Reads one member Lease afresh (e.g. a {@link LeaseClient}'s `get`). With it, a member whose
   * record seems expired stays live until a fresh read shows the same record; without it, the
   * snapshots are trusted to be current and expiry alone drops a member.
   */
  readonly confirm?: (ref: LeaseRef) => Observable<Lease | undefined>;
  /** Wait before reading again after a failed confirmation. Default 2 000. */
  readonly retryMs?: number;
}

/**
 * The live members of a ring, from snapshots of its member Leases.
 *
 * <span class="informal">A member is live while its Lease names a holder and its record has
 * changed within the last `leaseDurationSeconds` on this process's clock; a member that stops
 * renewing drops out that long after its last change was seen, on a timer — after a fresh read
 * confirms it, when `confirm` is given.</span>
 *
 * ```text
 * leases:       -s---t--------------       s = {a renews, b renews}, t = {a renews} (b stopped at s)
 * liveMembers()
 * members:      -x-------------y----       x = [a, b]   y = [a]  (b's record unchanged for its lease duration)
 * ```
 *
 * - The record's times are never compared with the clock; any clock offset between the members and
 *   this process is harmless (as in {@link leaderElection}).
 * - Emits the sorted holders when they change (the first snapshot always).
 * - A fresh subscriber has seen no change yet: every held Lease counts as live for its whole
 *   duration from the first snapshot.
 *
 * @param config the scheduler, the fresh read.
 * @returns an operator from Lease snapshots to member lists.
 */
export function liveMembers(config: LiveMembersConfig = {}): OperatorFunction<Iterable<Lease>, readonly string[]> {
  const { scheduler = asyncScheduler, confirm, retryMs = 2_000 } = config;
  return operate<Iterable<Lease>, readonly string[]>((subscriber) => {
    let observations = new Map<string, MemberObservation>();
    let last: readonly string[] | undefined;
    let timer: Subscription | undefined;
    const reads = new Map<string, Subscription>();
    let publishing = false;
    let again = false;
    const publishOnce = (): void => {
      const now = scheduler.now();
      const { members, nextExpiry, suspects } = liveMembersAt(observations, now, confirm !== undefined);
      timer?.unsubscribe();
      timer = nextExpiry === undefined ? undefined : scheduler.schedule(publish, Math.max(0, nextExpiry - now));
      if (last === undefined || last.length !== members.length || last.some((m, i) => m !== members[i])) {
        last = members;
        subscriber.next(members);
      }
      suspects.forEach(read);
    };
    // A confirmation that answers at once publishes again from inside: loop instead of nesting.
    const publish = (): void => {
      if (publishing) return void (again = true);
      publishing = true;
      try {
        do {
          again = false;
          publishOnce();
        } while (again);
      } finally {
        publishing = false;
      }
    };
    const read = (key: string): void => {
      if (reads.has(key) || confirm === undefined) return;
      const slash = key.indexOf('/');
      let settled = false;
      reads.set(key, Subscription.EMPTY);
      const subscription = confirm({ namespace: key.slice(0, slash), name: key.slice(slash + 1) }).subscribe({
        next: (lease) => {
          settled = true;
          reads.delete(key);
          observations = confirmMember(observations, key, lease, scheduler.now());
          publish();
        },
        error: () => {
          settled = true;
          reads.set(key, scheduler.schedule(() => (reads.delete(key), publish()), retryMs));
        },
      });
      if (!settled) reads.set(key, subscription);
    };
    return {
      next(leases) {
        observations = observeMembers(observations, leases, scheduler.now());
        publish();
      },
      finalize() {
        timer?.unsubscribe();
        for (const subscription of reads.values()) subscription.unsubscribe();
        reads.clear();
      },
    };
  });
}
