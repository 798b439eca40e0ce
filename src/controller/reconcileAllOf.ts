import { mergeMap, type OperatorFunction } from 'rxjs';
import type { KubeObject } from '../store/kubeObject.js';
import type { Snapshot } from '../store/snapshot.js';
import { refOfCacheKey } from '../store/objectRef.js';
import type { ControllerRequest } from './controllerRequest.js';
import { lowPriority, type ReconcileReason } from './reconcileReason.js';
import { argumentError } from '../options/optionChecks.js';

const all: readonly ReconcileReason[] = [{ type: 'reconcileAll' }];

/**
 * Turns every emission of a trigger into a request for each object the informer holds at that moment
 * (kube-rs's `reconcile_all_on`): a periodic full pass, or a reaction to something outside the
 * cluster (a config file reloaded). The requests wait at `lowPriority`, behind real changes, with
 * the reason `reconcileAll`.
 *
 * ```text
 * trigger:  ---t--------t----|        the snapshot holds a, b (then a, b, c)
 * reconcileAllOf(sets)
 * requests: ---(ab)-----(abc)|      each { ref, priority: lowPriority, reasons: [reconcileAll] }
 * ```
 *
 * @param informer anything with a current `snapshot` (an informer), keyed `namespace/name`.
 * @returns an operator from trigger values to {@link ControllerRequest}s.
 */
export function reconcileAllOf(informer: {
  /** The cache whose keys, at the trigger's emission, become requests. */
  readonly snapshot: Snapshot<KubeObject>;
}): OperatorFunction<unknown, ControllerRequest> {
  if (informer === null || typeof informer !== 'object' || !('snapshot' in informer)) throw argumentError('reconcileAllOf', 'expected an informer');
  return mergeMap(() => [...informer.snapshot.keys()].map((key): ControllerRequest => ({ ref: refOfCacheKey(key), priority: lowPriority, reasons: all })));
}
