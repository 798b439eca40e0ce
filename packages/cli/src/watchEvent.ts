import { isTombstone, type DiscoveredResource, type KubeObject, type Notification } from 'rx-informer';

/** A change as `kubectl get -w --output-watch-events` names it, with the object to show. */
export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: KubeObject;
}

/**
 * The event to print for a live notification, or undefined for one that is not a change (a resync
 * or an unchanged object in a relist). A delete shows the last state the cache had; when a relist
 * found the deletion and had no state (a tombstone without one), the object is rebuilt from its key.
 *
 * @param change the notification.
 * @param resource the resource watched, for a rebuilt object's `apiVersion` and `kind`.
 */
export function watchEvent(change: Notification<KubeObject>, resource: DiscoveredResource): WatchEvent | undefined {
  switch (change.type) {
    case 'add':
      return { type: 'ADDED', object: change.object };
    case 'update':
      return change.sync ? undefined : { type: 'MODIFIED', object: change.object };
    case 'delete': {
      if (!isTombstone(change.object)) return { type: 'DELETED', object: change.object };
      if (change.object.object) return { type: 'DELETED', object: change.object.object };
      const slash = change.key.indexOf('/');
      const metadata = slash < 0 ? { name: change.key } : { namespace: change.key.slice(0, slash), name: change.key.slice(slash + 1) };
      const apiVersion = resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
      return { type: 'DELETED', object: { apiVersion, kind: resource.kind, metadata } };
    }
  }
}
