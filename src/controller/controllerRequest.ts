import type { ObjectRef } from '../store/objectRef.js';
import type { ReconcileReason } from './reconcileReason.js';

const triggered: readonly ReconcileReason[] = [{ type: 'trigger' }];

/**
 * The one request of the controller's way: an object to reconcile, how urgently, and why. Every
 * trigger operator emits these ({@link toSelfRefs}, {@link toOwnerRefs}, {@link toRefs},
 * {@link reconcileAllOf}), `holdUntilSynced` merges those of one object, and `reconcile()` /
 * `reconcileObjects()` consume them.
 *
 * - `priority`: higher runs first; real changes are 0, what nobody changed waits at `lowPriority`.
 *   Absent: 0.
 * - `reasons`: why (see {@link ReconcileReason}). Absent: `[{ type: 'trigger' }]`.
 *
 * Extension point: a field that names where the object lives beyond its ref (the cluster of a
 * controller over many clusters) is added here, as an optional field, and read where the request
 * becomes a queue key (`reconcile()`'s `requestOf`); the triggers, `holdUntilSynced` and the queue
 * carry the request whole.
 */
export interface ControllerRequest {
  /** The object to reconcile. */
  readonly ref: ObjectRef;
  /** How urgently: higher runs first; real changes are 0, idle work `lowPriority`. Default 0. */
  readonly priority?: number;
  /** Why it is asked for, oldest first. Default `[{ type: 'trigger' }]`. */
  readonly reasons?: readonly ReconcileReason[];
}

/** A ref handed in from anywhere (`controller({ triggers })`) as a request: priority 0, reason `trigger`. */
export function triggerRequest(ref: ObjectRef): ControllerRequest {
  return { ref, priority: 0, reasons: triggered };
}
