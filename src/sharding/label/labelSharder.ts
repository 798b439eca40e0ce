import { defer, filter, ignoreElements, map, merge, mergeMap, Observable, share, Subject, switchMap, take, tap } from 'rxjs';
import { KubeApiError } from '../../errors.js';
import { informer } from '../../informer/informer.js';
import { listWatch } from '../../sources/listWatch.js';
import type { KubeObject } from '../../store/kubeObject.js';
import { keepConnected } from '../../controller/keepConnected.js';
import type { Lease } from '../../coordination/lease.js';
import { collectDeadMembers } from '../collectDeadMembers.js';
import { reconcile } from '../../controller/reconcile.js';
import { hashRing, type HashRing } from './hashRing.js';
import { liveMembers } from '../liveMembers.js';
import { ringLabel } from '../ringLabel.js';
import { resolveShardingConfig, type LabelShardingConfig, type ResolvedShardingConfig, type ShardingEvent } from '../shardingConfig.js';
import { shardMove } from './shardMove.js';

/**
 * The sharder of a ring in label mode: labels every primary object with the member that owns it on the
 * consistent-hash ring of the live members, and moves objects when members come and go. Run it on
 * one replica at a time — {@link sharded} runs it under leader election.
 *
 * <span class="informal">A controller of labels: its keys are the primary objects, its work is a
 * resourceVersion-guarded merge patch of two labels.</span>
 *
 * ```text
 * member Leases ─ liveMembers(confirm) ─ ring ─┐
 * objects (metadata only) ─────────────────────┴─ keys ─ reconcile(shardMove → patch) ─► events
 * ```
 *
 * - Members: the Leases labelled `sharding.rx-informer.dev/ring=<ring>` in `namespace`, live by
 *   {@link liveMembers} with a fresh read before one is declared dead.
 * - An object without an owner gets the ring's owner (`assigned`). An object whose owner is live but
 *   no longer the ring's owner gets the drain label (`draining`); the owner lets go (removes both
 *   labels) once it has stopped working on it, and the object is then assigned. An object whose
 *   owner is not live is labelled with the new owner at once (`moved`).
 * - Nothing is assigned before the objects are listed and the members known. Each write carries
 *   the resourceVersion it was decided on; a conflict is retried with per-key backoff on a fresh copy.
 * - Memory: a metadata-only cache of every primary object (name, namespace, labels, resourceVersion).
 * - Member Leases of terms that ended (released, or confirmed dead) are deleted after two checks
 *   `4 × leaseDuration` apart.
 *
 * @param config the ring, its namespace, the primary resource, durations, clients.
 * @returns a cold Observable of the sharder's events (it never completes).
 */
export function labelSharder(config: LabelShardingConfig): Observable<ShardingEvent> {
  return runSharder(resolveShardingConfig(config, 'labelSharder'));
}

/**
 * The label sharder (see {@link labelSharder}).
 *
 * @deprecated Renamed {@link labelSharder}: `sharder` and `sharded` differed by one letter. Its
 * option errors still name `sharder`.
 */
export function sharder(config: LabelShardingConfig): Observable<ShardingEvent> {
  return runSharder(resolveShardingConfig(config, 'sharder'));
}

/** @internal {@link labelSharder} on a resolved config. */
export function runSharder(c: ResolvedShardingConfig): Observable<ShardingEvent> {
  const { apiVersion, kind } = c.resource;
  return defer(() => {
    const events = new Subject<ShardingEvent>();
    const leases = informer(listWatch<Lease>(c.kubeConfig, { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', namespace: c.namespace }, { labelSelector: `${ringLabel}=${c.ring}` }));
    const objects = informer(listWatch<KubeObject>(c.kubeConfig, c.resource, { metadataOnly: true, transform: metadataOf }));
    let ring: HashRing = hashRing([]);
    let live: ReadonlySet<string> = new Set();

    const members$ = leases.snapshots$.pipe(
      filter((snapshot) => snapshot.synced),
      liveMembers({ scheduler: c.scheduler, confirm: (ref) => c.leases.get(ref), retryMs: c.retryPeriodMs }),
      tap((members) => {
        ring = hashRing(members, { virtualNodes: c.virtualNodes });
        live = new Set(members);
        events.next({ type: 'members', members });
      }),
      share(),
    );
    const keys$ = objects.synced$.pipe(
      filter(Boolean),
      take(1),
      switchMap(() => merge(members$.pipe(mergeMap(() => [...objects.snapshot.keys()])), objects.changes$.pipe(map((change) => change.key)))),
    );
    const place = async (key: string, signal: AbortSignal): Promise<void> => {
      const object = objects.snapshot.get(key);
      if (object === undefined) return;
      const move = shardMove(object, ring.ownerOf(c.shardKey(object)), live, c.labels);
      if (move.type === 'none' || move.type === 'wait') return;
      const target = { apiVersion, kind, name: object.metadata!.name!, ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}) };
      try {
        await c.client.patch(target, move.patch, { type: 'merge', signal });
      } catch (error) {
        if (error instanceof KubeApiError && error.code === 404) return; // deleted meanwhile
        c.onError?.(error);
        throw error;
      }
      events.next(move.type === 'assign' ? { type: 'assigned', key, to: move.to } : { type: move.type === 'drain' ? 'draining' : 'moved', key, from: move.from, to: move.to });
    };
    const work$ = keys$.pipe(reconcile((key, { signal }) => place(key, signal), { concurrency: c.sharderConcurrency, scheduler: c.scheduler }));
    return merge(events, work$.pipe(ignoreElements()), collectDeadMembers(c, leases, () => live), keepConnected([leases, objects]));
  });
}

/** What the sharder keeps of an object: enough to key it, place it and guard the write. */
function metadataOf(object: KubeObject): KubeObject {
  const { name, namespace, labels, resourceVersion, uid } = object.metadata ?? {};
  return { metadata: { ...(name ? { name } : {}), ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}), ...(resourceVersion ? { resourceVersion } : {}), ...(uid ? { uid } : {}) } };
}

