import { asyncScheduler, Subscription, type Observable, type Observer, type Subscriber } from 'rxjs';
import type { ListerWatcher } from '../listerWatcher.js';
import type { ListWatchStatus, RelistReason } from './listWatchStatus.js';
import type { RawEvent } from '../rawEvent.js';
import type { ReflectorConfig } from './reflectorConfig.js';
import { stalledError, TransformError } from '../../errors.js';
import { createBackoff } from './backoff.js';
import { isPermanent, retryAfterMs } from './classifyError.js';

/**
 * The per-subscription state of a reflector and the moves its phases share: one in-flight request
 * at a time (with the idle watchdog), one backoff timer, status reporting, and the cycle entry
 * points the list and watch phases call on each other.
 */
export interface ReflectorRuntime<T> {
  readonly listerWatcher: ListerWatcher<T>;
  readonly config: ReflectorConfig<T>;
  readonly subscriber: Subscriber<RawEvent<T>>;
  readonly pageSize: number;
  now(): number;
  /** client-go `lastSyncResourceVersion`. */
  lastSyncRV: string;
  /** client-go `isLastSyncResourceVersionUnavailable`. */
  rvUnavailable: boolean;
  /** client-go `paginatedResult` (sticky). */
  paginatedResult: boolean;

  emit(event: RawEvent<T>): void;
  status(status: ListWatchStatus): void;
  transform(object: T): T;
  timeoutSeconds(): number;
  /** Runs `source` as THE in-flight request (aborting any previous one) under the idle watchdog. */
  start<X>(source: Observable<X>, observer: Observer<X>, verb: string): void;
  /** Reports `cause`, waits a backoff delay (slow for 403/404, Retry-After when given), then runs `then`. */
  backoffThen(cause: Error, next: 'relist' | 'rewatch', then: () => void): void;
  /** Reports an ERROR status; returns the error as an `Error`. */
  reportError(error: unknown): Error;
  /** R8: the cycle ended with an error: report, backoff (or fail on a fatal 403/404), relist. */
  cycleFailed(error: unknown, reason: RelistReason): void;
  /** Reports RELISTING and starts a new cycle now. */
  relist(reason: RelistReason, cause?: Error): void;
  /** Reports the error and RELISTING, then runs `then` now (no backoff). */
  relistNow(reason: RelistReason, error: unknown, then: () => void): void;
  /** A new ListAndWatch cycle: streaming list or LIST. */
  cycle(): void;
  /** Phase entry points, wired by {@link reflector}. */
  list: () => void;
  watch: (streaming: boolean) => void;
  /** Aborts the request and clears every timer. */
  dispose(): void;
}

/** The shared state and helpers of one reflector subscription: emit, status, backoff, one request at a time with its watchdog. */
export function createReflectorRuntime<T>(
  listerWatcher: ListerWatcher<T>,
  config: ReflectorConfig<T>,
  subscriber: Subscriber<RawEvent<T>>,
): ReflectorRuntime<T> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const now = (): number => scheduler.now();
  const backoff = createBackoff(config.backoff, now);
  const idleTimeout = config.idleTimeout ?? 150_000;
  const { transform, onStatus } = config;
  let request: Subscription | undefined;
  let timer: Subscription | undefined;
  let watchdog: Subscription | undefined;
  let lastActivity = 0;

  // A transform that throws ends this cycle like a list or watch failure; anything else is a bug
  // of ours or of an onStatus callback and errors the Observable.
  const fail = (error: unknown, verb: string): void => {
    if (error instanceof TransformError) rt.cycleFailed(error, verb === 'list' ? 'listError' : 'watchError');
    else subscriber.error(error);
  };
  const guard = (fn: () => void, verb = 'list'): void => {
    try {
      fn();
    } catch (error) {
      fail(error, verb);
    }
  };

  const rt: ReflectorRuntime<T> = {
    listerWatcher,
    config,
    subscriber,
    pageSize: config.pageSize ?? 500,
    now,
    lastSyncRV: '',
    rvUnavailable: false,
    paginatedResult: false,
    emit: (event) => subscriber.next(event),
    status: (value) => onStatus?.(value),
    transform: transform
      ? (object) => {
          try {
            return transform(object);
          } catch (cause) {
            throw new TransformError({ cause });
          }
        }
      : (object) => object,
    timeoutSeconds: () => config.timeoutSeconds ?? Math.floor(300 + Math.random() * 300),

    start(source, observer, verb) {
      request?.unsubscribe();
      watchdog?.unsubscribe();
      request = watchdog = undefined;
      if (subscriber.closed) return;
      const holder = new Subscription();
      request = holder;
      const live = (): boolean => request === holder && !subscriber.closed;
      const end = (): void => {
        request = undefined;
        watchdog?.unsubscribe();
        watchdog = undefined;
      };
      lastActivity = now();
      const check = (): void => {
        if (request !== holder) return;
        const idle = now() - lastActivity;
        if (idle < idleTimeout) {
          watchdog = scheduler.schedule(check, idleTimeout - idle);
          return;
        }
        end();
        holder.unsubscribe();
        guard(() => observer.error(stalledError(verb, idle)), verb);
      };
      watchdog = scheduler.schedule(check, idleTimeout);
      holder.add(
        source.subscribe({
          next: (value) => {
            if (!live()) return;
            lastActivity = now();
            try {
              observer.next(value); // no closure per event: this is the hot path
            } catch (error) {
              if (error instanceof TransformError) {
                end();
                holder.unsubscribe();
              }
              fail(error, verb);
            }
          },
          error: (error: unknown) => {
            if (!live()) return;
            end();
            guard(() => observer.error(error), verb);
          },
          complete: () => {
            if (!live()) return;
            end();
            guard(() => observer.complete(), verb);
          },
        }),
      );
    },

    backoffThen(cause, next, then) {
      if (subscriber.closed) return;
      const step = isPermanent(cause) ? backoff.slow() : backoff.next(retryAfterMs(cause));
      rt.status({ type: 'BACKING_OFF', attempt: step.attempt, delay: step.delay, cause, next });
      timer?.unsubscribe();
      timer = scheduler.schedule(() => {
        timer = undefined;
        guard(then);
      }, step.delay);
    },

    reportError(error) {
      const err = error instanceof Error ? error : new Error(String(error));
      rt.status({ type: 'ERROR', error: err, permanent: isPermanent(err) });
      return err;
    },

    cycleFailed(error, reason) {
      const err = rt.reportError(error);
      if (isPermanent(err) && config.fatalErrors === 'permanent') {
        subscriber.error(err);
        return;
      }
      rt.backoffThen(err, 'relist', () => rt.relist(reason, err));
    },

    relist(reason, cause) {
      rt.status(cause ? { type: 'RELISTING', reason, cause } : { type: 'RELISTING', reason });
      rt.cycle();
    },

    relistNow(reason, error, then) {
      const cause = rt.reportError(error);
      rt.status({ type: 'RELISTING', reason, cause });
      then();
    },

    cycle() {
      if (config.streamingList) rt.watch(true);
      else rt.list();
    },

    list: () => undefined,
    watch: () => undefined,

    dispose() {
      request?.unsubscribe();
      timer?.unsubscribe();
      watchdog?.unsubscribe();
      request = timer = watchdog = undefined;
    },
  };
  return rt;
}
