import type { ObservableInput } from 'rxjs';
import type { ReconcileReason } from '../reconcileReason.js';

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
  /**
   * Why the key runs: every distinct reason gathered since its last run started, oldest first; past
   * `maxReasonsPerRun` (32) the first and the newest, with a `folded` reason counting those between.
   */
  readonly reasons: readonly ReconcileReason[];
}

/**
 * A key to reconcile with why and how urgently: `priority` (default 0; higher runs first, see
 * `lowPriority`) and `reasons` (default `[{ type: 'trigger' }]`). A plain string is `{ key }`.
 */
export interface ReconcileRequest {
  /** The key to reconcile (the controller's are `namespace/name`). */
  readonly key: string;
  /** How urgently: higher runs first, idle work at `lowPriority`. Default 0. */
  readonly priority?: number;
  /** Why the key is asked for, oldest first. Default `[{ type: 'trigger' }]`. */
  readonly reasons?: readonly ReconcileReason[];
}

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
    | {
        /** The handler succeeded. */
        readonly result: 'success';
        /** The delay in milliseconds the handler asked for before the key runs again; absent: not requeued. */
        readonly requeueAfterMs?: number;
      }
    | {
        /** The handler failed; the key is retried. */
        readonly result: 'error';
        /** What the handler threw, rejected or errored with. */
        readonly error: unknown;
        /** Milliseconds until the retry (the per-key backoff, or the error policy's delay). */
        readonly retryAfterMs: number;
      }
    | {
        /** The handler threw a terminal error: not retried until the key comes in again. */
        readonly result: 'terminal';
        /** The terminal error the handler threw. */
        readonly error: unknown;
      }
  );

/** What every {@link ReconcileOutcome} tells about its run. */
export type RunFacts = {
  /** The key that ran (`namespace/name`, or `name` for a cluster-scoped object). */
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
  readonly freshness?: {
    /** How long, in milliseconds, the run was held for the cache to catch up. */
    readonly heldMs: number;
    /** The wait ran out and the run started from an object older than this process's last write. */
    readonly behind: boolean;
  };
};

