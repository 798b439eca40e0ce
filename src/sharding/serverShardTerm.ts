import { filter, Observable, share, Subscription } from 'rxjs';
import { informer } from '../informer/informer.js';
import { httpListerWatcher } from '../sources/http/httpListerWatcher.js';
import { listWatch } from '../sources/listWatch.js';
import { keepConnected } from '../controller/keepConnected.js';
import { holderOf, type Lease } from '../coordination/lease.js';
import type { ClaimCell } from './claimingLeases.js';
import { claimWrites, sameClaim } from './claimWrites.js';
import { collectDeadMembers } from './collectDeadMembers.js';
import { liveMembers } from './liveMembers.js';
import { planShard } from './planShard.js';
import { rangeStretches } from './rangeStretches.js';
import { rangesOverlap, subtractRanges } from './rangeSet.js';
import type { ServerShard } from './serverShard.js';
import { claimOf, viewOf, type ShardClaim } from './shardClaim.js';
import { ringLabel } from './shardLabels.js';
import type { ResolvedShardingConfig } from './shardingConfig.js';
import { shardRanges } from './shardRanges.js';

const leases = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' } as const;

/**
 * @internal One membership term of a replica in a server-side ring: watches the ring's member
 * Leases and carries out {@link planShard} — the work per stretch of unchanged ranges is
 * {@link rangeStretches}, what goes on the member Lease is {@link claimWrites}. The first live
 * member also deletes the Leases of terms that ended ({@link collectDeadMembers}).
 *
 * - Narrowing: the stretch's work is unsubscribed, its runs are let finish, then the narrower
 *   ranges are worked on and claimed.
 * - Widening: the wider claim is written, the ring's Leases are read afresh
 *   (a LIST: a member this replica has not seen yet counts too), and only when no live peer claims
 *   any of the new ranges does the work restart on them; otherwise the claim falls back and the
 *   plan is made again a retry period later.
 *
 * A claim that changed is written at once, by a renewal out of turn, not with the next one: each
 * step of the handshake waits on a write, and a handover after a death takes three (the new view,
 * the peers' new views, the wider claim).
 *
 * Completes when a stretch's work completes by itself (a graceful shutdown).
 */
export function serverShardTerm<T>(c: ResolvedShardingConfig, identity: string, cell: ClaimCell, work: (shard: ServerShard) => Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const subscriptions = new Subscription();
    const ring = { ...leases, namespace: c.namespace };
    const members = informer(listWatch<Lease>(c.kubeConfig, ring, { labelSelector: `${ringLabel}=${c.ring}` }));
    const claims = claimWrites(cell, httpListerWatcher<Lease>(c.kubeConfig, ring, { labelSelector: `${ringLabel}=${c.ring}` }), c.onError);
    const stretches = rangeStretches(c, identity, work, subscriber, () => drive());
    let snapshot: readonly Lease[] = [];
    let live: readonly string[] = [];
    let checking = false;
    // The ring's ranges, dealt again only when the live members change, not at every Lease renewal
    // a plan runs on: dealing 64 slices costs ~0.2 ms with 4 members and ~3 ms with 100, and a member
    // plans at each of its peers' renewals (N / 2 a second at the default 2 s retry period).
    let dealt: { readonly members: string; readonly targets: ReturnType<typeof shardRanges> } | undefined;
    const targetsOf = (members: readonly string[]): ReturnType<typeof shardRanges> => {
      const key = members.join('\n');
      if (dealt?.members !== key) dealt = { members: key, targets: shardRanges(members, { buckets: c.shardBuckets }) };
      return dealt.targets;
    };

    /** Live peers' claims: from the watched snapshot, or from a fresh list (a holder not seen yet counts as live). */
    const peerClaims = (from: readonly Lease[], unseenCount: boolean): Array<ShardClaim | undefined> => {
      const seen = new Set(snapshot.map(holderOf));
      return from.filter((lease) => {
        const holder = holderOf(lease);
        return holder !== undefined && holder !== identity && (live.includes(holder) || (unseenCount && !seen.has(holder)));
      }).map(claimOf);
    };
    /** The pending claim is written: check it afresh, then work on it, or plan again a retry period later. */
    const check = (claim: ShardClaim): void => {
      checking = true;
      const gain = subtractRanges(claim.ranges, stretches.working());
      const clashes = (items: readonly Lease[]): boolean => peerClaims(items, true).some((peer) => peer !== undefined && rangesOverlap(peer.ranges, gain));
      subscriptions.add(
        claims.check(stretches.working(), clashes).subscribe((clear) => {
          checking = false;
          if (clear) return stretches.move(claim.ranges, () => undefined);
          subscriptions.add(c.scheduler.schedule(drive, c.retryPeriodMs));
        }),
      );
    };
    /** Plans, and writes a claim that changed at once rather than with the next renewal. */
    function drive(): void {
      plan();
      if (!subscriber.closed) claims.flush();
    }
    function plan(): void {
      if (checking || stretches.moving() || subscriber.closed) return;
      const view = viewOf(live);
      const working = stretches.working();
      const input = { targets: targetsOf(live), view, self: identity, peers: peerClaims(snapshot, false), working };
      const pending = claims.pending();
      if (pending !== undefined) {
        // Would the same gain still be made? Then wait for its write, and check it afresh.
        const still = planShard({ ...input, written: { view, ranges: working } });
        if (still.type === 'gain' && sameClaim(still.claim, pending)) {
          if (claims.written(pending)) check(pending);
          return;
        }
        claims.claim({ view, ranges: working });
      }
      const plan = planShard({ ...input, written: cell.written });
      if (plan.type === 'shrink') stretches.move(plan.working, () => claims.claim({ view, ranges: plan.working }));
      else if (plan.type === 'announce') claims.claim(plan.claim);
      else if (plan.type === 'gain') claims.propose(plan.claim);
    }

    cell.onWritten = drive;
    const synced$ = members.snapshots$.pipe(filter((s) => s.synced), share());
    subscriptions.add(synced$.subscribe((s) => ((snapshot = [...s]), drive())));
    subscriptions.add(
      synced$.pipe(liveMembers({ scheduler: c.scheduler, confirm: (ref) => c.leases.get(ref), retryMs: c.retryPeriodMs })).subscribe((m) => {
        live = m;
        c.onEvent({ type: 'members', members: m });
        drive();
      }),
    );
    // No sharder runs in this mode: the first live member deletes the Leases of terms that ended.
    subscriptions.add(collectDeadMembers(c, members, () => new Set(live), () => live[0] === identity).subscribe());
    subscriptions.add(keepConnected([members]).subscribe({ error: (error: unknown) => subscriber.error(error) }));
    return () => {
      cell.onWritten = () => undefined;
      stretches.stop();
      subscriptions.unsubscribe();
    };
  });
}
