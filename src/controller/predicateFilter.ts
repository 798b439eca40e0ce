import { filter, type MonoTypeOperatorFunction } from 'rxjs';
import type { Notification } from '../store/notification.js';
import type { Predicate } from './predicates.js';
import { argumentError } from '../options/optionChecks.js';

/** Options of {@link predicateFilter}. */
export interface PredicateFilterConfig {
  /** Let resync updates (`sync: true`) through even though they change nothing. Default false. */
  readonly keepSyncs?: boolean;
}

/**
 * Drops updates that do not change what `predicate` looks at; adds and deletes always pass.
 *
 * <span class="informal">kube-rs's `predicate_filter`, without its cache: a notification already
 * carries the old object.</span>
 *
 * ```text
 * changes:  -a---u---s---d-|     a = add, u = update (generation 1 → 2), s = update (status only), d = delete
 * predicateFilter(predicates.generation)
 * result:   -a---u-------d-|
 * ```
 *
 * An update passes when the predicate's value differs between the old and the new object, or when
 * it cannot tell (`undefined`). Resync updates are dropped unless `keepSyncs` is set.
 *
 * ## Example
 * ```ts
 * import type { V1Pod } from '@kubernetes/client-node';
 * import { map } from 'rxjs';
 * import { predicateFilter, predicates, reconcile, type Informer, type Json, type ReconcileHandler } from 'rx-informer';
 * declare const pods: Informer<Json<V1Pod>>; // assuming: an informer of pods
 * declare const handler: ReconcileHandler; // assuming: your reconcile handler
 *
 * pods.changes$.pipe(
 *   predicateFilter(predicates.combine(predicates.generation, predicates.labels)),
 *   map((change) => change.key),
 *   reconcile(handler),
 * );
 * ```
 *
 * @param predicate what must change for an update to pass; see `predicates`.
 * @param config whether resync updates pass.
 * @returns an operator on {@link Notification}s.
 */
export function predicateFilter<T>(predicate: Predicate<T>, config: PredicateFilterConfig = {}): MonoTypeOperatorFunction<Notification<T>> {
  if (typeof predicate !== 'function') throw argumentError('predicateFilter', 'predicate must be a function');
  const { keepSyncs = false } = config;
  return filter((change) => {
    if (change.type !== 'update') return true;
    if (change.sync) return keepSyncs;
    const next = predicate(change.object);
    return next === undefined || next !== predicate(change.oldObject);
  });
}
