import { Observable, Subscription } from 'rxjs';
import type { Informer } from '../informer/informer.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import type { Snapshot } from '../store/snapshot.js';
import { snapshotDiff } from './snapshotDiff.js';

/** A {@link Notification} of one cluster of a fleet: `key` is the object's key in that cluster, `cluster` names it. */
export type FleetNotification<T> = Notification<T> & {
  /** The name of the cluster the object is in. */
  readonly cluster: string;
};

/**
 * What one change of a fleet brought: one cluster's new snapshot (as its reader now knows it) and
 * its notifications. A cluster's first synced snapshot and its leaving are told even when they
 * bring no notification (an empty cluster).
 */
export interface FleetUpdate<T extends KubeObject = KubeObject> {
  /** The name of the cluster that changed. */
  readonly cluster: string;
  /** The cluster's cache after these changes; `undefined` when the cluster left (the changes are then a delete per object it held). */
  readonly snapshot: Snapshot<T> | undefined;
  /** The cluster's notifications of this change, in order (empty for an empty cluster's first sync or leaving). */
  readonly changes: readonly FleetNotification<T>[];
}

interface Attachment<T extends KubeObject, C> {
  readonly cluster: C;
  /** What this reader was told of the cluster: the snapshot its notifications lead to. */
  seen: Snapshot<T> | undefined;
  /** Whether `seen` comes from this attachment's informer (until then, a synced snapshot is diffed against it). */
  caughtUp: boolean;
  subscription: Subscription;
}

/**
 * Merges the informers of the engaged clusters into one stream of cluster-qualified updates, for
 * one reader (each subscriber gets its own run; the informers are shared).
 *
 * ```text
 * clusters$:   a---------------{a,b}-----------{b}--------|
 * informer a:  --[list a1,a2]-----------a3------              (a's first list, then a watch event)
 * informer b:                    --[list b1]-------
 * updates:     --a:+a1,+a2--------b:+b1--a:~a3--a:-a1,-a2,-a3--|
 * ```
 *
 * For each cluster, the reader subscribes to the informer's updates first and reads its snapshot
 * second; what it is told is always the difference between what it saw (`seen`) and the cluster's
 * synced snapshot, then the live notifications. So a reader that comes before a cluster syncs gets
 * its first list as adds, one that comes after gets the cache as adds, and no timing loses an add
 * (multicluster-runtime's early defect: caches started before handlers lost their initial adds).
 * A cluster that is re-engaged (a new value in `clusters$` under its name, new credentials) is
 * read from its new informer once that one is synced, as a relist: updates, adds and deletes
 * against what the old one had shown; until then the reader keeps what it saw. A cluster that
 * leaves is told as a delete per object seen, before its informer is let go.
 *
 * @param clusters$ the engaged clusters by name; a new value object under a name is a re-engagement.
 * @param informerOf the informer of the resource in a cluster (a shared one: it is held only while read).
 */
export function fleetUpdates<T extends KubeObject, C>(clusters$: Observable<ReadonlyMap<string, C>>, informerOf: (cluster: C, name: string) => Informer<T>): Observable<FleetUpdate<T>> {
  return new Observable<FleetUpdate<T>>((subscriber) => {
    const attached = new Map<string, Attachment<T, C>>();
    // A catch-up and a leave are told even without changes, so that a reader's snapshots gain and lose an empty cluster too.
    const emit = (name: string, snapshot: Snapshot<T> | undefined, changes: readonly Notification<T>[], always = false): void => {
      if (always || changes.length > 0) subscriber.next({ cluster: name, snapshot, changes: changes.map((change) => ({ ...change, cluster: name })) });
    };
    const attach = (name: string, cluster: C, seen: Snapshot<T> | undefined): void => {
      const informer = informerOf(cluster, name);
      const at: Attachment<T, C> = { cluster, seen, caughtUp: false, subscription: Subscription.EMPTY };
      attached.set(name, at);
      const catchUp = (snapshot: Snapshot<T>): void => {
        if (!snapshot.synced) return;
        at.caughtUp = true;
        const previous = at.seen;
        at.seen = snapshot;
        emit(name, snapshot, snapshotDiff(previous, snapshot), true);
      };
      // Subscribe first, read second: an update that comes in between is in the snapshot read,
      // one that comes after is delivered; none is lost between the two.
      at.subscription = informer.updates$.subscribe({
        next: (update) => {
          if (!at.caughtUp) return catchUp(update.snapshot);
          at.seen = update.snapshot;
          emit(name, update.snapshot, update.changes);
        },
        // The cluster's informer reports its failure on its status$; the fleet goes on without it.
        error: () => undefined,
      });
      if (!at.caughtUp) catchUp(informer.snapshot);
    };
    const detach = (name: string): Snapshot<T> | undefined => {
      const at = attached.get(name)!;
      attached.delete(name);
      at.subscription.unsubscribe();
      return at.seen;
    };
    const leave = (name: string): void => {
      const seen = detach(name);
      if (seen !== undefined) emit(name, undefined, snapshotDiff(seen, undefined), true);
    };
    const subscription = clusters$.subscribe({
      next: (clusters) => {
        for (const name of [...attached.keys()]) if (!clusters.has(name)) leave(name);
        for (const [name, cluster] of clusters) {
          const at = attached.get(name);
          if (at === undefined) attach(name, cluster, undefined);
          else if (at.cluster !== cluster) attach(name, cluster, detach(name));
        }
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        for (const name of [...attached.keys()]) leave(name);
        subscriber.complete();
      },
    });
    return () => {
      subscription.unsubscribe();
      for (const at of attached.values()) at.subscription.unsubscribe();
      attached.clear();
    };
  });
}
