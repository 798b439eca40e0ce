import { filter, map, merge, Observable, share, Subscription, tap } from 'rxjs';
import type { Lease } from '../../coordination/lease.js';
import type { ClaimCell } from './claimingLeases.js';
import { collectDeadMembers } from '../collectDeadMembers.js';
import { liveMembers } from '../liveMembers.js';
import { rangeStretches } from './rangeStretches.js';
import type { ServerShard } from './serverShard.js';
import type { ResolvedShardingConfig } from '../shardingConfig.js';
import { handshake } from './handshakeRuntime.js';
import type { HandshakeState } from './handshakeState.js';

/** @internal The member Leases of a server-side ring, as one member reads them. */
export interface ServerRing {
  /** Snapshots of the ring's member Leases (`synced`: the first list is in). */
  readonly snapshots$: Observable<Iterable<Lease> & { readonly synced: boolean }>;
  /** The member Leases as last seen. */
  readonly snapshot: Iterable<Lease>;
  /** Reads the ring's member Leases afresh (one value). */
  readonly list: () => Observable<readonly Lease[]>;
  /** Keeps the watch running while subscribed; errors when it fails for good. */
  readonly connected$: Observable<never>;
}

/**
 * @internal One membership term of a replica in a server-side ring: watches the ring's member
 * Leases and runs the member's {@link handshake} on them — its states and rules are
 * {@link handshakeStep}'s, the work per stretch of unchanged ranges is {@link rangeStretches}', and
 * the claim rides on the member Lease's writes through `cell`. The first live member also deletes
 * the Leases of terms that ended ({@link collectDeadMembers}).
 *
 * Completes when a stretch's work completes by itself (a graceful shutdown).
 */
export function serverShardTerm<T>(c: ResolvedShardingConfig, identity: string, cell: ClaimCell, ring: ServerRing, work: (shard: ServerShard) => Observable<T>, onState?: (state: HandshakeState) => void): Observable<T> {
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
