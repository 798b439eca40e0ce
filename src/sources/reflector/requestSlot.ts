/**
 * The reflector's one in-flight request: starting a LIST or WATCH aborts the previous one, and an
 * idle watchdog aborts a request on which nothing arrived for `idleTimeout` ms (R5).
 */
import { Subscription, type Observable, type Observer, type SchedulerLike } from 'rxjs';
import { stalledError, TransformError } from '../../errors.js';

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
 * @param idleTimeout Longest quiet time of a request, ms.
 * @param fatal Receives anything the observer throws that is not a {@link TransformError} (a
 * throwing `onStatus`, say); it errors the Observable.
 */
export function createRequestSlot(scheduler: SchedulerLike, idleTimeout: number, fatal: (error: unknown) => void): RequestSlot {
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
    lastActivity = scheduler.now();
    const check = (): void => {
      if (request !== holder) return;
      const idle = scheduler.now() - lastActivity;
      if (idle < idleTimeout) {
        watchdog = scheduler.schedule(check, idleTimeout - idle);
        return;
      }
      end();
      holder.unsubscribe();
      guard(() => observer.error(stalledError(verb, idle)));
    };
    watchdog = scheduler.schedule(check, idleTimeout);
    holder.add(
      source.subscribe({
        next: (value) => {
          if (request !== holder) return;
          lastActivity = scheduler.now();
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
