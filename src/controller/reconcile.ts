import type { OperatorFunction } from 'rxjs';
import type { ControllerRequest } from './controllerRequest.js';
import { queueRuntime } from './queue/queueRuntime.js';
import { resolveReconcileConfig, type ReconcileConfig } from './queue/reconcileConfig.js';
import type { ReconcileHandler, ReconcileOutcome, ReconcileRequest } from './queue/reconcileTypes.js';
import { argumentError } from '../options/optionChecks.js';

export type { ReconcileContext, ReconcileHandler, ReconcileOutcome, ReconcileRequest, ReconcileResult, RunFacts } from './queue/reconcileTypes.js';
export type { CacheFreshness, QueueOptions, ReconcileConfig } from './queue/reconcileConfig.js';

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
 *   queued (or, with `drain: false`, drops it too), waits for running handlers (at most
 *   `shutdownGraceMs`, then it errors with `shutdownTimeout`), then completes (graceful shutdown). Unsubscribing aborts running handlers (`context.signal`) and clears every
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
 * @returns an operator from keys (or {@link ReconcileRequest}s, or `ControllerRequest`s: keyed by their ref) to {@link ReconcileOutcome}s.
 */
export function reconcile(handler: ReconcileHandler, config: ReconcileConfig = {}): OperatorFunction<string | ReconcileRequest | ControllerRequest, ReconcileOutcome> {
  if (typeof handler !== 'function') throw argumentError('reconcile', 'handler must be a function');
  return queueRuntime(handler, resolveReconcileConfig(config));
}
