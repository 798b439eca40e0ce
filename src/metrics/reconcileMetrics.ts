/**
 * What a run of a reconcile loop came to, as controller-runtime labels it (`result` of
 * `controller_runtime_reconcile_total`), plus `terminal` for an error that is not retried.
 */
export type ReconcileResultLabel = 'success' | 'requeue_after' | 'error' | 'terminal';

/**
 * What a work queue tells its metrics, in client-go's `workqueue` terms (`add`, `get`, `done`,
 * `retry`). Times are read from the queue's scheduler, in ms, so durations follow virtual time in
 * tests. `reconcile()` calls these when given `metrics`; `rx-informer/prometheus` implements them
 * under controller-runtime's metric names.
 */
export interface ReconcileMetrics {
  /** The queue was started with this many workers. */
  started?(concurrency: number): void;
  /**
   * `key` became due (it was not waiting already): one more add, one more in depth at `priority`;
   * its wait starts. `priority` is `undefined` when the queue ignores priorities (`priority: false`).
   */
  added(key: string, now: number, priority?: number): void;
  /** `key`, counted in depth at `from`, now waits at the higher priority `to` (raised by a real change, or a due requeue). */
  raised?(key: string, from: number, to: number): void;
  /** A worker took `key`: one less in depth at `priority` (the one it waited at); its wait ends and its run starts. */
  taken(key: string, now: number, priority?: number): void;
  /** The run of `key` ended with `result`. */
  done(key: string, now: number, result: ReconcileResultLabel): void;
  /** `key` was put back with a delay (a retry after a failure, or a requested requeue). */
  retried(key: string): void;
  /** The run of `key` outlived the per-run timeout and was aborted (`controller_runtime_reconcile_timeouts_total`). */
  timedOut?(key: string): void;
  /** `key` was due but its cache was behind this process's writes: it waits for the cache (read-your-own-writes). */
  held?(key: string): void;
  /** `key` started although its cache was still behind when the read-your-own-writes wait ran out. */
  startedBehind?(key: string): void;
  /** The queue ended (unsubscribed, or drained and completed): forget what was waiting or running. */
  stopped?(): void;
}
