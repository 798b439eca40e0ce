import type { SchedulerLike } from 'rxjs';
import type { ListWatchStatus } from './listWatchStatus.js';

/**
 * Backoff between failed attempts (R10): `base = min(initialDelay·factor^n, maxDelay)`,
 * `delay = base·(1 + jitter·U[0,1))`. The counter `n` goes back to 0 when no backoff was asked for
 * during `resetAfter` ms (client-go ≤1.35 / kube-rs `ResetTimerBackoff`), so a watch that ran fine
 * for two minutes starts again at the short end. All values in milliseconds.
 */
export interface BackoffConfig {
  /** Default 800. */
  readonly initialDelay?: number;
  /** Default 30 000. */
  readonly maxDelay?: number;
  /** Default 2. */
  readonly factor?: number;
  /** Default 1 (delays in `[base, 2·base)`). */
  readonly jitter?: number;
  /** Default 120 000. */
  readonly resetAfter?: number;
  /** Source of `U[0,1)`; default `Math.random`. Tests pass a constant. */
  readonly random?: () => number;
}

/** Options of {@link reflector}; {@link ListWatchConfig} adds the HTTP ones. */
export interface ReflectorConfig<T> {
  /**
   * LIST page size (R1). Default 500. Setting it explicitly also keeps paging on for relists at a
   * specific resourceVersion (R2).
   */
  readonly pageSize?: number;
  /**
   * What the first list asks for (kube-rs `ListSemantic`). `'any'` (default, client-go):
   * `resourceVersion=0`, which the API server may serve from its watch cache, possibly in one page
   * whatever the limit. `'mostRecent'`: `resourceVersion=""`, a consistent read that is always paged.
   * Relists after a failure use the last synced resourceVersion either way (R2).
   */
  readonly listSemantic?: 'any' | 'mostRecent';
  /** Use a streaming list (`sendInitialEvents=true`, R11) instead of LIST; falls back to LIST on errors. */
  readonly streamingList?: boolean;
  /**
   * Applied to every object before it is emitted (list items and watch objects). The objects are
   * freshly parsed and owned by the source, so mutating and returning the argument is fine.
   * Must be idempotent. A throw is reported as a {@link TransformError} on `onStatus` and ends the
   * current list or watch; the source backs off and relists (client-go's behaviour), and the store
   * keeps what it had meanwhile.
   */
  readonly transform?: (object: T) => T;
  /** Fixed watch `timeoutSeconds`. Default: a random integer in [300, 600) per watch (R5). */
  readonly timeoutSeconds?: number;
  /**
   * Abort and reconnect from the last resourceVersion when no byte arrived for this long (ms). With
   * bookmarks on, the server writes at least about once a minute. Default 150 000. Also bounds each
   * LIST page request.
   */
  readonly idleTimeout?: number;
  readonly backoff?: BackoffConfig;
  /**
   * `'transient'` (default): 403 and 404 are reported on `onStatus` and retried at the slow end of
   * the backoff (RBAC may be fixed, a CRD may appear). `'permanent'`: they error the Observable.
   */
  readonly fatalErrors?: 'transient' | 'permanent';
  /**
   * Receives every {@link ListWatchStatus}, synchronously, in order with the events. This is how
   * errors are seen without the source dying. A throw errors the Observable. For a stream:
   *
   * ```ts
   * const status$ = new Subject<ListWatchStatus>();
   * const events$ = listWatch(kc, resource, { onStatus: (s) => status$.next(s) });
   * ```
   */
  readonly onStatus?: (status: ListWatchStatus) => void;
  /** Runs every timer (backoff, watchdog, very-short-watch clock). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Aborting it is the same as unsubscribing, except that the Observable completes. */
  readonly signal?: AbortSignal;
}
