import { type ObservableInput, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { ControllerError } from '../errors.js';
import { afterRun, type AfterRun, type RunEnd } from './afterRun.js';
import { resolveReconcileConfig, type ReconcileConfig, type ResolvedReconcileConfig } from './reconcileConfig.js';
import type { ReconcileReason } from './reconcileReason.js';
import { readyLine } from './readyLine.js';
import { runHandler } from './runHandler.js';
import { workQueueStep } from './workQueueStep.js';
import type { KeyState, QueueEffect, QueueInput, QueuePhase } from './workQueueState.js';
import type { ReconcileResultLabel } from '../metrics/reconcileMetrics.js';
import { operate } from '../operators/operate.js';
import { describe, argumentError } from '../options/optionChecks.js';
import { itemExponentialLimiter, maxOfLimiters, tokenBucketLimiter, type RateLimiter } from './rateLimiter.js';

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
      /** The priority of that run (controller-runtime's `Result.Priority`); default 0. */
      readonly priority?: number;
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
  /** Aborted when the operator is unsubscribed or the run outlives `timeoutMs`; pass it to your API calls. */
  readonly signal: AbortSignal;
  /** Why the key runs: every distinct reason gathered since its last run started, oldest first. */
  readonly reasons: readonly ReconcileReason[];
}

/**
 * A key to reconcile with why and how urgently: `priority` (default 0; higher runs first, see
 * `lowPriority`) and `reasons` (default `[{ type: 'trigger' }]`). A plain string is `{ key }`.
 */
export interface ReconcileRequest {
  readonly key: string;
  readonly priority?: number;
  readonly reasons?: readonly ReconcileReason[];
}

export type { CacheFreshness, ReconcileConfig } from './reconcileConfig.js';

/**
 * Reconciles one key. Return a value, a Promise, or an Observable (its last value counts); throw,
 * reject or error to have the key retried with backoff.
 */
export type ReconcileHandler = (key: string, context: ReconcileContext) => ObservableInput<ReconcileResult> | ReconcileResult;

/**
 * The outcome of one handler run: `success` (perhaps with a requested `requeueAfterMs`), `error`
 * (retried after `retryAfterMs`), or `terminal` (the handler threw a terminal error, see
 * `terminal()`: not retried until the key comes in again; its failures are not forgotten).
 */
export type ReconcileOutcome = RunFacts &
  (
    | { readonly result: 'success'; readonly requeueAfterMs?: number }
    | { readonly result: 'error'; readonly error: unknown; readonly retryAfterMs: number }
    | { readonly result: 'terminal'; readonly error: unknown }
  );

/** What every {@link ReconcileOutcome} tells about its run. */
export type RunFacts = {
  readonly key: string;
  /** Failures of the key counted so far (0 after a success). */
  readonly retries: number;
  /** Keys due and waiting for a worker when the run ended. */
  readonly queueDepth: number;
  /** Why it ran (see {@link ReconcileContext.reasons}). */
  readonly reasons: readonly ReconcileReason[];
  /** The run outlived `timeoutMs` and its signal was aborted. */
  readonly timedOut?: true;
  /**
   * The run waited for the cache to catch up with this process's writes (read-your-own-writes):
   * for `heldMs`; `behind` when the wait ran out and the run started from an older object.
   */
  readonly freshness?: { readonly heldMs: number; readonly behind: boolean };
};

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
 * - At most `concurrency` handlers run at once; due keys run highest `priority` first (see
 *   {@link ReconcileRequest}; `priority: false` for first come first served). `debounceMs` makes a
 *   burst of triggers one run; `timeoutMs` aborts a run that takes too long. Each run is handed the
 *   reasons gathered since the key's last run, and its outcome carries them.
 * - With `freshness` (read-your-own-writes), a due key whose cache is behind this process's writes
 *   waits, without a worker, until it caught up or `freshnessWaitMs` ran out.
 * - The queue is a state machine: `workQueueStep` decides, per key, and this operator only
 *   performs its effects (timers, the ready line, handler runs); `afterRun` decides what a
 *   run's end means.
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
 * @param config concurrency, backoff, token bucket, priority, debounce, timeout, freshness, scheduler.
 * @returns an operator from keys (or {@link ReconcileRequest}s) to {@link ReconcileOutcome}s.
 */
export function reconcile(handler: ReconcileHandler, config: ReconcileConfig = {}): OperatorFunction<string | ReconcileRequest, ReconcileOutcome> {
  if (typeof handler !== 'function') throw argumentError('reconcile', 'handler must be a function');
  const c = resolveReconcileConfig(config);
  const { scheduler, metrics, concurrency } = c;

  // The runtime of the queue's state machine, and nothing else: it keeps the key states, the ready
  // line, the timers and the running handlers, feeds every event to workQueueStep and performs the
  // effects it returns. It stays one closure because all of these share the subscriber's lifetime.
  return operate<string | ReconcileRequest, ReconcileOutcome>((subscriber) => {
    const limiter = maxOfLimiters(itemExponentialLimiter(c.baseDelayMs, c.maxDelayMs), tokenBucketLimiter(c.retriesPerSecond, c.retryBurst, scheduler));
    const keys = new Map<string, KeyState>();
    const line = readyLine();
    const timers = keyTimers(scheduler, (key) => {
      step(key, { type: 'due', now: scheduler.now() });
      pump();
    });
    const runs = new Map<string, Run>();
    const holding = new Set<string>();
    let phase: QueuePhase = 'open';
    metrics?.started?.(concurrency);

    /** Feeds one input to the step and performs its effects. */
    const step = (key: string, input: QueueInput): void => {
      const { view, effects } = workQueueStep({ phase, key: keys.get(key) }, input, c);
      if (view.key === undefined) keys.delete(key);
      else keys.set(key, view.key);
      if (view.key?.kind === 'holding') holding.add(key);
      else holding.delete(key);
      for (const effect of effects) perform(key, effect);
    };

    const perform = (key: string, effect: QueueEffect): void => {
      switch (effect.type) {
        case 'enqueue':
          line.put(key, effect.priority);
          if (!effect.counted) metrics?.added(key, scheduler.now(), c.priority ? effect.priority : undefined);
          return;
        case 'raised':
          return metrics?.raised?.(key, effect.from, effect.to);
        case 'timer':
          return timers.set(key, effect.at);
        case 'cancelTimer':
          return timers.cancel(key);
        case 'start':
          return start(key, c.priority ? effect.priority : undefined, effect.reasons, effect.heldMs > 0 || effect.waitedOut ? { heldMs: effect.heldMs, behind: effect.waitedOut } : undefined);
        case 'abort': {
          const run = runs.get(key);
          metrics?.timedOut?.(key);
          run?.abort.abort(timeoutError(key, c.timeoutMs));
          return;
        }
        case 'forget':
          return limiter.forget(key);
        case 'retried':
          return metrics?.retried(key);
        case 'held':
          return metrics?.held?.(key);
      }
    };

    const start = (key: string, priority: number | undefined, reasons: readonly ReconcileReason[], freshness: RunFacts['freshness']): void => {
      metrics?.taken(key, scheduler.now(), priority);
      if (freshness?.behind) metrics?.startedBehind?.(key);
      const abort = new AbortController();
      const run: Run = { abort, reasons, freshness, timedOut: false };
      runs.set(key, run);
      if (c.timeoutMs > 0) run.timeout = scheduler.schedule(() => ((run.timedOut = true), step(key, { type: 'timeout' })), c.timeoutMs);
      const subscription = runHandler(() => handler(key, { retries: limiter.retries(key), signal: abort.signal, reasons }), (end) => finish(key, run, end));
      if (subscription !== undefined && runs.get(key) === run) run.subscription = subscription;
    };

    const finish = (key: string, run: Run, end: RunEnd): void => {
      if (runs.get(key) !== run) return;
      runs.delete(key);
      run.timeout?.unsubscribe();
      const raw = afterRun(key, end, run.timedOut ? timeoutError(key, c.timeoutMs) : undefined);
      const decision: AfterRun = raw.type === 'requeueAfter' && !c.priority ? { ...raw, priority: undefined } : raw;
      const retryAfterMs = decision.type === 'rateLimited' ? delayAfterFailure(limiter, c.retryDelay, key, decision.error) : 0;
      metrics?.done(key, scheduler.now(), resultLabel(decision));
      step(key, { type: 'done', now: scheduler.now(), decision, retryAfterMs, failures: limiter.retries(key) });
      subscriber.next(outcomeOf(key, decision, retryAfterMs, limiter.retries(key), line.size, run));
      pump();
    };

    // One loop starts handlers. A handler that finishes synchronously calls pump() again from
    // inside start(); that nested call only asks the running loop to look again, so a backlog of
    // any size is worked through iteratively instead of one stack frame set per key.
    let pumping = false;
    const pump = (): void => {
      if (pumping) return;
      pumping = true;
      try {
        while (runs.size < concurrency && line.size > 0 && !subscriber.closed) {
          const key = line.take()!;
          step(key, { type: 'take', now: scheduler.now(), fresh: c.freshness?.isFresh(key) ?? true });
        }
      } finally {
        pumping = false;
      }
      if (phase === 'draining' && line.size === 0 && runs.size === 0 && holding.size === 0) subscriber.complete();
    };

    const caughtUp = c.freshness?.changed$.subscribe((key) => {
      if (holding.has(key) && c.freshness!.isFresh(key)) {
        step(key, { type: 'caughtUp', now: scheduler.now() });
        pump();
      }
    });

    return {
      next(item) {
        const request = requestOf(item);
        step(request.key, { type: 'add', now: scheduler.now(), priority: c.priority ? (request.priority ?? 0) : 0, reasons: request.reasons ?? triggered });
        pump();
      },
      complete() {
        // Graceful shutdown: take no more keys, drop pending retries, drain (or drop what is queued), then complete (in pump).
        phase = 'draining';
        for (const key of [...keys.keys()]) step(key, { type: 'shutdown', drain: c.drain });
        if (!c.drain) line.clear();
        pump();
      },
      finalize() {
        caughtUp?.unsubscribe();
        timers.clear();
        for (const { abort, subscription, timeout } of runs.values()) {
          abort.abort(new Error('[reconcile] unsubscribed'));
          subscription?.unsubscribe();
          timeout?.unsubscribe();
        }
        runs.clear();
        keys.clear();
        holding.clear();
        line.clear();
        metrics?.stopped?.();
      },
    };
  });
}

/** The delay before a failed key runs again: its backoff (which counts the failure), or what the error policy picks. */
function delayAfterFailure(limiter: RateLimiter, retryDelay: ResolvedReconcileConfig['retryDelay'], key: string, error: unknown): number {
  const backoff = limiter.when(key);
  if (retryDelay === undefined) return backoff;
  let chosen: number | undefined;
  try {
    chosen = retryDelay(error, key, limiter.retries(key));
  } catch {
    chosen = undefined; // a throwing policy keeps the backoff
  }
  return typeof chosen === 'number' && chosen >= 0 ? chosen : backoff;
}

/** One timer per key on `scheduler`, firing `due(key)` at a time; setting one replaces the key's last. */
function keyTimers(scheduler: SchedulerLike, due: (key: string) => void) {
  const timers = new Map<string, Subscription>();
  const cancel = (key: string): void => {
    timers.get(key)?.unsubscribe();
    timers.delete(key);
  };
  return {
    set(key: string, at: number): void {
      cancel(key);
      timers.set(key, scheduler.schedule(() => (timers.delete(key), due(key)), Math.max(0, at - scheduler.now())));
    },
    cancel,
    clear(): void {
      for (const timer of timers.values()) timer.unsubscribe();
      timers.clear();
    },
  };
}

/** A handler run in progress. */
interface Run {
  readonly abort: AbortController;
  readonly reasons: readonly ReconcileReason[];
  readonly freshness: RunFacts['freshness'];
  timedOut: boolean;
  subscription?: Subscription;
  timeout?: Subscription;
}

const triggered: readonly ReconcileReason[] = [{ type: 'trigger' }];

function requestOf(item: string | ReconcileRequest): ReconcileRequest {
  if (typeof item === 'string') return { key: item };
  if (item === null || typeof item !== 'object' || typeof item.key !== 'string') throw argumentError('reconcile', `expected a key or { key, priority?, reasons? }, got ${describe(item)}`);
  if (item.priority !== undefined && !Number.isInteger(item.priority)) throw argumentError('reconcile', `the priority of ${item.key} must be an integer, got ${describe(item.priority)}`);
  return item;
}

function outcomeOf(key: string, decision: AfterRun, retryAfterMs: number, retries: number, queueDepth: number, run: Run): ReconcileOutcome {
  const facts: RunFacts = { key, retries, queueDepth, reasons: run.reasons, ...(run.timedOut ? { timedOut: true as const } : {}), ...(run.freshness ? { freshness: run.freshness } : {}) };
  switch (decision.type) {
    case 'forget':
      return { ...facts, result: 'success', retries: 0 };
    case 'requeueAfter':
      return { ...facts, result: 'success', retries: 0, requeueAfterMs: decision.ms };
    case 'rateLimited':
      return { ...facts, result: 'error', error: decision.error, retryAfterMs };
    case 'terminal':
      return { ...facts, result: 'terminal', error: decision.error };
  }
}

function timeoutError(key: string, timeoutMs: number): ControllerError {
  return new ControllerError('timeout', `the run of ${key} took longer than ${timeoutMs} ms; aborted`, { key });
}

function resultLabel(decision: AfterRun): ReconcileResultLabel {
  switch (decision.type) {
    case 'forget':
      return 'success';
    case 'requeueAfter':
      return 'requeue_after';
    case 'rateLimited':
      return 'error';
    case 'terminal':
      return 'terminal';
  }
}
