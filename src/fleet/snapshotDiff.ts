import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import { resourceVersionOf } from '../store/resourceVersionOf.js';
import type { Snapshot } from '../store/snapshot.js';

/**
 * The notifications that take a reader who saw `seen` to `next`, as a relist would tell them: an
 * `add` (initial) for a key only `next` holds, an `update` for a key whose object changed identity
 * (`sync` when both carry one resourceVersion), a `delete` with the last object seen for a key
 * only `seen` holds. `seen` undefined is an empty cache; `next` undefined is a cluster that left.
 */
export function snapshotDiff<T extends KubeObject>(seen: Snapshot<T> | undefined, next: Snapshot<T> | undefined): Notification<T>[] {
  const changes: Notification<T>[] = [];
  next?.forEach((object, key) => {
    const old = seen?.get(key);
    if (old === undefined) changes.push({ type: 'add', key, object, isInInitialList: true });
    else if (old !== object) {
      const oldRV = resourceVersionOf(old);
      changes.push({ type: 'update', key, oldObject: old, object, sync: oldRV !== undefined && oldRV === resourceVersionOf(object) });
    }
  });
  seen?.forEach((object, key) => {
    if (next?.has(key) !== true) changes.push({ type: 'delete', key, object });
  });
  return changes;
}
