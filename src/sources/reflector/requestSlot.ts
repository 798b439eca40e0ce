/**
 * The reflector's one in-flight request: starting a LIST or WATCH aborts the previous one, and an
 * idle watchdog aborts a request on which nothing arrived for `idleTimeout` ms (R5). Before the
 * first response it also reports the wait (`waitingAfter`) and aborts a watch that never answered
 * (`noResponseTimeout`).
 */
import { Subscription, type Observable, type Observer, type SchedulerLike } from 'rxjs';
import { noResponseError, stalledError, TransformError } from '../../errors.js';

/** The bounds on a request's silence, ms. */
export interface SlotBounds {
  /** No byte for this long: aborted as `stalled` (R5). */
  readonly idleTimeout: number;
  /** No response yet for this long: `onWaiting` is told, once per request. */
  readonly waitingAfter: number;
  /** No response to a watch for this long: aborted as `noResponse`. */
  readonly noResponseTimeout: number;
  /** A request has had no response for `waitingMs`. */
  readonly onWaiting: (verb: 'list' | 'watch', waitingMs: number) => void;
}

/** One request at a time, under the idle watchdog. */
export interface RequestSlot {
  /**
   * Runs `source` as THE in-flight request (aborting any previous one). Its notifications reach
   * `observer` only while it is the current request. A stall ends it with a `TransportError`
   * (`stalled`) on `observer.error`; a {@link TransformError} thrown by `observer.next` aborts it
   * and goes to `observer.error` too. Any other throw goes to `fatal`.
   */
  start<X>(source: Observable<X>, observer: Observer<X>, verb: 'list' | 'watch'): void;
  /** Aborts the in-flight request and its watchdog, if any. */
  cancel(): void;
}

/**
 * Creates the slot of one reflector subscription: at most one request in flight, each under the
 * idle watchdog.
 *
 * @param scheduler Runs the watchdog and gives the clock.
 * @param bounds Longest quiet time of a request, and of one that has had no response yet, ms.
 * @param fatal Receives anything the observer throws that is not a {@link TransformError} (a
 * throwing `onStatus`, say); it errors the Observable.
 */
export function createRequestSlot(scheduler: SchedulerLike, bounds: SlotBounds, fatal: (error: unknown) => void): RequestSlot {
  const { idleTimeout, waitingAfter, noResponseTimeout } = bounds;
  let request: Subscription | undefined;
  let watchdog: Subscription | undefined;
  let lastActivity = 0;

  const cancel = (): void => {
    request?.unsubscribe();
    watchdog?.unsubscribe();
    request = watchdog = undefined;
  };
  const guard = (fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      fatal(error);
    }
  };

  const start = <X>(source: Observable<X>, observer: Observer<X>, verb: 'list' | 'watch'): void => {
    cancel();
    const holder = new Subscription();
    request = holder;
    // Ends this request's bookkeeping before its observer hears of the end.
    const end = (): boolean => {
      if (request !== holder) return false;
      request = undefined;
      watchdog?.unsubscribe();
      watchdog = undefined;
      return true;
    };
    const started = (lastActivity = scheduler.now());
    let responded = false;
    let waitingTold = false;
    const cut = (error: Error): void => {
      end();
      holder.unsubscribe();
      guard(() => observer.error(error));
    };
    // One timer: the next of the idle bound and, until the first response, the waiting and no-response bounds.
    const check = (): void => {
      if (request !== holder) return;
      const now = scheduler.now();
      const idle = now - lastActivity;
      if (idle >= idleTimeout) return cut(stalledError(verb, idle));
      let next = idleTimeout - idle;
      if (!responded) {
        const waiting = now - started;
        if (verb === 'watch' && waiting >= noResponseTimeout) return cut(noResponseError(verb, waiting));
        if (!waitingTold && waiting >= waitingAfter) {
          waitingTold = true;
          guard(() => bounds.onWaiting(verb, waiting));
          if (request !== holder) return;
        }
        if (!waitingTold) next = Math.min(next, waitingAfter - waiting);
        if (verb === 'watch') next = Math.min(next, noResponseTimeout - waiting);
      }
      watchdog = scheduler.schedule(check, next);
    };
    watchdog = scheduler.schedule(check, Math.min(idleTimeout, waitingAfter, verb === 'watch' ? noResponseTimeout : idleTimeout));
    holder.add(
      source.subscribe({
        next: (value) => {
          if (request !== holder) return;
          lastActivity = scheduler.now();
          responded = true;
          try {
            observer.next(value); // no closure per event: this is the hot path
          } catch (error) {
            if (!(error instanceof TransformError)) return fatal(error);
            end();
            holder.unsubscribe();
            guard(() => observer.error(error));
          }
        },
        error: (error: unknown) => {
          if (end()) guard(() => observer.error(error));
        },
        complete: () => {
          if (end()) guard(() => observer.complete());
        },
      }),
    );
  };

  return { start, cancel };
}
