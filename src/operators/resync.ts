import { asyncScheduler, interval, Observable, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import type { Delta, DeltaBatch } from '../store/delta.js';

/**
 * Periodically re-delivers every cached object as a `Sync` delta, without an API call.
 *
 * <span class="informal">Level-triggered safety net: every `periodMs`, a batch with `Sync(object)`
 * for each key the batches so far left in the cache.</span>
 *
 * ```text
 * source:  -x-----------y--------------      x = {a:[Replaced a1], b:[Replaced b1]}, y = {b:[Deleted]}
 * resync(5)
 * result:  -x----s------y----s---------      s = {a:[Sync a1], b:[Sync b1]}, then {a:[Sync a1]}
 * ```
 *
 * - Objects are tracked from the batches passing through: the last stored object of each key, and
 *   keys leave with their `Deleted`. Objects are re-sent as they are (no transform, R17/R18).
 * - Placed after {@link bufferByKey}, nothing of a key is pending downstream of it, so every cached
 *   key is synced (client-go skips keys with queued deltas because a queued `Sync` would land after
 *   them; here the `Sync` batch is applied before anything still buffered upstream).
 * - The store applies a `Sync` of an unchanged object without changing the snapshot and notifies
 *   `update(obj, obj)` with `sync: true`.
 * - Resync batches carry `resync: true`, so consumers can tell a timer's syncs from a relist's.
 * - A period of `0` or `Infinity` returns the source itself.
 *
 * ## Example
 * ```ts
 * import { informer, resync } from 'rx-informer';
 * // informer(source$, { resyncMs: 30_000 }) uses this operator; standalone:
 * // batches$.pipe(resync(30_000))
 * ```
 *
 * @param periodMs time between resyncs in milliseconds; `0` or `Infinity` disables.
 * @param scheduler time source, `asyncScheduler` by default.
 * @returns an operator on {@link DeltaBatch}es.
 */
/** @internal Whether `periodMs` turns resync on (`0` and `Infinity` do not); throws on a bad value. Shared with toStore. */
export function resyncEnabled(periodMs: number): boolean {
  if (typeof periodMs !== 'number' || Number.isNaN(periodMs) || periodMs < 0) {
    throw new TypeError(`[informer] resync: periodMs must be a number >= 0, got ${String(periodMs)}`);
  }
  return periodMs !== 0 && periodMs !== Infinity;
}

export function resync<T>(periodMs: number, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<DeltaBatch<T>> {
  if (!resyncEnabled(periodMs)) return (source) => source;

  return (source) =>
    new Observable<DeltaBatch<T>>((subscriber) => {
      let known = new Map<string, T>();

      const track = (batch: DeltaBatch<T>): void => {
        for (const [key, deltas] of batch.deltas) {
          const last = deltas[deltas.length - 1];
          if (last === undefined) continue;
          if (last.type === 'Deleted') known.delete(key);
          else known.set(key, last.object);
        }
      };

      const tick = (): void => {
        if (known.size === 0) return;
        const deltas = new Map<string, readonly Delta<T>[]>();
        for (const [key, object] of known) deltas.set(key, [{ type: 'Sync', key, object }]);
        subscriber.next({ deltas, resync: true });
      };

      const timer = interval(periodMs, scheduler).subscribe(tick);
      const subscription = source.subscribe({
        next: (batch) => {
          track(batch);
          subscriber.next(batch);
        },
        error: (error) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        timer.unsubscribe();
        subscription.unsubscribe();
        known = new Map();
      };
    });
}
