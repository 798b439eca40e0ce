import type { Frozen } from '../store/frozen.js';
import { mergeMap, type OperatorFunction } from 'rxjs';
import { isTombstone } from '../store/delta.js';
import type { Notification } from '../store/notification.js';
import type { ObjectRef } from '../store/objectRef.js';
import { argumentError } from '../options/optionChecks.js';

/**
 * Maps notifications of a related collection to refs of the objects to reconcile, through your
 * function (kube-rs's `watches` mapper, controller-runtime's `EnqueueRequestsFromMapFunc`). An
 * update maps both the old and the new object; a delete maps the last known object (a tombstone
 * without one maps nothing).
 *
 * ```text
 * changes:  -a------u-------d----|      a Secret used by Sets s1 and s2 (mapper reads an index)
 * toRefs((secret) => setsUsing(secret))
 * refs:     -(xy)---(xyxy)--(xy)-|      x = s1, y = s2 (the queue runs each once)
 * ```
 *
 * A throwing mapper errors the stream, as a throwing `map` does.
 *
 * @param mapper object → refs of the objects to reconcile.
 * @returns an operator from notifications to refs.
 */
export function toRefs<C>(mapper: (object: Frozen<C>) => readonly ObjectRef[]): OperatorFunction<Notification<C>, ObjectRef> {
  if (typeof mapper !== 'function') throw argumentError('toRefs', 'mapper must be a function');
  return mergeMap((change) => refsOfChange(change, mapper));
}

/** @internal The refs one notification maps to through `mapper` (an update: the old object's, then the new one's). */
export function refsOfChange<C>(change: Notification<C>, mapper: (object: Frozen<C>) => readonly ObjectRef[]): readonly ObjectRef[] {
  if (change.type === 'update') return [...mapper(change.oldObject), ...mapper(change.object)];
  if (change.type === 'delete' && isTombstone(change.object)) return change.object.object === undefined ? [] : mapper(change.object.object);
  return mapper(change.object as Frozen<C>); // a delete's object that is not a tombstone
}
