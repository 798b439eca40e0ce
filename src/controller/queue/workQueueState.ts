import type { AfterRun } from './afterRun.js';
import type { ReconcileReason } from '../reconcileReason.js';

/**
 * Where one key of the work queue is. A key with no entry is idle: nothing pending, not running.
 *
 * - `waiting`: a run is wanted at `dueAt` (debounce, a requested requeue, a retry's backoff); a
 *   timer is set for it.
 * - `queued`: due, in the ready line at `priority` (higher first, first come first served within
 *   one priority). `waitedOut`: it was held for read-your-own-writes until the wait ran out, so it
 *   starts even though the cache is still behind; `heldMs` how long it was held. `later`: a run
 *   still wanted at a later time (a retry or requeue that a trigger did not replace; its timer stays,
 *   as client-go's delayed add does), which becomes the run after this one.
 * - `holding`: its turn came while the cache held an older object than this process wrote (or one
 *   it deleted); it waits off the line, without a worker, until the cache catches up or `until`.
 * - `running`: a handler runs; `next` is the run wanted after it (a trigger or requeue meanwhile),
 *   `timedOut` whether the per-run timeout aborted it.
 *
 * Every state that is waiting for a run carries the `reasons` gathered for it and its `priority`.
 */
export type KeyState =
  | { readonly kind: 'waiting'; readonly dueAt: number; readonly priority: number; readonly reasons: readonly ReconcileReason[] }
  | { readonly kind: 'queued'; readonly priority: number; readonly reasons: readonly ReconcileReason[]; readonly waitedOut: boolean; readonly heldMs: number; readonly later?: PendingRun }
  | { readonly kind: 'holding'; readonly until: number; readonly since: number; readonly priority: number; readonly reasons: readonly ReconcileReason[] }
  | { readonly kind: 'running'; readonly next: PendingRun | undefined; readonly timedOut: boolean };

/** A run wanted after the current one: at `dueAt`, with its priority and reasons. */
export interface PendingRun {
  readonly dueAt: number;
  readonly priority: number;
  readonly reasons: readonly ReconcileReason[];
}

/** `open`: taking keys. `draining`: the keys completed; no more are taken (graceful shutdown). */
export type QueuePhase = 'open' | 'draining';

/** What the step sees: the queue's phase and one key's state (`undefined`: idle). */
export interface KeyView {
  readonly phase: QueuePhase;
  readonly key: KeyState | undefined;
}

/**
 * What happens to a key. `now` is the runtime's clock (its scheduler), read when the input arrived.
 *
 * - `add`: a trigger, at `priority`, for `reasons`.
 * - `due`: the key's timer fired (its `dueAt`, or the end of a read-your-own-writes hold).
 * - `caughtUp`: a holding key's cache now has what this process wrote.
 * - `take`: a worker is free and the key is first in line; `fresh` says whether the cache has
 *   caught up with this process's writes of it.
 * - `done`: its run ended; `decision` is {@link afterRun}'s, `retryAfterMs` the backoff the
 *   runtime's limiter chose for a `rateLimited` one, `failures` the failures counted so far.
 * - `timeout`: the run outlived the per-run timeout.
 * - `shutdown`: the keys completed; `drain` keeps what is queued, else it is dropped.
 */
export type QueueInput =
  | { readonly type: 'add'; readonly now: number; readonly priority: number; readonly reasons: readonly ReconcileReason[] }
  | { readonly type: 'due'; readonly now: number }
  | { readonly type: 'caughtUp'; readonly now: number }
  | { readonly type: 'take'; readonly now: number; readonly fresh: boolean }
  | { readonly type: 'done'; readonly now: number; readonly decision: AfterRun; readonly retryAfterMs: number; readonly failures: number }
  | { readonly type: 'timeout' }
  | { readonly type: 'shutdown'; readonly drain: boolean };

/**
 * What the runtime does for a key, in order.
 *
 * - `enqueue`: put it in the ready line at `priority`, or raise it there; `counted`: it was
 *   counted as waiting already (raised, or back from a hold), so it is no new add for the metrics.
 * - `raised`: a key counted as waiting (queued or holding) now waits at priority `to`, not `from`
 *   (the depth per priority of the metrics moves it).
 * - `timer`: fire `due` at `at` (replacing the key's timer); `cancelTimer`: drop it.
 * - `start`: run the handler with `reasons`; `priority`: the one it waited at (it leaves that
 *   depth); `waitedOut`: the read-your-own-writes wait ran out.
 * - `abort`: abort the running handler's signal (its timeout).
 * - `forget`: forget the key's failures (after a success).
 * - `retried`: the key was put back with a delay (work-queue metric).
 * - `held`: the key waits for the cache to catch up (metric); `hold` then starts.
 */
export type QueueEffect =
  | { readonly type: 'enqueue'; readonly priority: number; readonly counted: boolean }
  | { readonly type: 'raised'; readonly from: number; readonly to: number }
  | { readonly type: 'timer'; readonly at: number }
  | { readonly type: 'cancelTimer' }
  | { readonly type: 'start'; readonly priority: number; readonly reasons: readonly ReconcileReason[]; readonly waitedOut: boolean; readonly heldMs: number }
  | { readonly type: 'abort' }
  | { readonly type: 'forget' }
  | { readonly type: 'retried' }
  | { readonly type: 'held' };

/** The options the step reads (resolved). */
export interface QueueStepConfig {
  /** A trigger runs the key this long after the last trigger (kube-rs `debounce`); 0: at once. */
  readonly debounceMs: number;
  /** The longest a due key is held for read-your-own-writes. */
  readonly freshnessWaitMs: number;
}

/** One transition: the new view and the effects, in order. */
export interface QueueStep {
  readonly view: KeyView;
  readonly effects: readonly QueueEffect[];
}
