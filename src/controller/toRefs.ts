import type { Frozen } from '../store/frozen.js';
import { mergeMap, type OperatorFunction } from 'rxjs';
import { isTombstone } from '../store/delta.js';
import type { Notification } from '../store/notification.js';
import { distinctRefs, refOfCacheKey, type ObjectRef } from '../store/objectRef.js';
import { argumentError, optionChecks } from '../options/optionChecks.js';
import { changePriority } from './changeRequests.js';
import type { ControllerRequest } from './controllerRequest.js';

/** Options of {@link toRefs}. */
export interface ToRefsConfig {
  /** Names this source in the `watched` reasons of the requests. Default `toRefs`. */
  readonly name?: string;
}

/**
 * Maps notifications of a related collection to requests for the objects to reconcile, through your
 * function (kube-rs's `watches` mapper, controller-runtime's `EnqueueRequestsFromMapFunc`). An
 * update maps both the old and the new object; a delete maps the last known object (a tombstone
 * without one maps nothing). One notification yields each ref once, however often the mapper
 * names it. Each request carries the change's priority (`lowPriority` for the initial list and
 * resyncs, 0 otherwise) and a `watched` reason naming `config.name` and the related object.
 *
 * ```text
 * changes:  -a------u-------d----|      a Secret used by Sets s1 and s2 (mapper reads an index)
 * toRefs((secret) => setsUsing(secret))
 * requests: -(xy)---(xy)----(xy)-|      x = { ref: s1, … }, y = { ref: s2, … } (old and new object map to both: each once)
 * ```
 *
 * A throwing mapper errors the stream, as a throwing `map` does.
 *
 * @param mapper object → refs of the objects to reconcile.
 * @param config the name of the source, for the reasons.
 * @returns an operator from notifications to {@link ControllerRequest}s.
 */
export function toRefs<C>(mapper: (object: Frozen<C>) => readonly ObjectRef[], config: ToRefsConfig = {}): OperatorFunction<Notification<C>, ControllerRequest> {
  if (typeof mapper !== 'function') throw argumentError('toRefs', 'mapper must be a function');
  const source = optionChecks('toRefs', config).nonEmptyString('name', config.name) ?? 'toRefs';
  return mergeMap((change) => {
    const refs = refsOfChange(change, mapper);
    if (refs.length === 0) return none;
    const priority = changePriority(change);
    const reasons = [{ type: 'watched', source, object: refOfCacheKey(change.key) }] as const;
    return refs.map((ref): ControllerRequest => ({ ref, priority, reasons }));
  });
}

const none: readonly ControllerRequest[] = [];

/** The refs one notification maps to through `mapper`, each once (an update: the old object's, then the new one's). */
function refsOfChange<C>(change: Notification<C>, mapper: (object: Frozen<C>) => readonly ObjectRef[]): readonly ObjectRef[] {
  if (change.type === 'update') return distinctRefs([...mapper(change.oldObject), ...mapper(change.object)]);
  if (change.type === 'delete' && isTombstone(change.object)) return change.object.object === undefined ? [] : distinctRefs(mapper(change.object.object));
  return distinctRefs(mapper(change.object as Frozen<C>)); // a delete's object that is not a tombstone
}
