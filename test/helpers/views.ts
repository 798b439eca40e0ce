import type { StoreUpdate } from '../../src/store/applyBatch.js';
import { isTombstone } from '../../src/store/delta.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { Notification } from '../../src/store/notification.js';
import type { Snapshot } from '../../src/store/snapshot.js';

/** A compact, comparable view of a snapshot: sorted `key@rv` entries plus rv and synced. */
export function snapshotView(snapshot: Snapshot<KubeObject>): { items: string[]; rv: string; synced: boolean } {
  const items = [...snapshot.entries()].map(([key, object]) => `${key}@${object.metadata?.resourceVersion ?? ''}`).sort();
  return { items, rv: snapshot.resourceVersion, synced: snapshot.synced };
}

/** A compact view of a notification: `add key@rv initial`, `update key@old->new [sync]`, `delete key@rv|tombstone`. */
export function changeView(change: Notification<KubeObject>): string {
  const rv = (o: KubeObject | undefined) => o?.metadata?.resourceVersion ?? '';
  switch (change.type) {
    case 'add':
      return `add ${change.key}@${rv(change.object)}${change.isInInitialList ? ' initial' : ''}`;
    case 'update':
      return `update ${change.key}@${rv(change.oldObject)}->${rv(change.object)}${change.sync ? ' sync' : ''}`;
    case 'delete':
      return isTombstone(change.object) ? `delete ${change.key}@tombstone(${rv(change.object.object)})` : `delete ${change.key}@${rv(change.object)}`;
  }
}

/** A compact view of a store update. */
export function updateView(update: StoreUpdate<KubeObject>): { snapshot: ReturnType<typeof snapshotView>; changes: string[]; errors: string[] } {
  return { snapshot: snapshotView(update.snapshot), changes: update.changes.map(changeView), errors: update.errors.map((e) => e.message) };
}
