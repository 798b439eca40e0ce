import { map, type OperatorFunction } from 'rxjs';
import type { Frozen } from '../store/frozen.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import { optionChecks } from '../options/optionChecks.js';
import { initialPriorityOf, primaryRequest } from './changeRequests.js';
import type { ControllerRequest } from './controllerRequest.js';

/** Options of {@link toSelfRefs}. */
export interface ToSelfRefsConfig<T extends KubeObject = KubeObject> {
  /**
   * The priority an object of the initial list waits at (an integer; `undefined`: `lowPriority`,
   * the default for all of them). Real changes wait at 0.
   */
  readonly initialPriority?: (object: Frozen<T>) => number | undefined;
}

/**
 * Maps each notification of the primary informer to a request for the object itself (kube-rs's
 * `trigger_self`, controller-runtime's `EnqueueRequestForObject`): priority 0 for a real change,
 * `lowPriority` for an object of the initial list (or what `initialPriority` gives) and for a
 * resync; the reason `initial`, or `changed` with the resourceVersion the cache got.
 *
 * ```text
 * changes:   -l---u---d---|     l = a of the initial list, u/d = update/delete of a
 * toSelfRefs()
 * requests:  -x---y---z---|     x = { ref: a, priority: -100, reasons: [initial] }
 *                               y = { ref: a, priority: 0, reasons: [changed update rv] } …
 * ```
 *
 * @param config the priority of the initial list.
 * @returns an operator from the primary's notifications to {@link ControllerRequest}s.
 */
export function toSelfRefs<T extends KubeObject>(config: ToSelfRefsConfig<T> = {}): OperatorFunction<Notification<T>, ControllerRequest> {
  const check = optionChecks('toSelfRefs', config);
  const initial = initialPriorityOf(check.func('initialPriority', config.initialPriority) as ((object: KubeObject) => number | undefined) | undefined);
  return map((change) => primaryRequest(change, initial));
}
