import { asyncScheduler, combineLatest, EmptyError, first, NEVER, Observable, tap, type MonoTypeOperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { ControllerError } from '../errors.js';
import { refCacheKey, type ObjectRef } from './objectRef.js';

/** Options of {@link holdUntilSynced}. */
export interface HoldUntilSyncedConfig {
  /** Error with {@link ControllerError} `syncTimeout` when not synced by then. Default 120 000 (controller-runtime's `CacheSyncTimeout`); `0` or `Infinity`: wait for ever. */
  readonly timeoutMs?: number;
  /** Times the timeout. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Holds refs back until every informer has synced, then lets them through (each held key once, in
 * the order it first came) and passes the rest as they come: a controller never reconciles from a
 * half-filled cache (controller-runtime starts workers after `WaitForCacheSync`, kube-rs delays its
 * runner until the store is ready). Requests that arrive meanwhile are deduplicated, not lost.
 *
 * ```text
 * refs:    -a-b-a------c--|
 * synced:  f-------t           (every informer)
 * output:  --------(ab)c--|
 * ```
 *
 * Completing before the sync drops what was held. An informer's error errors the output.
 *
 * @param informers what must be synced: anything with `synced$` (replaying its current value).
 * @param config the timeout and its scheduler.
 * @returns an operator on refs.
 */
export function holdUntilSynced(informers: readonly { readonly synced$: Observable<boolean> }[], config: HoldUntilSyncedConfig = {}): MonoTypeOperatorFunction<ObjectRef> {
  const { timeoutMs = 120_000, scheduler = asyncScheduler } = config;
  if (!Array.isArray(informers) || informers.some((i) => !(i?.synced$ instanceof Observable))) throw new TypeError('[informer] holdUntilSynced: expected an array of informers');
  if (!(timeoutMs >= 0)) throw new TypeError(`[informer] holdUntilSynced: timeoutMs must be >= 0, got ${String(timeoutMs)}`);
  return (source) =>
    new Observable<ObjectRef>((subscriber) => {
      const held = new Map<string, ObjectRef>();
      let ready = informers.length === 0;
      const synced: boolean[] = informers.map(() => false);
      let timeout: Subscription | undefined;
      // The input first: of one update, its notifications then reach us before its synced flag does,
      // so the objects of the last list to arrive are held with the rest, not run twice.
      const input = source.subscribe({
        next: (ref) => {
          if (ready) subscriber.next(ref);
          else {
            const key = refCacheKey(ref);
            if (!held.has(key)) held.set(key, ref);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      const readiness = (informers.length === 0 ? NEVER : combineLatest(informers.map((informer, i) => informer.synced$.pipe(first(Boolean), tap(() => (synced[i] = true))))))
        .pipe(first())
        .subscribe({
          next: () => {
            ready = true;
            timeout?.unsubscribe();
            for (const ref of held.values()) subscriber.next(ref);
            held.clear();
          },
          error: (error: unknown) =>
            subscriber.error(error instanceof EmptyError ? new ControllerError('syncTimeout', `[informer] controller: informer #${synced.indexOf(false) + 1} of ${informers.length} ended before it synced`) : error),
        });
      if (!ready && timeoutMs > 0 && Number.isFinite(timeoutMs)) {
        timeout = scheduler.schedule(() => {
          if (ready) return;
          const waiting = synced.flatMap((done, i) => (done ? [] : [`#${i + 1}`]));
          subscriber.error(new ControllerError('syncTimeout', `[informer] controller: informer(s) ${waiting.join(', ')} of ${informers.length} not synced after ${timeoutMs} ms`));
        }, timeoutMs);
      }
      return () => {
        input.unsubscribe();
        readiness.unsubscribe();
        timeout?.unsubscribe();
        held.clear();
      };
    });
}
