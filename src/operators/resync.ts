import { asyncScheduler, interval, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import { isMarker, type DeltaEvent } from '../store/delta.js';
import { resyncEvents } from '../store/deltaRules.js';
import { operate } from './operate.js';

/** @internal Whether `periodMs` turns resync on (`0` and `Infinity` do not); throws on a bad value. Shared with toStore. */
export function resyncEnabled(periodMs: number): boolean {
  if (typeof periodMs !== 'number' || Number.isNaN(periodMs) || periodMs < 0) {
    throw new TypeError(`[informer] resync: periodMs must be a number >= 0, got ${String(periodMs)}`);
  }
  return periodMs !== 0 && periodMs !== Infinity;
}

/**
 * Periodically re-delivers every cached object as a `Sync` delta, without an API call: the
 * DeltaFIFO's `Resync`, placed in front of {@link bufferByKey}, which drops the `Sync` of a key that
 * still has deltas queued (R17).
 *
 * <span class="informal">Level-triggered safety net: every `periodMs`, a `Resync` marker and a
 * `Sync(object)` for each key the deltas so far left in the cache.</span>
 *
 * ```text
 * source:  -a-b------------x-------      a = Replaced(a1), b = Replaced(b1), x = Deleted(b)
 * resync(5)
 * result:  -a-b-(Rst)-(Rst)x-(Rs)--      R = Resync marker, s = Sync(a1), t = Sync(b1)
 * ```
 *
 * - Objects are tracked from the deltas passing through: the last object of each key, and keys
 *   leave with their `Deleted`. Objects are re-sent as they are (no transform, R17/R18).
 * - The `Resync` marker comes at every tick, even with nothing cached: it marks the batch it joins
 *   `resync: true`, which is when handlers re-check whether their own resync is due (R23).
 * - Placed before {@link bufferByKey}: a key with deltas in the open batch keeps them and its
 *   `Sync` is dropped, as client-go skips keys with queued deltas; the other keys' syncs join that
 *   batch (with a batch window), or make one of their own.
 * - The store applies a `Sync` of an unchanged object without changing the snapshot and notifies
 *   `update(obj, obj)` with `sync: true`.
 * - A period of `0` or `Infinity` returns the source itself.
 *
 * ## Example
 * ```ts
 * import { bufferByKey, dedupDeltas, indexReducer, informer, resync, toDeltas } from 'rx-informer';
 * import { configMap, fakeListWatch } from 'rx-informer/testing';
 *
 * const api = fakeListWatch([configMap('a')]);
 * // informer() runs this stage itself, with `resyncMs`:
 * informer(api.events$, { resyncMs: 30_000 });
 * // standalone, right after toDeltas, in front of the queue:
 * api.events$.pipe(toDeltas(), resync(30_000), bufferByKey(), dedupDeltas(), indexReducer());
 * ```
 *
 * @param periodMs time between resyncs in milliseconds; `0` or `Infinity` disables.
 * @param scheduler time source, `asyncScheduler` by default.
 * @returns an operator on {@link DeltaEvent}s.
 */
export function resync<T>(periodMs: number, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<DeltaEvent<T>> {
  if (!resyncEnabled(periodMs)) return (source) => source;

  return operate<DeltaEvent<T>, DeltaEvent<T>>((subscriber) => {
    let known = new Map<string, T>();
    const timer = interval(periodMs, scheduler).subscribe(() => {
      for (const event of resyncEvents(known)) subscriber.next(event);
    });
    return {
      next(event) {
        if (isMarker(event)) {
          // markers change no key
        } else if (event.type === 'Deleted') known.delete(event.key);
        else known.set(event.key, event.object);
        subscriber.next(event);
      },
      finalize() {
        timer.unsubscribe();
        known = new Map();
      },
    };
  });
}
