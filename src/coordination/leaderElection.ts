import { Observable, ReplaySubject, share } from 'rxjs';
import { runElection } from './electionRuntime.js';
import type { Leadership } from './electionState.js';
import { resolveElectionConfig, type LeaderElectionConfig } from './leaderElectionConfig.js';

/** The Observable {@link leaderElection} returns: the leadership of one candidate, shared, plus its `identity` (its `holderIdentity`). */
export type LeaderElection = Observable<Leadership> & {
  /** This candidate's identity: the `holderIdentity` it writes into the Lease when it leads. */
  readonly identity: string;
};

/**
 * Campaigns for a `coordination.k8s.io/v1` Lease as client-go's `leaderelection` does, and tells
 * whether this candidate leads.
 *
 * <span class="informal">One candidate's view of one lease: `leading` while it holds a term,
 * `following` (with the holder it sees) otherwise.</span>
 *
 * ```text
 * lease (others):  --B-------------------x       B renews until it dies at x
 * leaderElection:  --f(B)------------------------L     f = following, L = leading
 *                                        |←—— leaseDuration after the last change seen ——→|
 * ```
 *
 * - **Acquire**: read the lease; create it if missing; take it if it names nobody, or if its record
 *   has not changed for the record's `leaseDurationSeconds` as timed on this candidate's own clock
 *   (`leaseTransitions` + 1). Tries every `retryPeriodMs`·(1 + 1.2·random) until it succeeds.
 * - **Renew**: every `retryPeriodMs` while leading, a PUT from the cached lease (on failure, a read
 *   and a PUT). Every write is guarded by the resourceVersion read, so two candidates cannot both
 *   win one round.
 * - **Lose**: the term ends `renewDeadlineMs` after the start of the last successful write, on a
 *   timer, whether or not the API server answers: `following` is emitted then and the candidate
 *   campaigns again. It also ends as soon as a read shows another holder. A lost term is not fatal
 *   here (controller-runtime exits the process): {@link whileLeading} starts the work again on the
 *   next term. To exit instead, end the process on the first `following` after a `leading`.
 * - **Release** (`releaseOnCancel`): on unsubscribe, if it holds the lease, it writes an empty
 *   holder, retrying until `renewDeadlineMs` has passed.
 * - Shared: one elector per call, started by the first subscriber and stopped by the last; a late
 *   subscriber gets the latest value at once. Use one call per lease per process: two electors with
 *   one identity would both believe they lead.
 *
 * **What it guarantees, and what not.** Timestamps in the record are never compared with the local
 * clock; only changes of the record are timed, each candidate on its own monotonic clock, so any
 * offset between machines is harmless. A leader stops leading at most renewDeadline after it
 * started its last successful write; a contender takes over no earlier than leaseDuration after it
 * saw that write; with clocks running at the same rate that leaves leaseDuration − renewDeadline
 * (5 s by default) between them, and it holds while the clocks' rates differ by less than the ratio
 * leaseDuration/renewDeadline (1.5). There is **no fencing**: a process that is paused (stop-the-
 * world GC, SIGSTOP, a VM freeze) longer than that margin, or whose event loop is blocked, still
 * believes it leads when it wakes, and requests already sent reach the server after the term ended.
 * Work outside Kubernetes should carry the term (`transitions`) as a fencing token or be idempotent.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { interval } from 'rxjs';
 * import { leaderElection, leaseClient, whileLeading } from 'rx-informer/controller';
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const election = leaderElection({ leases: leaseClient(kubeConfig), lease: { namespace: 'demo', name: 'my-controller' } });
 * election.subscribe((leadership) => console.log(leadership.state, leadership.holder));
 * interval(1000).pipe(whileLeading(election)).subscribe((n) => console.log('leader work', n));
 * // Logs: following <other replica> … leading <this identity> / leader work 0 / leader work 1 …
 * ```
 *
 * @param config the lease, the lease client, the identity, the three durations, release.
 * @returns the shared leadership of this candidate, with its `identity`.
 * @throws {TypeError} for a bad config: missing client or lease, leaseDuration ≤ renewDeadline,
 * renewDeadline ≤ 1.2 × retryPeriod, a duration ≤ 0, a lease duration that is not whole seconds.
 * @see {@link whileLeading}
 */
export function leaderElection(config: LeaderElectionConfig): LeaderElection {
  const resolved = resolveElectionConfig(config);
  const leadership$ = new Observable<Leadership>((subscriber) => runElection(resolved, subscriber)).pipe(
    share({ connector: () => new ReplaySubject<Leadership>(1), resetOnError: true, resetOnComplete: true, resetOnRefCountZero: true }),
  );
  return Object.assign(leadership$, { identity: resolved.identity });
}
