import type { Frozen } from '../store/frozen.js';
import { asyncScheduler, distinctUntilChanged, EMPTY, interval, isObservable, map, of, switchMap, type MonoTypeOperatorFunction, type Observable, type SchedulerLike } from 'rxjs';
import { isMarker, type DeltaEvent } from '../store/delta.js';
import { resyncEvents } from '../store/deltaRules.js';
import { operate } from './operate.js';
import { describe, optionChecks } from '../options/optionChecks.js';

/**
 * @internal Whether `periodMs` turns resync on (`0` and `Infinity` do not); throws a `TypeError`
 * naming the factory and the option on a bad value (the one wording of `optionChecks`). The one
 * check of a resync period: the operator, toStore, the informer's own period and a handler's
 * (`addHandler(…, { resyncMs })`) all go through it.
 */
export function resyncEnabled(periodMs: number, factory = 'resync', option = 'periodMs'): boolean {
  // Infinity is allowed (it means off), so not `nonNegative`, which asks for a finite number.
  if (typeof periodMs !== 'number' || Number.isNaN(periodMs) || periodMs < 0) optionChecks(factory).fail(`${option} must be a number >= 0, got ${describe(periodMs)}`);
  return periodMs !== 0 && periodMs !== Infinity;
}

/**
 * @internal The ticks of a resync timer whose period may change (R12): `interval(period)` from each
 * new period on, nothing while it is `0` or `Infinity`; a repeated period does not restart it. A
 * bad period errors with a `TypeError` naming it. Shared by {@link resync} and the fused toStore,
 * so both time their ticks by this one rule (what a tick queues is `resyncEvents`, in deltaRules).
 */
export function resyncTicks(periods: number | Observable<number>, scheduler: SchedulerLike): Observable<number> {
  const periods$ = isObservable(periods) ? periods : of(periods);
  return periods$.pipe(
    map((period) => (resyncEnabled(period) ? period : 0)),
    distinctUntilChanged(),
    switchMap((period) => (period === 0 ? EMPTY : interval(period, scheduler))),
  );
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
 * - The period may be an Observable of periods, to tune it at run time: the timer restarts at each
 *   new value (`0` stops it until the next). Mind the cost: every tick re-delivers every cached
 *   object, so a 1 s period over 10,000 objects is 10,000 sync notifications a second. A negative
 *   or NaN value errors the stream with a `TypeError`, as the Observable's own error does.
 *
 * ```text
 * periods: 3------5-------0---5-----      (ms)
 * resync(periods$), Resync markers only
 * result:  ---R--R-----R-----------R      restarts at 7 and 19; nothing between 15 and 19
 * ```
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
 * @param periodMs time between resyncs in milliseconds, or an Observable of such periods; `0` or `Infinity` disables.
 * @param scheduler time source, `asyncScheduler` by default.
 * @returns an operator on {@link DeltaEvent}s.
 */
export function resync<T>(periodMs: number | Observable<number>, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<DeltaEvent<T>> {
  if (!isObservable(periodMs) && !resyncEnabled(periodMs)) return (source) => source;

  return operate<DeltaEvent<T>, DeltaEvent<T>>((subscriber) => {
    let known = new Map<string, Frozen<T>>();
    const timer = resyncTicks(periodMs, scheduler).subscribe({
      next: () => {
        for (const event of resyncEvents(known)) subscriber.next(event);
      },
      error: (error: unknown) => subscriber.error(error),
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
