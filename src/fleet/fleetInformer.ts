import { scan, type Observable, type Subscription } from 'rxjs';
import type { SharedInformer } from '../informer/informerFactory.js';
import type { WhenSyncedOptions } from '../informer/syncTracker.js';
import type { Tombstone } from '../store/delta.js';
import type { Frozen } from '../store/frozen.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Snapshot } from '../store/snapshot.js';
import { FleetError } from './fleetError.js';
import { fleetUpdates, type FleetNotification, type FleetUpdate } from './fleetUpdates.js';
import { spread } from '../informer/spread.js';
import type { EngagedCluster } from './engagedCluster.js';

/** The caches of a fleet informer: each engaged cluster's snapshot, by cluster name. */
export type FleetSnapshot<T extends KubeObject = KubeObject> = ReadonlyMap<string, Snapshot<T>>;

/** Callbacks of {@link FleetInformer.addHandler}: client-go's handler vocabulary with the cluster first. */
export interface FleetEventHandler<T> {
  /** An object came into `cluster`'s cache; `isInInitialList` when it came with that cluster's first list. */
  onAdd?(cluster: string, object: Frozen<T>, isInInitialList: boolean): void;
  /** An object in `cluster`'s cache changed (or a resync re-delivered it): its old and new versions. */
  onUpdate?(cluster: string, oldObject: Frozen<T>, newObject: Frozen<T>): void;
  /** An object left `cluster`'s cache (the cluster's leaving deletes each object it held). */
  onDelete?(cluster: string, object: Frozen<T> | Tombstone<T>): void;
}

/**
 * One resource across every engaged cluster of a fleet: the clusters' informers merged into
 * cluster-qualified streams, with each cluster's own informer (its snapshot, listers and status)
 * at hand. Every stream is per subscriber and holds the clusters' informers only while subscribed
 * (the fleet's factories keep them running anyway).
 */
export interface FleetInformer<T extends KubeObject> {
  /** Each change of one cluster: its snapshot after it and its notifications (see `fleetUpdates`). No replay of live changes; a subscriber first gets every engaged cluster's cache as adds. */
  readonly updates$: Observable<FleetUpdate<T>>;
  /** The notifications of every cluster, each naming its cluster; a cluster that leaves is a delete per object. */
  readonly changes$: Observable<FleetNotification<T>>;
  /** The caches of the engaged clusters as they change, by cluster (a cluster appears once its informer synced). */
  readonly snapshots$: Observable<FleetSnapshot<T>>;
  /** The current cache of every engaged cluster, by cluster (an unsynced cluster's is empty). */
  readonly snapshot: FleetSnapshot<T>;
  /** The informer of this resource in `cluster` (its snapshot, listers, `status$`, `whenSynced`), while the cluster is engaged. */
  cluster(name: string): SharedInformer<T> | undefined;
  /** Resolves when the informer of every cluster engaged now has synced; rejects as `whenSynced` does. */
  whenSynced(options?: WhenSyncedOptions): Promise<FleetSnapshot<T>>;
  /**
   * Registers callbacks for every cluster, delivered one at a time in order: the cache of each
   * engaged cluster as adds (`isInInitialList` true), then live notifications, and a delete per
   * object of a cluster that leaves. A handler registered before a cluster engages or syncs gets
   * its first list; one registered after gets its cache: no timing misses an add. A throw is
   * reported on the fleet's `errors$` (reason `handler`). Unsubscribe to remove it.
   */
  addHandler(handler: FleetEventHandler<T>): Subscription;
}

/** @internal What {@link fleetInformer} needs of its fleet. */
export interface FleetInformerHost<T extends KubeObject> {
  readonly clusters$: Observable<ReadonlyMap<string, EngagedCluster>>;
  clusters(): ReadonlyMap<string, EngagedCluster>;
  informerIn(cluster: EngagedCluster): SharedInformer<T>;
  report(error: FleetError): void;
}

/** @internal The fleet informer of one resource over a fleet's clusters. */
export function fleetInformer<T extends KubeObject>(host: FleetInformerHost<T>): FleetInformer<T> {
  const updates$ = fleetUpdates<T, EngagedCluster>(host.clusters$, (cluster) => host.informerIn(cluster));
  const changes$ = updates$.pipe(spread((update) => update.changes));
  const current = (): FleetSnapshot<T> => new Map([...host.clusters()].map(([name, cluster]) => [name, host.informerIn(cluster).snapshot]));
  return {
    updates$,
    changes$,
    snapshots$: updates$.pipe(
      scan((snapshots, update) => {
        const next = new Map(snapshots);
        if (update.snapshot === undefined) next.delete(update.cluster);
        else next.set(update.cluster, update.snapshot);
        return next as FleetSnapshot<T>;
      }, new Map() as FleetSnapshot<T>),
    ),
    get snapshot() {
      return current();
    },
    cluster(name) {
      const cluster = host.clusters().get(name);
      return cluster === undefined ? undefined : host.informerIn(cluster);
    },
    async whenSynced(options = {}) {
      await Promise.all([...host.clusters().values()].map((cluster) => host.informerIn(cluster).whenSynced(options)));
      return current();
    },
    addHandler(handler) {
      return changes$.subscribe((change) => {
        try {
          if (change.type === 'add') handler.onAdd?.(change.cluster, change.object, change.isInInitialList);
          else if (change.type === 'update') handler.onUpdate?.(change.cluster, change.oldObject, change.object);
          else handler.onDelete?.(change.cluster, change.object);
        } catch (cause) {
          host.report(new FleetError('handler', `a handler threw on ${change.type} of cluster://${change.cluster}/${change.key}: ${cause instanceof Error ? cause.message : String(cause)}`, { cluster: change.cluster, cause }));
        }
      });
    },
  };
}
