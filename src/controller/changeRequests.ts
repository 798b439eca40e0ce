import { isTombstone } from '../store/delta.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import { refOfCacheKey } from '../store/objectRef.js';
import type { ControllerRequest } from './controllerRequest.js';
import { lowPriority, type ReconcileReason } from './reconcileReason.js';
import { argumentError } from '../options/optionChecks.js';

/**
 * The priority a notification gives the runs it asks for: {@link lowPriority} for what nobody
 * changed (an object of the initial list, a resync or relist that kept the resourceVersion), 0 for
 * a real change (controller-runtime's `EnqueueRequestForObject` and owner handlers do the same).
 */
export function changePriority(change: Notification<unknown>): number {
  return (change.type === 'add' && change.isInInitialList) || (change.type === 'update' && change.sync) ? lowPriority : 0;
}

/** The priority an object of the initial list waits at, given its key and object (the controller's `initialPriority`, checked). */
export type InitialPriority = (key: string, object: KubeObject) => number;

/**
 * The request a primary's own notification makes: its key, its priority (`initial`'s for an object
 * of the initial list, when given), and why (with the resourceVersion the cache got).
 */
export function primaryRequest(change: Notification<KubeObject>, initial?: InitialPriority): ControllerRequest {
  const resourceVersion = objectOf(change)?.metadata?.resourceVersion;
  const rv = typeof resourceVersion === 'string' ? { resourceVersion } : {};
  const reason: ReconcileReason =
    change.type === 'add' && change.isInInitialList
      ? { type: 'initial', ...rv }
      : { type: 'changed', change: change.type === 'update' && change.sync ? 'resync' : change.type, ...rv };
  const priority = initial !== undefined && change.type === 'add' && change.isInInitialList ? initial(change.key, change.object) : changePriority(change);
  return { ref: refOfCacheKey(change.key), priority, reasons: [reason] };
}

/**
 * The controller's `initialPriority` option as an {@link InitialPriority}: what it gives, or
 * {@link lowPriority} for `undefined`; anything but an integer is a `TypeError` naming the object.
 */
export function initialPriorityOf(option: ((object: KubeObject) => number | undefined) | undefined): InitialPriority {
  if (option === undefined) return () => lowPriority;
  return (key, object) => {
    const priority = option(object);
    if (priority === undefined) return lowPriority;
    if (!Number.isInteger(priority)) throw argumentError('controller', `initialPriority must return an integer or undefined, got ${String(priority)} for ${key}`);
    return priority;
  };
}

/** The object of a notification (a tombstone's last known object, if any). */
export function objectOf<T>(change: Notification<T>): T | undefined {
  if (change.type === 'delete' && isTombstone(change.object)) return change.object.object as T | undefined;
  return change.object as T;
}
