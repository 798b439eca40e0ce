import { mergeMap, type OperatorFunction } from 'rxjs';
import { isTombstone } from '../store/delta.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import { distinctRefs, refOfCacheKey, type ObjectRef } from '../store/objectRef.js';
import { ownerRefsOf, type OwnerMatch } from '../store/ownerReferences.js';
import { changePriority } from './changeRequests.js';
import type { ControllerRequest } from './controllerRequest.js';
import { argumentError } from '../options/optionChecks.js';

/** The owner kind {@link toOwnerRefs} maps to: its `apiVersion` (only the group is compared) and `kind`. */
export interface OwnerType {
  /** The owner's `group/version`, e.g. `apps/v1`; only the group is compared with an owner reference's. */
  readonly apiVersion: string;
  /** The owner's kind, compared with an owner reference's `kind`, e.g. `ReplicaSet`. */
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
 * Maps notifications of owned objects to requests for their owners: the `ownerReferences` of the owner
 * kind (group and kind compared, the version ignored; only the controller reference by default),
 * as controller-runtime's `EnqueueRequestForOwner`. An update maps the owners of the old and of the
 * new object, so an owner that lost a child hears of it, each owner once (an update that keeps its
 * owner maps it once); a delete maps the last known object. Each request carries the change's
 * priority (`lowPriority` for the initial list and resyncs, 0 otherwise) and an `owned` reason
 * naming the child.
 *
 * ```text
 * changes:  -a----------u------------d-------|     a/u/d = add/update/delete of ConfigMap c
 * toOwnerRefs({ apiVersion: 'demo/v1', kind: 'Set' })   c owned by Set s1, then (update) by s2
 * requests: -x----------(xy)---------y-------|     x = { ref: { ns, name: s1 }, priority: 0, reasons: [owned c] }
 *                                                  y = { ref: { ns, name: s2 }, … }
 * ```
 *
 * @param owner the owner kind.
 * @param config which references count.
 * @returns an operator from notifications to {@link ControllerRequest}s for the owners.
 */
export function toOwnerRefs(owner: OwnerType, config: ToOwnerRefsConfig = {}): OperatorFunction<Notification<KubeObject>, ControllerRequest> {
  const { match = 'controller' } = config;
  if (typeof owner?.apiVersion !== 'string' || typeof owner.kind !== 'string' || owner.kind === '') throw argumentError('toOwnerRefs', 'the owner type needs apiVersion and kind');
  if (match !== 'controller' && match !== 'any') throw argumentError('toOwnerRefs', `match must be 'controller' or 'any', got ${String(match)}`);
  return mergeMap((change) => {
    const refs = ownerRefsOfChange(change, owner, match);
    if (refs.length === 0) return none;
    const priority = changePriority(change);
    const reasons = [{ type: 'owned', child: refOfCacheKey(change.key) }] as const;
    return refs.map((ref): ControllerRequest => ({ ref, priority, reasons }));
  });
}

const none: readonly ControllerRequest[] = [];

/** The owner refs one notification maps to, each once (an update: the old object's owners, then the new one's). */
function ownerRefsOfChange(change: Notification<KubeObject>, owner: OwnerType, match: OwnerMatch): readonly ObjectRef[] {
  const object = change.type === 'delete' && isTombstone(change.object) ? change.object.object : (change.object as KubeObject);
  const refs = ownerRefsOf(object, owner, match);
  return change.type === 'update' ? distinctRefs([...ownerRefsOf(change.oldObject, owner, match), ...refs]) : refs;
}
