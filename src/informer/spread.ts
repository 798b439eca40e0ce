import type { OperatorFunction } from 'rxjs';
import { operate } from '../operators/operate.js';

/**
 * `mergeMap(items)` for a function returning an array: each value's items, in order, synchronously,
 * without an inner subscription per value (one batch per event on a quiet watch).
 *
 * ```text
 * source:        --a------b--|     items(a) = [1, 2], items(b) = [3]
 * spread(items): --(12)---3--|
 * ```
 */
export function spread<A, B>(items: (value: A) => readonly B[]): OperatorFunction<A, B> {
  return operate<A, B>((subscriber) => ({
    next(value) {
      for (const item of items(value)) {
        if (subscriber.closed) return;
        subscriber.next(item);
      }
    },
  }));
}
