import { mergeMap, type OperatorFunction } from 'rxjs';
import { isTombstone } from '../store/delta.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import type { ObjectRef } from '../store/objectRef.js';
import { ownerRefsOf, type OwnerMatch } from '../store/ownerReferences.js';
import { argumentError } from '../options/optionChecks.js';

/** The owner kind {@link toOwnerRefs} maps to: its `apiVersion` (only the group is compared) and `kind`. */
export interface OwnerType {
  readonly apiVersion: string;
  readonly kind: string;
  /** The owner has no namespace: refs carry none (otherwise they take the child's). */
  readonly clusterScoped?: boolean;
}

/** Options of {@link toOwnerRefs}. */
export interface ToOwnerRefsConfig {
  /** `controller` (default): only the `controller: true` reference; `any`: every reference of the owner kind. */
  readonly match?: OwnerMatch;
}

/**
 * Maps notifications of owned objects to refs of their owners: the `ownerReferences` of the owner
 * kind (group and kind compared, the version ignored; only the controller reference by default),
 * as controller-runtime's `EnqueueRequestForOwner`. An update maps the owners of the old and of the
 * new object, so an owner that lost a child hears of it; a delete maps the last known object.
 *
 * ```text
 * changes:  -a----------u------------d-------|     a/u/d = add/update/delete of ConfigMap c
 * toOwnerRefs({ apiVersion: 'demo/v1', kind: 'Set' })   c owned by Set s1, then (update) by s2
 * refs:     -x----------(xy)---------y-------|     x = { ns, name: s1 }  y = { ns, name: s2 }
 * ```
 *
 * @param owner the owner kind.
 * @param config which references count.
 * @returns an operator from notifications to owner refs.
 */
export function toOwnerRefs(owner: OwnerType, config: ToOwnerRefsConfig = {}): OperatorFunction<Notification<KubeObject>, ObjectRef> {
  const { match = 'controller' } = config;
  if (typeof owner?.apiVersion !== 'string' || typeof owner.kind !== 'string' || owner.kind === '') throw argumentError('toOwnerRefs', 'the owner type needs apiVersion and kind');
  if (match !== 'controller' && match !== 'any') throw argumentError('toOwnerRefs', `match must be 'controller' or 'any', got ${String(match)}`);
  return mergeMap((change) => ownerRefsOfChange(change, owner, match));
}

/** @internal The owner refs one notification maps to (an update: the old object's owners, then the new one's). */
export function ownerRefsOfChange(change: Notification<KubeObject>, owner: OwnerType, match: OwnerMatch): readonly ObjectRef[] {
  const object = change.type === 'delete' && isTombstone(change.object) ? change.object.object : (change.object as KubeObject);
  const refs = ownerRefsOf(object, owner, match);
  return change.type === 'update' ? [...ownerRefsOf(change.oldObject, owner, match), ...refs] : refs;
}
