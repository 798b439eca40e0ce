import { mergeMap, type OperatorFunction } from 'rxjs';
import type { KubeObject } from '../store/kubeObject.js';
import type { Snapshot } from '../store/snapshot.js';
import { refOfCacheKey, type ObjectRef } from '../store/objectRef.js';
import { argumentError } from '../options/optionChecks.js';

/**
 * Turns every emission of a trigger into a ref for each object the informer holds at that moment
 * (kube-rs's `reconcile_all_on`): a periodic full pass, or a reaction to something outside the
 * cluster (a config file reloaded).
 *
 * ```text
 * trigger:  ---t--------t----|        the snapshot holds a, b (then a, b, c)
 * reconcileAllOf(sets)
 * refs:     ---(ab)-----(abc)|
 * ```
 *
 * @param informer anything with a current `snapshot` (an informer), keyed `namespace/name`.
 * @returns an operator from trigger values to refs.
 */
export function reconcileAllOf(informer: { readonly snapshot: Snapshot<KubeObject> }): OperatorFunction<unknown, ObjectRef> {
  if (informer === null || typeof informer !== 'object' || !('snapshot' in informer)) throw argumentError('reconcileAllOf', 'expected an informer');
  return mergeMap(() => [...informer.snapshot.keys()].map(refOfCacheKey));
}
