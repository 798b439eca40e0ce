import { asyncScheduler, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { operate } from '../../operators/operate.js';
import type { Lease } from '../leaderElection/lease.js';
import { liveMembersAt, observeMembers, type MemberObservation } from './memberObservations.js';

/**
 * The live members of a ring, from snapshots of its member Leases.
 *
 * <span class="informal">A member is live while its Lease names a holder and its record has
 * changed within the last `leaseDurationSeconds` on this process's clock; a member that stops
 * renewing drops out that long after its last change was seen, on a timer.</span>
 *
 * ```text
 * leases:       -s---t--------------       s = {a renews, b renews}, t = {a renews} (b stopped at s)
 * liveMembers()
 * members:      -x-------------y----       x = [a, b]   y = [a]  (b's record unchanged for its lease duration)
 * ```
 *
 * - The record's times are never compared with the clock; any clock offset between the members and
 *   this process is harmless (as in {@link leaderElection}).
 * - Emits the sorted holders when they change (the first snapshot always), so `distinctUntilChanged`
 *   is built in.
 * - A fresh subscriber has seen no change yet: every held Lease counts as live for its whole
 *   duration from the first snapshot.
 *
 * @param config the scheduler for the clock and the expiry timers (default `asyncScheduler`).
 * @returns an operator from Lease snapshots to member lists.
 */
export function liveMembers(config: { readonly scheduler?: SchedulerLike } = {}): OperatorFunction<Iterable<Lease>, readonly string[]> {
  const scheduler = config.scheduler ?? asyncScheduler;
  return operate<Iterable<Lease>, readonly string[]>((subscriber) => {
    let observations = new Map<string, MemberObservation>();
    let last: readonly string[] | undefined;
    let timer: Subscription | undefined;
    const publish = (): void => {
      const now = scheduler.now();
      const { members, nextExpiry } = liveMembersAt(observations, now);
      timer?.unsubscribe();
      timer = nextExpiry === undefined ? undefined : scheduler.schedule(publish, Math.max(0, nextExpiry - now));
      if (last !== undefined && last.length === members.length && last.every((m, i) => m === members[i])) return;
      last = members;
      subscriber.next(members);
    };
    return {
      next(leases) {
        observations = observeMembers(observations, leases, scheduler.now());
        publish();
      },
      finalize() {
        timer?.unsubscribe();
      },
    };
  });
}
