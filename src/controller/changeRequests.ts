import { isTombstone } from '../store/delta.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import { refOfCacheKey, type ObjectRef } from '../store/objectRef.js';
import type { ControllerRequest } from './reconcileObjects.js';
import { lowPriority, type ReconcileReason } from './reconcileReason.js';

/**
 * The priority a notification gives the runs it asks for: {@link lowPriority} for what nobody
 * changed (an object of the initial list, a resync or relist that kept the resourceVersion), 0 for
 * a real change (controller-runtime's `EnqueueRequestForObject` and owner handlers do the same).
 */
export function changePriority(change: Notification<unknown>): number {
  return (change.type === 'add' && change.isInInitialList) || (change.type === 'update' && change.sync) ? lowPriority : 0;
}

/** The request a primary's own notification makes: its key, its priority, and why (with the resourceVersion the cache got). */
export function primaryRequest(change: Notification<KubeObject>): ControllerRequest {
  const resourceVersion = objectOf(change)?.metadata?.resourceVersion;
  const rv = typeof resourceVersion === 'string' ? { resourceVersion } : {};
  const reason: ReconcileReason =
    change.type === 'add' && change.isInInitialList
      ? { type: 'initial', ...rv }
      : { type: 'changed', change: change.type === 'update' && change.sync ? 'resync' : change.type, ...rv };
  return { ref: refOfCacheKey(change.key), priority: changePriority(change), reasons: [reason] };
}

/** Requests for `refs`, which `change` (of an owned or watched informer) mapped to, with its priority and `reason`. */
export function relatedRequests(change: Notification<unknown>, refs: readonly ObjectRef[], reason: ReconcileReason): readonly ControllerRequest[] {
  const priority = changePriority(change);
  const reasons = [reason];
  return refs.map((ref) => ({ ref, priority, reasons }));
}

/** The object of a notification (a tombstone's last known object, if any). */
export function objectOf<T>(change: Notification<T>): T | undefined {
  if (change.type === 'delete' && isTombstone(change.object)) return change.object.object as T | undefined;
  return change.object as T;
}
