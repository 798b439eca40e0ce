import { filter, Observable, share, Subscription } from 'rxjs';
import { informer } from '../informer/informer.js';
import { httpListerWatcher } from '../sources/http/httpListerWatcher.js';
import { listWatch } from '../sources/listWatch.js';
import { shardSelectorOf, type ShardRange } from '../sources/shardSelector.js';
import { keepConnected } from '../controller/keepConnected.js';
import { holderOf, type Lease } from '../coordination/lease.js';
import type { ClaimCell } from './claimingLeases.js';
import { liveMembers } from './liveMembers.js';
import { planShard } from './planShard.js';
import { rangesOverlap, sameRanges, subtractRanges } from './rangeSet.js';
import { createServerShard, runCounter, type ServerShard } from './serverShard.js';
import { claimOf, viewOf, type ShardClaim } from './shardClaim.js';
import { ringLabel } from './shardLabels.js';
import type { ResolvedShardingConfig } from './shardingConfig.js';
import { shardRanges } from './shardRanges.js';

const leases = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' } as const;
const sameClaim = (a: ShardClaim | undefined, b: ShardClaim): boolean => a !== undefined && a.view === b.view && sameRanges(a.ranges, b.ranges);

/**
 * @internal One membership term of a replica in a server-side ring: watches the ring's member
 * Leases, carries out {@link planShard}, and runs `work` once per stretch of unchanged ranges.
 *
 * - Narrowing: the stretch's work is unsubscribed, its runs are let finish, then the narrower
 *   ranges are worked on and claimed (written with the next renewal).
 * - Widening: the wider claim is written with the next renewal, the ring's Leases are read afresh
 *   (a LIST: a member this replica has not seen yet counts too), and only when no live peer claims
 *   any of the new ranges does the work restart on them; otherwise the claim falls back and the
 *   plan is made again a retry period later.
 *
 * Completes when a stretch's work completes by itself (a graceful shutdown).
 */
export function serverShardTerm<T>(c: ResolvedShardingConfig, identity: string, claims: ClaimCell, work: (shard: ServerShard) => Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const subscriptions = new Subscription();
    const ring = { ...leases, namespace: c.namespace };
    const members = informer(listWatch<Lease>(c.kubeConfig, ring, { labelSelector: `${ringLabel}=${c.ring}` }));
    const fresh = httpListerWatcher<Lease>(c.kubeConfig, ring, { labelSelector: `${ringLabel}=${c.ring}` });
    const runs = runCounter();
    let snapshot: readonly Lease[] = [];
    let live: readonly string[] = [];
    let working: readonly ShardRange[] = [];
    let pending: ShardClaim | undefined;
    let busy = false;
    let stretch: Subscription | undefined;

    const start = (): void => {
      c.onEvent({ type: 'ranges', identity, ranges: working });
      if (working.length === 0) return;
      const selector = shardSelectorOf(working, c.shardField);
      const shard = createServerShard(identity, c.ring, working, selector, runs);
      stretch = new Observable<T>((s) => work(shard).subscribe(s)).subscribe({
        next: (value) => subscriber.next(value),
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    };
    /** Stop the stretch, let its runs settle, then work on `next`. */
    const move = (next: readonly ShardRange[], then: () => void): void => {
      busy = true;
      stretch?.unsubscribe();
      stretch = undefined;
      void runs.idle().then(() => {
        if (subscriber.closed) return;
        working = next;
        then();
        start();
        busy = false;
        drive();
      });
    };
    /** Live peers' claims: from the watched snapshot, or from a fresh list (a holder not seen yet counts as live). */
    const peerClaims = (from: readonly Lease[], unseenCount: boolean): Array<ShardClaim | undefined> => {
      const seen = new Set(snapshot.map(holderOf));
      return from.filter((lease) => {
        const holder = holderOf(lease);
        return holder !== undefined && holder !== identity && (live.includes(holder) || (unseenCount && !seen.has(holder)));
      }).map(claimOf);
    };
    const check = (claim: ShardClaim): void => {
      busy = true;
      const gain = subtractRanges(claim.ranges, working);
      subscriptions.add(
        fresh.list({}).subscribe({
          next: (list) => {
            const clash = peerClaims(list.items, true).some((peer) => peer !== undefined && rangesOverlap(peer.ranges, gain));
            pending = undefined;
            if (!clash) return move(claim.ranges, () => undefined);
            claims.current = { view: claim.view, ranges: working };
            busy = false;
            subscriptions.add(c.scheduler.schedule(drive, c.retryPeriodMs));
          },
          error: (error: unknown) => {
            c.onError?.(error);
            pending = undefined;
            claims.current = { view: claim.view, ranges: working };
            busy = false;
            subscriptions.add(c.scheduler.schedule(drive, c.retryPeriodMs));
          },
        }),
      );
    };
    function drive(): void {
      if (busy || subscriber.closed) return;
      const view = viewOf(live);
      const input = { targets: shardRanges(live, { buckets: c.shardBuckets }), view, self: identity, peers: peerClaims(snapshot, false), working };
      if (pending !== undefined) {
        // Would the same gain still be made? Then wait for its write, and check it afresh.
        const still = planShard({ ...input, written: { view, ranges: working } });
        if (still.type === 'gain' && sameClaim(still.claim, pending)) {
          if (sameClaim(claims.written, pending)) check(pending);
          return;
        }
        pending = undefined;
        claims.current = { view, ranges: working };
      }
      const plan = planShard({ ...input, written: claims.written });
      if (plan.type === 'shrink') move(plan.working, () => (claims.current = { view, ranges: plan.working }));
      else if (plan.type === 'announce') claims.current = plan.claim;
      else if (plan.type === 'gain') claims.current = pending = plan.claim;
    }

    claims.onWritten = drive;
    const synced$ = members.snapshots$.pipe(
      filter((s) => s.synced),
      share(),
    );
    subscriptions.add(synced$.subscribe((s) => ((snapshot = [...s]), drive())));
    subscriptions.add(
      synced$.pipe(liveMembers({ scheduler: c.scheduler, confirm: (ref) => c.leases.get(ref), retryMs: c.retryPeriodMs })).subscribe((m) => {
        live = m;
        c.onEvent({ type: 'members', members: m });
        drive();
      }),
    );
    subscriptions.add(keepConnected([members]).subscribe({ error: (error: unknown) => subscriber.error(error) }));
    return () => {
      claims.onWritten = () => undefined;
      stretch?.unsubscribe();
      subscriptions.unsubscribe();
    };
  });
}
