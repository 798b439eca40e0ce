import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';

/** A countdown that fires unless progress restarts it first, and that can be stopped while all is well. */
export interface Watchdog {
  /** Progress: the countdown starts again from now. */
  restart(): void;
  /** Trouble: the countdown starts from now unless it is already running (repeated failures do not push it back). */
  start(): void;
  /** All is well: no countdown until the next {@link Watchdog.start} or {@link Watchdog.restart}. */
  stop(): void;
}

/**
 * `--request-timeout` as a watchdog: `onExpire` runs once when `timeoutMs` pass with the countdown
 * running. A timeout of 0 never fires.
 *
 * ## Example
 * ```ts
 * const watchdog = createWatchdog(30_000, () => giveUp());
 * watchdog.start(); // connecting…
 * watchdog.stop(); // the watch is open
 * ```
 *
 * @param timeoutMs how long to wait, in ms; 0: forever.
 * @param onExpire called at most once.
 * @param scheduler where time comes from (default `asyncScheduler`).
 */
export function createWatchdog(timeoutMs: number, onExpire: () => void, scheduler: SchedulerLike = asyncScheduler): Watchdog {
  let pending: Subscription | undefined;
  let expired = false;
  const stop = (): void => {
    pending?.unsubscribe();
    pending = undefined;
  };
  const start = (): void => {
    if (pending || expired || timeoutMs <= 0) return;
    pending = scheduler.schedule(() => {
      expired = true;
      pending = undefined;
      onExpire();
    }, timeoutMs);
  };
  return {
    restart() {
      stop();
      start();
    },
    start,
    stop,
  };
}
