import { type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { ControllerError } from '../../errors.js';
import type { ReconcileResultLabel } from '../../metrics/reconcileMetrics.js';
import { operate } from '../../operators/operate.js';
import { argumentError, describe } from '../../options/optionChecks.js';
import { refCacheKey, type ObjectRef } from '../../store/objectRef.js';
import type { ControllerRequest } from '../controllerRequest.js';
import type { ReconcileReason } from '../reconcileReason.js';
import { afterRun, type AfterRun, type RunEnd } from './afterRun.js';
import { itemExponentialLimiter, maxOfLimiters, tokenBucketLimiter, type RateLimiter } from './rateLimiter.js';
import type { ResolvedReconcileConfig } from './reconcileConfig.js';
import type { ReconcileHandler, ReconcileOutcome, ReconcileRequest, RunFacts } from './reconcileTypes.js';
import { readyLine } from './readyLine.js';
import { awaitRun, isObservableInput } from './awaitRun.js';
import type { KeyState, QueueEffect, QueueInput, QueuePhase } from './workQueueState.js';
import { workQueueStep } from './workQueueStep.js';

/**
 * The runtime of the work queue's state machine (as `runReflector` is the reflector's): it keeps
 * the key states, the ready line, the timers and the running handlers, feeds every event to
 * `workQueueStep` and performs the effects it returns; `afterRun` decides what a run's end means.
 * `reconcile()` and `reconcileObjects()` are this operator over their resolved options.
 *
 * @param handler reconciles one key.
 * @param c the resolved options (`resolveReconcileConfig`).
 * @returns an operator from keys and requests to outcomes.
 */
export function queueRuntime(handler: ReconcileHandler, c: ResolvedReconcileConfig): OperatorFunction<QueueItem, ReconcileOutcome> {
  const { scheduler, metrics, concurrency } = c;

  // The runtime of the queue's state machine, and nothing else: it keeps the key states, the ready
  // line, the timers and the running handlers, feeds every event to workQueueStep and performs the
  // effects it returns. It stays one closure because all of these share the subscriber's lifetime.
  return operate<QueueItem, ReconcileOutcome>((subscriber) => {
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
    let deadline: Subscription | undefined;
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
      let output: unknown;
      try {
        output = handler(key, { retries: limiter.retries(key), signal: abort.signal, reasons });
      } catch (error) {
        return finish(key, run, { threw: true, error });
      }
      // A plain value has ended the run; a Promise, Observable or async iterable is waited for.
      if (!isObservableInput(output)) return finish(key, run, { threw: false, value: output });
      const subscription = awaitRun(output, (end) => finish(key, run, end));
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
        if (c.shutdownGraceMs !== undefined) {
          const graceMs = c.shutdownGraceMs;
          deadline = scheduler.schedule(() => subscriber.error(shutdownTimeoutError(c.name, graceMs, [...runs.keys()])), graceMs);
        }
        pump();
      },
      finalize() {
        deadline?.unsubscribe();
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

/** What the queue takes: a key, a {@link ReconcileRequest} (by key), a {@link ControllerRequest} or a plain ref (by ref). */
export type QueueItem = string | ReconcileRequest | ControllerRequest | ObjectRef;

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

function requestOf(item: QueueItem): ReconcileRequest {
  if (typeof item === 'string') return { key: item };
  const request = keyed(item);
  if (request === undefined) throw argumentError('reconcile', `expected a key or { key, priority?, reasons? }, got ${describe(item)}`);
  if (request.priority !== undefined && !Number.isInteger(request.priority)) throw argumentError('reconcile', `the priority of ${request.key} must be an integer, got ${describe(request.priority)}`);
  return request;
}

/** A request by key as it is, a {@link ControllerRequest} or a plain ref keyed by its ref; `undefined` for anything else. */
function keyed(item: Exclude<QueueItem, string>): ReconcileRequest | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  if ('key' in item) return typeof item.key === 'string' ? item : undefined;
  if ('ref' in item) return { key: refCacheKey(item.ref), ...(item.priority !== undefined ? { priority: item.priority } : {}), ...(item.reasons !== undefined ? { reasons: item.reasons } : {}) };
  return typeof item.name === 'string' ? { key: refCacheKey(item) } : undefined;
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

function shutdownTimeoutError(name: string, graceMs: number, running: readonly string[]): ControllerError {
  return new ControllerError('shutdownTimeout', `${name}: reconciles still running ${graceMs} ms (shutdownGraceMs) after shutdown began${running.length > 0 ? `: ${running.join(', ')}` : ''}; aborted`);
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
