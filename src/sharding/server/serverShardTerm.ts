import { BehaviorSubject, filter, map, merge, Observable, share, Subject, Subscription, tap } from 'rxjs';
import type { Leadership } from '../../coordination/electionState.js';
import { whileLeading } from '../../coordination/whileLeading.js';
import type { MemberTerm } from '../memberTerms.js';
import { claimingLeases, type ClaimCell } from './claimingLeases.js';
import type { ShardClaim } from './shardClaim.js';
import { collectDeadMembers } from '../collectDeadMembers.js';
import { liveMembers } from '../liveMembers.js';
import { rangeStretches } from './rangeStretches.js';
import type { ServerShard } from './serverShard.js';
import type { ResolvedShardingConfig } from '../shardingConfig.js';
import { handshake } from './handshakeRuntime.js';
import type { HandshakeState } from './handshakeState.js';
import type { ServerRing } from './serverRing.js';

/**
 * @internal One membership term of `identity` in a server-side ring, for {@link memberTerms}: its
 * member Lease's writes carry the member's claim (one out of turn when it changed), and while the
 * term lasts the member watches the ring `ring` reads ({@link httpServerRing} on the API server) and
 * runs its {@link handshake} — the states and rules are {@link handshakeStep}'s, the work per
 * stretch of unchanged ranges is {@link rangeStretches}'. The first live member also deletes the
 * Leases of terms that ended ({@link collectDeadMembers}). `onState` hears the handshake's states
 * (for tests).
 *
 * The run completes when a stretch's work completes by itself (a graceful shutdown).
 */
export function serverShardTerm<T>(c: ResolvedShardingConfig, identity: string, ring: () => ServerRing, work: (shard: ServerShard) => Observable<T>, onState?: (state: HandshakeState) => void): MemberTerm<T> {
  const renewals = new Subject<void>();
  const cell: ClaimCell = { current: { view: '', ranges: [] }, written$: new BehaviorSubject<ShardClaim | undefined>(undefined), renew: () => renewals.next() };
  const run = (term$: Observable<Leadership>, completed: () => void): Observable<T> => termWork(c, identity, cell, ring(), work, onState).pipe(tap({ complete: completed }), whileLeading(term$));
  return { leases: claimingLeases(c.leases, cell), renewWhen: renewals, run };
}

/** The term's work: the ring watched, the handshake run on it, the stretches' work passed on. */
function termWork<T>(c: ResolvedShardingConfig, identity: string, cell: ClaimCell, ring: ServerRing, work: (shard: ServerShard) => Observable<T>, onState?: (state: HandshakeState) => void): Observable<T> {
  return new Observable<T>((subscriber) => {
    const subscriptions = new Subscription();
    const stretches = rangeStretches(c, identity, work, subscriber);
    let live: readonly string[] = [];
    const synced$ = ring.snapshots$.pipe(filter((s) => s.synced), map((s) => [...s]), share());
    const members$ = synced$.pipe(
      liveMembers({ scheduler: c.scheduler, confirm: (ref) => c.leases.get(ref), retryMs: c.retryPeriodMs }),
      tap((members) => {
        live = members;
        c.onEvent({ type: 'members', members });
      }),
    );
    const seen$ = merge(
      cell.written$.pipe(map((claim) => ({ type: 'written' as const, claim }))),
      synced$.pipe(map((leases) => ({ type: 'leases' as const, leases }))),
      members$.pipe(map((members) => ({ type: 'members' as const, members }))),
    );
    const io = {
      seen$,
      list: ring.list,
      claim: (claim: ClaimCell['current']) => void (cell.current = claim),
      renew: cell.renew,
      drain: stretches.drain,
      work: stretches.start,
      scheduler: c.scheduler,
      onError: c.onError,
      ...(onState ? { onState } : {}),
    };
    subscriptions.add(handshake({ self: identity, shardBuckets: c.shardBuckets, retryPeriodMs: c.retryPeriodMs }, io).subscribe({ error: (error: unknown) => subscriber.error(error) }));
    // No sharder runs in this mode: the first live member deletes the Leases of terms that ended.
    subscriptions.add(collectDeadMembers(c, ring, () => new Set(live), () => live[0] === identity).subscribe());
    subscriptions.add(ring.connected$.subscribe({ error: (error: unknown) => subscriber.error(error) }));
    return () => {
      stretches.stop();
      subscriptions.unsubscribe();
    };
  });
}
