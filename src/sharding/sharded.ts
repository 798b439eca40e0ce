import { defer, EMPTY, finalize, Observable, of, repeat, Subject, takeWhile, tap } from 'rxjs';
import { leaderElection } from '../coordination/leaderElection.js';
import { whileLeading } from '../coordination/whileLeading.js';
import type { Leadership } from '../coordination/electionState.js';
import type { LeaseClient } from '../coordination/leaseClient.js';
import { claimingLeases, type ClaimCell } from './claimingLeases.js';
import type { ServerShard } from './serverShard.js';
import { serverShardTerm } from './serverShardTerm.js';
import { createShard, type Shard } from './shard.js';
import { runSharder } from './sharder.js';
import { ringLabel } from './shardLabels.js';
import { resolveShardingConfig, type ResolvedShardingConfig, type ShardingConfig } from './shardingConfig.js';
import { argumentError } from '../options/optionChecks.js';

/**
 * Runs one replica of a sharded controller: N replicas share the primary objects of one kind, each
 * reconciling only its own, with no object reconciled by two replicas at once.
 *
 * <span class="informal">Every replica is a member of the ring while it holds its own Lease, and
 * runs `work` for that term only; one replica at a time is also the sharder, which labels the
 * objects with their owners.</span>
 *
 * ```text
 * member Lease <ring>-<identity>  ── term 1 ─────────x   (lost: work stops)   term 2 (new identity) ──
 * work(shard)                        ^ informers with shard.labelSelector, controller ─!   ^ ─────────
 * sharder Lease <ring>-sharder    ── leading on one replica: sharder() ──────────────────────────────
 * ```
 *
 * - **Membership**: each term has a fresh identity and its own Lease (labelled
 *   `sharding.rx-informer.dev/ring=<ring>`), held with {@link leaderElection}. `work(shard)` is
 *   subscribed when the term begins and unsubscribed the moment it ends — renewDeadline after the
 *   last renewal that went through, whether or not the API server is reachable. A lost term is not
 *   resumed: the replica joins again under a new identity, and its objects come back through the
 *   ring.
 * - **Memory**: build the term's informers with `shard.labelSelector`: the API server then sends a
 *   replica only its own objects (and a DELETED when one leaves it). The sharder (one replica) adds a
 *   metadata-only cache of every primary object.
 * - **Handover** (no object reconciled twice at once): from a live owner, by the drain handshake —
 *   the sharder sets the drain label, the owner's `shard.reconciler` lets the object go only after
 *   its running reconcile of it has finished, and only then is the object labelled for its new
 *   owner. From a dead owner, directly, once a fresh read shows its Lease unchanged for its whole
 *   duration: by then the owner's term has ended (leaseDuration − renewDeadline earlier, 5 s by
 *   default, with equal clock rates). Same limits as leader election: no fencing, a paused process
 *   or a reconcile that ignores its `AbortSignal` can outlive its term.
 * - **Stopping**: unsubscribe, or let `work` complete (a controller's graceful `shutdownOn`): then the
 *   term ends, the member Lease is released (its objects move at once), then the sharder's.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { informer, listWatch, type KubeObject } from 'rx-informer';
 * import { controller, sharded } from 'rx-informer/controller';
 * declare function sync(object: KubeObject | undefined, signal: AbortSignal): Promise<void>; // assuming: your reconcile
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * sharded({ kubeConfig, ring: 'configmaps', namespace: 'demo', resource: { apiVersion: 'v1', kind: 'ConfigMap' } }, (shard) => {
 *   // Per term, and stopped when the term ends (a factory's informers run until its dispose()).
 *   const configMaps = informer(listWatch(kubeConfig, { apiVersion: 'v1', kind: 'ConfigMap' }, { labelSelector: shard.labelSelector }));
 *   return controller(configMaps, { reconcile: shard.reconciler((cm, { signal }) => sync(cm, signal)) });
 * }).subscribe();
 * ```
 *
 * @param config the ring, where its Leases live, the primary resource, durations, events.
 * @param work builds this replica's work for one term.
 * @returns what `work` emits, term after term; completes when a term's `work` completes.
 * @throws {TypeError} for a bad config (see {@link ShardingConfig}) or a `work` that is not a function.
 * @see {@link sharder}, {@link hashRing}
 */
export function sharded<T>(config: ShardingConfig & { readonly mode?: 'label' }, work: (shard: Shard) => Observable<T>): Observable<T>;
export function sharded<T>(config: ShardingConfig & { readonly mode: 'server' }, work: (shard: ServerShard) => Observable<T>): Observable<T>;
export function sharded<T>(config: ShardingConfig, work: ((shard: Shard) => Observable<T>) | ((shard: ServerShard) => Observable<T>)): Observable<T> {
  const c = resolveShardingConfig(config, 'sharded');
  if (typeof work !== 'function') throw argumentError('sharded', 'work must be a function (shard) => Observable');
  if (c.mode === 'server') return serverMemberTerms(c, work as (shard: ServerShard) => Observable<T>);
  return new Observable<T>((subscriber) => {
    const sharder = sharderWhileLeading(c).subscribe({ error: (error: unknown) => subscriber.error(error) });
    const terms = memberTerms(c, work as (shard: Shard) => Observable<T>).subscribe(subscriber);
    return () => {
      terms.unsubscribe();
      sharder.unsubscribe();
    };
  });
}

const timing = (c: ResolvedShardingConfig) => ({ leases: c.leases, leaseDurationMs: c.leaseDurationMs, renewDeadlineMs: c.renewDeadlineMs, retryPeriodMs: c.retryPeriodMs, scheduler: c.scheduler, ...(c.onError ? { onError: c.onError } : {}) });

/** The sharder, on whichever replica holds `<ring>-sharder`. */
function sharderWhileLeading(c: ResolvedShardingConfig): Observable<never> {
  return defer(() => {
    const election = leaderElection({ ...timing(c), lease: { namespace: c.namespace, name: `${c.ring}-sharder` }, releaseOnCancel: true });
    return runSharder(c).pipe(
      whileLeading(election.pipe(tap((leadership) => c.onEvent({ type: 'sharder', leadership })))),
      tap((event) => c.onEvent(event)),
    ) as Observable<never>;
  });
}

/** Membership terms one after another, each with a fresh identity, `work` running for its duration. */
function memberTerms<T>(c: ResolvedShardingConfig, work: (shard: Shard) => Observable<T>): Observable<T> {
  return terms(c, (identity) => ({ leases: c.leases, run: (term$, completed) => defer(() => work(createShard(c, identity))).pipe(tap({ complete: completed }), whileLeading(term$)) }));
}

/** Server-side mode: the same terms, each running the ranges' handshake; the claim rides on the member Lease's writes, one out of turn when it changed. */
function serverMemberTerms<T>(c: ResolvedShardingConfig, work: (shard: ServerShard) => Observable<T>): Observable<T> {
  return terms(c, (identity) => {
    const renewals = new Subject<void>();
    const claims: ClaimCell = { current: { view: '', ranges: [] }, written: undefined, onWritten: () => undefined, renew: () => renewals.next() };
    return { leases: claimingLeases(c.leases, claims), renewWhen: renewals, run: (term$, completed) => serverShardTerm(c, identity, claims, work).pipe(tap({ complete: completed }), whileLeading(term$)) };
  });
}

/**
 * One term after another, each with a fresh identity and member Lease, `run` for the term's
 * duration, until the work completes by itself (`run` calls `completed` then; the end of a term
 * completes `run` too, and starts the next term).
 */
function terms<T>(c: ResolvedShardingConfig, term: (identity: string) => { readonly leases: LeaseClient; readonly renewWhen?: Observable<void>; readonly run: (term$: Observable<Leadership>, completed: () => void) => Observable<T> }): Observable<T> {
  let workCompleted = false;
  return defer(() => {
    const identity = c.newIdentity();
    const { leases, renewWhen, run } = term(identity);
    const election = leaderElection({ ...timing(c), leases, lease: c.memberLease(identity), identity, labels: { [ringLabel]: c.ring }, releaseOnCancel: true, ...(renewWhen ? { renewWhen } : {}) });
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
