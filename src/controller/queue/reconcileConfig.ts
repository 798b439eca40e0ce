import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import type { ReconcileMetrics } from '../../metrics/reconcileMetrics.js';
import { optionChecks } from '../../options/optionChecks.js';

/**
 * Whether a key's cache entry has caught up with what this process wrote (read-your-own-writes):
 * the work queue holds a due key while `isFresh` says no, and looks again when `changed$` names it.
 * `controller()` builds one from the process's write record (see `writeRecord`).
 */
export interface CacheFreshness {
  /** True when the cache holds the newest version of `key` this process wrote, or none it deleted. */
  isFresh(key: string): boolean;
  /** Keys whose cache entry changed. */
  readonly changed$: Observable<string>;
}

/**
 * The work queue's options that {@link reconcile}, `reconcileObjects()` and `controller()` share
 * (the backoff defaults are client-go's `DefaultControllerRateLimiter`): a new queue option has its
 * home here and its default in `resolveReconcileConfig`.
 */
export interface QueueOptions {
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
  /** Time source for delays, timeouts and the bucket. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Told about every add, start, end and retry, with times from `scheduler` (work-queue metrics). */
  readonly metrics?: ReconcileMetrics;
  /**
   * `true` (default): due keys run highest priority first (a request's `priority`, a result's
   * `priority`; 0 when not given), first come first served within one priority, and a request at a
   * higher priority raises a key already in line (controller-runtime's priority queue, its default
   * since v0.23). `false`: first come first served, every priority ignored.
   */
  readonly priority?: boolean;
  /**
   * A key runs this long after the last trigger for it (kube-rs's `debounce`, trailing edge): a burst
   * of triggers makes one run. Requeues and retries are not debounced; a key already due is not
   * delayed. Triggers that never pause postpone the key for as long as they last. Default 0.
   */
  readonly debounceMs?: number;
  /**
   * A run that takes longer is aborted (its `signal`), counted (`metrics.timedOut`), and, if it then
   * fails, retried with a `ControllerError` (`timeout`) as its error (controller-runtime's
   * `ReconciliationTimeout`). Default 0: no timeout.
   */
  readonly timeoutMs?: number;
}

/** Options of {@link reconcile}: the {@link QueueOptions}, and how it ends, retries and waits for the cache. */
export interface ReconcileConfig extends QueueOptions {
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
  /**
   * When the keys complete: how long running handlers may take; then they are aborted and the
   * output errors with a `ControllerError` (`shutdownTimeout`) naming them (controller-runtime's
   * `GracefulShutdownTimeout`). Default: no limit.
   */
  readonly shutdownGraceMs?: number;
  /** Read-your-own-writes: due keys wait while their cache is behind this process's writes. */
  readonly freshness?: CacheFreshness;
  /** The longest a due key waits for `freshness`; then it runs, and its outcome says so. Default 10,000. */
  readonly freshnessWaitMs?: number;
}

/** {@link ReconcileConfig} with every default filled in. */
export interface ResolvedReconcileConfig {
  readonly concurrency: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly retriesPerSecond: number;
  readonly retryBurst: number;
  readonly scheduler: SchedulerLike;
  readonly drain: boolean;
  readonly retryDelay: ((error: unknown, key: string, retries: number) => number | undefined) | undefined;
  readonly metrics: ReconcileMetrics | undefined;
  readonly priority: boolean;
  readonly debounceMs: number;
  readonly timeoutMs: number;
  readonly shutdownGraceMs: number | undefined;
  readonly freshness: CacheFreshness | undefined;
  readonly freshnessWaitMs: number;
  /** The name the queue's errors carry (`reconcile`, `controller`). */
  readonly name: string;
}

/**
 * Checks {@link reconcile}'s options and fills in the defaults; every default of the work queue is
 * written here and nowhere else.
 *
 * @param config the options as given.
 * @param factory the name errors carry (`reconcile`, `reconcileObjects`, `controller`).
 * @returns the resolved options.
 * @throws TypeError naming the option, the rule and the value given.
 */
export function resolveReconcileConfig(config: ReconcileConfig | undefined, factory = 'reconcile'): ResolvedReconcileConfig {
  const check = optionChecks(factory, config);
  const c = config ?? {};
  const freshness = c.freshness;
  if (freshness !== undefined && (typeof freshness?.isFresh !== 'function' || !(freshness.changed$ instanceof Observable))) {
    check.fail('freshness must be { isFresh(key), changed$ }');
  }
  const scheduler = c.scheduler;
  if (scheduler !== undefined && (typeof scheduler?.schedule !== 'function' || typeof scheduler.now !== 'function')) check.fail('scheduler must be an RxJS scheduler');
  return {
    concurrency: check.positiveInteger('concurrency', c.concurrency) ?? 1,
    baseDelayMs: check.positive('baseDelayMs', c.baseDelayMs) ?? 5,
    maxDelayMs: check.positive('maxDelayMs', c.maxDelayMs) ?? 1_000_000,
    retriesPerSecond: check.positive('retriesPerSecond', c.retriesPerSecond) ?? 10,
    retryBurst: check.positive('retryBurst', c.retryBurst) ?? 100,
    scheduler: scheduler ?? asyncScheduler,
    drain: check.boolean('drain', c.drain) ?? true,
    retryDelay: check.func('retryDelay', c.retryDelay),
    metrics: c.metrics,
    priority: check.boolean('priority', c.priority) ?? true,
    debounceMs: check.nonNegative('debounceMs', c.debounceMs) ?? 0,
    timeoutMs: check.nonNegative('timeoutMs', c.timeoutMs) ?? 0,
    shutdownGraceMs: check.nonNegative('shutdownGraceMs', c.shutdownGraceMs),
    freshness,
    freshnessWaitMs: check.nonNegative('freshnessWaitMs', c.freshnessWaitMs) ?? 10_000,
    name: factory,
  };
}
