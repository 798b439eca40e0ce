import { asyncScheduler, interval, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import type { DeltaBatch } from '../store/delta.js';
import { resyncBatch } from '../store/deltaRules.js';
import { operate } from './operate.js';

/** @internal Whether `periodMs` turns resync on (`0` and `Infinity` do not); throws on a bad value. Shared with toStore. */
export function resyncEnabled(periodMs: number): boolean {
  if (typeof periodMs !== 'number' || Number.isNaN(periodMs) || periodMs < 0) {
    throw new TypeError(`[informer] resync: periodMs must be a number >= 0, got ${String(periodMs)}`);
  }
  return periodMs !== 0 && periodMs !== Infinity;
}

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
 * import { bufferByKey, dedupDeltas, informer, resync, toDeltas } from 'rx-informer';
 * import { configMap, fakeListWatch } from 'rx-informer/testing';
 *
 * const api = fakeListWatch([configMap('a')]);
 * // informer() runs this stage itself, with `resyncMs`:
 * informer(api.events$, { resyncMs: 30_000 });
 * // standalone, after the batching stages:
 * api.events$.pipe(toDeltas(), bufferByKey(), dedupDeltas(), resync(30_000));
 * ```
 *
 * @param periodMs time between resyncs in milliseconds; `0` or `Infinity` disables.
 * @param scheduler time source, `asyncScheduler` by default.
 * @returns an operator on {@link DeltaBatch}es.
 */
export function resync<T>(periodMs: number, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<DeltaBatch<T>> {
  if (!resyncEnabled(periodMs)) return (source) => source;

  return operate<DeltaBatch<T>, DeltaBatch<T>>((subscriber) => {
    let known = new Map<string, T>();
    const timer = interval(periodMs, scheduler).subscribe(() => {
      const batch = resyncBatch(known);
      if (batch !== undefined) subscriber.next(batch);
    });
    return {
      next(batch) {
        for (const [key, deltas] of batch.deltas) {
          const last = deltas[deltas.length - 1];
          if (last === undefined) continue;
          if (last.type === 'Deleted') known.delete(key);
          else known.set(key, last.object);
        }
        subscriber.next(batch);
      },
      finalize() {
        timer.unsubscribe();
        known = new Map();
      },
    };
  });
}
