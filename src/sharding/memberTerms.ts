import { defer, EMPTY, finalize, of, repeat, takeWhile, type Observable } from 'rxjs';
import { leaderElection } from '../coordination/leaderElection.js';
import type { Leadership } from '../coordination/electionState.js';
import type { LeaseClient } from '../coordination/leaseClient.js';
import { ringLabel } from './ringLabel.js';
import type { ResolvedShardingConfig } from './shardingConfig.js';

/** @internal The election options every Lease of a ring shares (member Leases, the sharder's). */
export const electionTimings = (c: ResolvedShardingConfig) => ({
  leases: c.leases,
  leaseDurationMs: c.leaseDurationMs,
  renewDeadlineMs: c.renewDeadlineMs,
  retryPeriodMs: c.retryPeriodMs,
  scheduler: c.scheduler,
  ...(c.onError ? { onError: c.onError } : {}),
});

/** @internal What one term of a member is made of: the client of its member Lease, when to renew out of turn, its run. */
export interface MemberTerm<T> {
  readonly leases: LeaseClient;
  readonly renewWhen?: Observable<void>;
  /** The term's work, held by `term$` (one election up to its first `following` after leading); calls `completed` when the work completes by itself. */
  readonly run: (term$: Observable<Leadership>, completed: () => void) => Observable<T>;
}

/**
 * @internal Membership terms of a ring, in both modes: one term after another, each with a fresh
 * identity and member Lease, `run` for the term's duration, until the work completes by itself (the
 * end of a term completes `run` too, and starts the next term).
 */
export function memberTerms<T>(c: ResolvedShardingConfig, term: (identity: string) => MemberTerm<T>): Observable<T> {
  let workCompleted = false;
  return defer(() => {
    const identity = c.newIdentity();
    const { leases, renewWhen, run } = term(identity);
    const election = leaderElection({ ...electionTimings(c), leases, lease: c.memberLease(identity), identity, labels: { [ringLabel]: c.ring }, releaseOnCancel: true, ...(renewWhen ? { renewWhen } : {}) });
    let led = false;
    // One term: up to and including the first `following` after leading.
    const term$ = election.pipe(
      takeWhile((leadership) => {
        if (leadership.state === 'following') return !led;
        if (!led) c.onEvent({ type: 'joined', identity });
        led = true;
        return true;
      }, true),
      finalize(() => led && c.onEvent({ type: 'left', identity })),
    );
    return run(term$, () => (workCompleted = true));
  }).pipe(repeat({ delay: () => (workCompleted ? EMPTY : of(0)) }));
}
