import { asyncScheduler, from, type ObservableInput, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { ControllerError } from '../errors.js';
import type { ReconcileMetrics, ReconcileResultLabel } from '../metrics/reconcileMetrics.js';
import { operate } from '../operators/operate.js';
import { keyQueue } from './keyQueue.js';
import { itemExponentialLimiter, maxOfLimiters, tokenBucketLimiter } from './rateLimiter.js';

/**
 * What a reconcile handler returns or resolves to: `{ requeueAfterMs }` to have the key run again
 * after that long, or anything else for "done": nothing, `null`, or the object its last call
 * resolved to, so that a handler may end with `return api.replaceNamespacedConfigMap(…)`.
 *
 * So that no result is misread, the compiler refuses an object whose `requeueAfterMs` is not a
 * number, or that carries controller-runtime's `requeue` / `requeueAfter` (which this operator would
 * ignore: write `{ requeueAfterMs: 5_000 }`). A Promise, Observable or async iterable is awaited,
 * never taken as the result itself. At run time a `requeueAfterMs` that is not a number fails the
 * run with a `TypeError` saying so.
 */
export type ReconcileResult =
  | void
  | null
  | (object & {
      /** Run the key again after this many milliseconds (the run still counts as a success). */
      readonly requeueAfterMs?: number;
      /** Not read here: controller-runtime's name. Write `requeueAfterMs` (milliseconds). */
      readonly requeueAfter?: never;
      /** Not read here: controller-runtime's flag. Write `{ requeueAfterMs }`. */
      readonly requeue?: never;
      /** Thenables are awaited: they are not a result. */
      readonly then?: never;
      /** Observables are subscribed: they are not a result. */
      readonly subscribe?: never;
      /** Async iterables are iterated: they are not a result. */
      readonly [Symbol.asyncIterator]?: never;
    });

/** What a reconcile handler is given besides the key. */
export interface ReconcileContext {
  /** Failures of this key since its last success. */
  readonly retries: number;
  /** Aborted when the operator is unsubscribed; pass it to your API calls. */
  readonly signal: AbortSignal;
}

/**
 * Reconciles one key. Return a value, a Promise, or an Observable (its last value counts); throw,
 * reject or error to have the key retried with backoff.
 */
export type ReconcileHandler = (key: string, context: ReconcileContext) => ObservableInput<ReconcileResult> | ReconcileResult;

/** Options of {@link reconcile}; defaults are client-go's `DefaultControllerRateLimiter`. */
export interface ReconcileConfig {
  /** Handlers running at once, over different keys. Default 1. */
  readonly concurrency?: number;
  /** First retry delay of a failing key, doubling per failure. Default 5 ms. */
  readonly baseDelayMs?: number;
  /** Longest per-key retry delay. Default 1,000 s. */
  readonly maxDelayMs?: number;
  /** Overall retry rate (token bucket) per second. Default 10. */
  readonly retriesPerSecond?: number;
  /** Token bucket size. Default 100. */
  readonly retryBurst?: number;
  /** Time source for delays and the bucket. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /**
   * When the keys complete: `true` (default) runs the keys already queued before completing;
   * `false` drops them and only waits for the running handlers (kube-rs's graceful shutdown).
   */
  readonly drain?: boolean;
  /**
   * Picks the delay before a failed key runs again (a controller's error policy): a number replaces
   * the backoff for this failure, which still counts; `undefined` keeps the backoff.
   */
  readonly retryDelay?: (error: unknown, key: string, retries: number) => number | undefined;
  /** Told about every add, start, end and retry, with times from `scheduler` (work-queue metrics). */
  readonly metrics?: ReconcileMetrics;
}

/**
 * The outcome of one handler run: `success` (perhaps with a requested `requeueAfterMs`), `error`
 * (retried after `retryAfterMs`), or `terminal` (the handler threw a terminal error, see
 * `terminal()`: not retried until the key comes in again; its failures are not forgotten).
 */
export type ReconcileOutcome =
  | { readonly key: string; readonly result: 'success'; readonly retries: number; readonly requeueAfterMs?: number; readonly queueDepth: number }
  | { readonly key: string; readonly result: 'error'; readonly retries: number; readonly error: unknown; readonly retryAfterMs: number; readonly queueDepth: number }
  | { readonly key: string; readonly result: 'terminal'; readonly retries: number; readonly error: unknown; readonly queueDepth: number };

/**
 * @internal Throws the `TypeError` {@link reconcile} throws for bad queue options, without building
 * a queue: for a caller that builds its queue later (per subscription) but rejects bad options now.
 */
export function checkReconcileConfig(config: Pick<ReconcileConfig, 'concurrency' | 'baseDelayMs' | 'maxDelayMs' | 'retriesPerSecond' | 'retryBurst'>): void {
  const { concurrency = 1, baseDelayMs = 5, maxDelayMs = 1_000_000, retriesPerSecond = 10, retryBurst = 100 } = config;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`[informer] reconcile: concurrency must be an integer >= 1, got ${String(concurrency)}`);
  for (const [name, value] of Object.entries({ baseDelayMs, maxDelayMs, retriesPerSecond, retryBurst })) {
    if (!(value > 0)) throw new TypeError(`[informer] reconcile: ${name} must be > 0, got ${String(value)}`);
  }
}

/**
 * Runs an async handler per key with client-go workqueue semantics: the reconcile loop of a
 * controller as one operator.
 *
 * <span class="informal">Keys in, one outcome out per handler run; each key is handled alone,
 * deduplicated while queued, and retried with backoff when it fails.</span>
 *
 * ```text
 * keys:     -a-a-b-----a----------|
 * reconcile(h, { concurrency: 1 })        h takes 3 frames; a fails once
 * outcomes: ----x--y--z---w-------(v|)    x = a error (retry after 5 ms)  y = b success  z = a success …
 * ```
 *
 * - A key queued twice before it starts is handled once; a key is never handled concurrently with
 *   itself; a key added while being handled runs again after it (workqueue `dirty`/`processing`).
 * - Failures requeue the key after `max(perKey, bucket)`: per key `baseDelayMs·2^failures` up to
 *   `maxDelayMs`, and an overall token bucket of `retriesPerSecond` with `retryBurst`. A success
 *   forgets the key's failures. `{ requeueAfterMs }` from the handler schedules another run; of two
 *   pending delays for one key the earlier wins. A `terminal()` error is not retried (outcome
 *   `terminal`) and its failures are kept; `retryDelay` (an error policy) may pick a failure's delay.
 * - At most `concurrency` handlers run at once.
 * - When the keys complete, the operator stops taking keys and drops pending retries, runs what is
 *   queued (or, with `drain: false`, drops it too), waits for running handlers, then completes
 *   (graceful shutdown). Unsubscribing aborts running handlers (`context.signal`) and clears every
 *   timer. `metrics` hooks hear of every add, start, end and retry (work-queue metrics).
 *
 * ## Example
 * ```ts
 * import { map, type Observable } from 'rxjs';
 * import { informer, reconcile, type KubeObject, type RawEvent } from 'rx-informer';
 * declare const source$: Observable<RawEvent<KubeObject>>; // assuming: a List+Watch, e.g. listWatch(…)
 * declare function ensureDeployment(key: string, signal: AbortSignal): Promise<void>; // assuming: your controller's work
 *
 * informer(source$).changes$.pipe(
 *   map((change) => change.key),
 *   reconcile(async (key, { signal }) => {
 *     await ensureDeployment(key, signal);
 *     return { requeueAfterMs: 60_000 };
 *   }, { concurrency: 4 }),
 * ).subscribe((outcome) => outcome.result === 'error' && console.error(outcome.key, outcome.error));
 * ```
 *
 * @param handler reconciles one key.
 * @param config concurrency, backoff, token bucket and scheduler.
 * @returns an operator from keys to {@link ReconcileOutcome}s.
 */
export function reconcile(handler: ReconcileHandler, config: ReconcileConfig = {}): OperatorFunction<string, ReconcileOutcome> {
  const { concurrency = 1, baseDelayMs = 5, maxDelayMs = 1_000_000, retriesPerSecond = 10, retryBurst = 100, scheduler = asyncScheduler, drain = true, retryDelay, metrics } = config;
  if (typeof handler !== 'function') throw new TypeError('[informer] reconcile: handler must be a function');
  checkReconcileConfig(config);

  return operate<string, ReconcileOutcome>((subscriber) => {
    const limiter = maxOfLimiters(itemExponentialLimiter(baseDelayMs, maxDelayMs), tokenBucketLimiter(retriesPerSecond, retryBurst, scheduler));
    const queue = keyQueue(); // ready keys, in order
    const dirty = new Set<string>(); // keys that need a run (queued, or re-added while processing)
    const running = new Map<string, { abort: AbortController; subscription?: Subscription }>();
    const waiting = new Map<string, { readyAt: number; timer: Subscription }>();
    let shuttingDown = false;
    metrics?.started?.(concurrency);

    const add = (key: string): void => {
      if (shuttingDown || dirty.has(key)) return;
      dirty.add(key);
      metrics?.added(key, scheduler.now());
      if (running.has(key)) return;
      queue.add(key);
      pump();
    };

    const addAfter = (key: string, delayMs: number): void => {
      if (shuttingDown) return;
      metrics?.retried(key);
      if (!(delayMs > 0)) return add(key);
      const readyAt = scheduler.now() + delayMs;
      const pending = waiting.get(key);
      if (pending !== undefined && pending.readyAt <= readyAt) return;
      pending?.timer.unsubscribe();
      const timer = scheduler.schedule(() => {
        waiting.delete(key);
        add(key);
      }, delayMs);
      waiting.set(key, { readyAt, timer });
    };

    const finish = (key: string, threw: boolean, result: unknown): void => {
      if (!running.has(key)) return;
      // A result that is not one (a requeueAfterMs that is no number) fails the run, as a throw would.
      const requeue = threw ? undefined : requeueDelayOf(key, result);
      const failed = threw || requeue instanceof TypeError;
      const value = requeue instanceof TypeError ? requeue : result;
      const requeueAfterMs = requeue instanceof TypeError ? undefined : requeue;
      // Requeue first (AddRateLimited / AddAfter), then Done: the key counts as running until Done,
      // so a requeue of 0 ms, like a key re-added meanwhile, only marks it dirty and Done puts it
      // back in line once. A terminal error is not retried and its failures are not forgotten
      // (controller-runtime's TerminalError).
      const terminal = failed && value instanceof ControllerError && value.reason === 'terminal';
      const retryAfterMs = failed && !terminal ? delayAfterFailure(key, value) : 0;
      metrics?.done(key, scheduler.now(), resultLabel(failed, terminal, requeueAfterMs));
      if (failed && !terminal) addAfter(key, retryAfterMs);
      else if (failed) {
        // terminal: nothing scheduled
      } else {
        limiter.forget(key);
        if (requeueAfterMs !== undefined) addAfter(key, requeueAfterMs);
      }
      running.delete(key);
      if (dirty.has(key)) queue.add(key);
      const queueDepth = queue.size;
      subscriber.next(
        terminal
          ? { key, result: 'terminal', retries: limiter.retries(key), error: value, queueDepth }
          : failed
            ? { key, result: 'error', retries: limiter.retries(key), error: value, retryAfterMs, queueDepth }
            : { key, result: 'success', retries: 0, ...(requeueAfterMs !== undefined ? { requeueAfterMs } : {}), queueDepth },
      );
      pump();
    };

    const delayAfterFailure = (key: string, error: unknown): number => {
      const backoff = limiter.when(key);
      if (retryDelay === undefined) return backoff;
      let chosen: number | undefined;
      try {
        chosen = retryDelay(error, key, limiter.retries(key));
      } catch {
        chosen = undefined; // a throwing policy keeps the backoff
      }
      return typeof chosen === 'number' && chosen >= 0 ? chosen : backoff;
    };

    const start = (key: string): void => {
      metrics?.taken(key, scheduler.now());
      const abort = new AbortController();
      const slot: { abort: AbortController; subscription?: Subscription } = { abort };
      running.set(key, slot);
      let output: ObservableInput<ReconcileResult> | ReconcileResult;
      try {
        output = handler(key, { retries: limiter.retries(key), signal: abort.signal });
      } catch (error) {
        return finish(key, true, error);
      }
      if (!isObservableInput(output)) return finish(key, false, output);
      let last: ReconcileResult;
      const subscription = from(output).subscribe({
        next: (value) => (last = value),
        error: (error) => finish(key, true, error),
        complete: () => finish(key, false, last),
      });
      if (running.get(key) === slot) slot.subscription = subscription;
    };

    // One loop starts handlers. A handler that finishes synchronously calls pump() again from
    // inside start(); that nested call only asks the running loop to look again, so a backlog of
    // any size is worked through iteratively instead of one stack frame set per key.
    let pumping = false;
    const pump = (): void => {
      if (pumping) return;
      pumping = true;
      try {
        while (running.size < concurrency && queue.size > 0 && !subscriber.closed) {
          const key = queue.take()!;
          dirty.delete(key);
          start(key);
        }
      } finally {
        pumping = false;
      }
      if (shuttingDown && queue.size === 0 && running.size === 0) subscriber.complete();
    };

    const dropTimers = (): void => {
      for (const { timer } of waiting.values()) timer.unsubscribe();
      waiting.clear();
    };

    return {
      next: add,
      complete() {
        // Graceful shutdown: take no more keys, drop pending retries, drain (or drop what is queued), then complete (in pump).
        shuttingDown = true;
        dropTimers();
        if (!drain) {
          queue.clear();
          dirty.clear();
        }
        pump();
      },
      finalize() {
        dropTimers();
        for (const { abort, subscription } of running.values()) {
          abort.abort(new Error('[informer] reconcile: unsubscribed'));
          subscription?.unsubscribe();
        }
        running.clear();
        queue.clear();
        dirty.clear();
        metrics?.stopped?.();
      },
    };
  });
}

function resultLabel(failed: boolean, terminal: boolean, requeueAfterMs: number | undefined): ReconcileResultLabel {
  if (terminal) return 'terminal';
  if (failed) return 'error';
  return requeueAfterMs !== undefined ? 'requeue_after' : 'success';
}

function isObservableInput(value: unknown): value is ObservableInput<ReconcileResult> {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { then?: unknown; subscribe?: unknown; [Symbol.asyncIterator]?: unknown };
  return typeof candidate.then === 'function' || typeof candidate.subscribe === 'function' || typeof candidate[Symbol.asyncIterator] === 'function';
}

/** The `requeueAfterMs` of a handler's result: undefined for none, a TypeError for one that is not a number. */
function requeueDelayOf(key: string, value: unknown): number | undefined | TypeError {
  const delay = value === null || typeof value !== 'object' ? undefined : (value as { readonly requeueAfterMs?: unknown }).requeueAfterMs;
  if (delay === undefined || typeof delay === 'number') return delay;
  return new TypeError(`[informer] reconcile: requeueAfterMs must be a number of milliseconds; the handler of ${key} resolved to { requeueAfterMs: ${JSON.stringify(delay) ?? String(delay)} }`);
}
