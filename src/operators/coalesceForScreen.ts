import { animationFrameScheduler, asyncScheduler, throttleTime, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import { optionChecks } from '../options/optionChecks.js';

/** Options of {@link coalesceForScreen}. */
export interface CoalesceForScreenOptions {
  /**
   * At most one value per this many ms. Default: one per animation frame where the environment
   * has `requestAnimationFrame` (a page: the screen's own rate, and nothing while the tab is
   * hidden), else one per 16 ms.
   */
  readonly intervalMs?: number;
  /** Runs the interval's timer (default `asyncScheduler`; a `TestScheduler` in marble tests). */
  readonly scheduler?: SchedulerLike;
}

/**
 * Thins a stream of snapshots (or any states) to what a screen can show: the first value at once,
 * then at most one per animation frame (or per `intervalMs`), **always the latest** — a value is
 * never held back for good: the last one before a quiet spell, and before completion, comes out.
 * A tab that follows a big cluster renders once per frame however many events arrive, and what it
 * shows lags the stream by at most one frame.
 *
 * ```text
 * source:            -a-b-c------d-|
 * coalesceForScreen({ intervalMs: 3 })
 * result:            -a--c-------d-|     b is replaced by c; a, c, d each within 3 frames of arriving
 * ```
 *
 * ```ts
 * import { informer, fetchListWatch } from 'rx-informer';
 * import { coalesceForScreen } from 'rx-informer/web';
 *
 * const pods = informer(fetchListWatch({ baseUrl: '/' }, { version: 'v1', plural: 'pods' }));
 * pods.snapshots$.pipe(coalesceForScreen()).subscribe((snapshot) => {
 *   console.log(`${snapshot.size} pods`); // render: once per frame at most
 * });
 * pods.connect();
 * ```
 *
 * @param options `intervalMs` (default: per animation frame) and the `scheduler` of the interval.
 * @throws {TypeError} when `intervalMs` is not a number > 0.
 */
export function coalesceForScreen<T>(options: CoalesceForScreenOptions = {}): MonoTypeOperatorFunction<T> {
  const intervalMs = optionChecks('coalesceForScreen', options).positive('intervalMs', options.intervalMs);
  const frames = intervalMs === undefined && typeof (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame === 'function';
  // throttleTime with a trailing edge: the first value now, then the latest at the end of each window.
  return throttleTime(frames ? 0 : (intervalMs ?? 16), frames ? animationFrameScheduler : (options.scheduler ?? asyncScheduler), { leading: true, trailing: true });
}
