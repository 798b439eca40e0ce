import { mergeMap, toArray, type OperatorFunction } from 'rxjs';
import type { ListResponse } from './listerWatcher.js';

/**
 * @internal Joins the parts of one LIST page ({@link ListerWatcher.list} may emit a large page in
 * parts) into one {@link ListResponse}: the items of every part in order, the last part's
 * `resourceVersion`, `continue`, `remainingItemCount` and `shardInfo`. A page emitted whole passes
 * through as it is.
 *
 * ```text
 * list:   --p1--p2--p3|        p1: items a, b   p2: c, d   p3: e (rv 7)
 * result: ------------r|       r: items a, b, c, d, e (rv 7)
 * ```
 */
export function wholeListResponse<T>(): OperatorFunction<ListResponse<T>, ListResponse<T>> {
  return (parts) =>
    parts.pipe(
      toArray(),
      mergeMap((all) => (all.length <= 1 ? all : [{ ...all[all.length - 1]!, items: all.flatMap((part) => part.items) }])),
    );
}
