/**
 * The reflector's options in one place: the public {@link ReflectorConfig} and {@link BackoffConfig}
 * types, and {@link resolveReflectorConfig}, which checks them at call time and fills in every
 * default. Everything else in the reflector reads the resolved config, never the raw one.
 */
import { asyncScheduler, type ObservableInput, type SchedulerLike } from 'rxjs';
import { optionChecks } from '../../options/optionChecks.js';
import type { ListWatchStatus } from './listWatchStatus.js';

/**
 * Backoff between failed attempts (R10): `base = min(initialDelay·factor^n, maxDelay)`,
 * `delay = base·(1 + jitter·U[0,1))`. The counter `n` goes back to 0 when no backoff was asked for
 * during `resetAfter` ms (client-go ≤1.35 / kube-rs `ResetTimerBackoff`), so a watch that ran fine
 * for two minutes starts again at the short end. All values in milliseconds.
 */
export interface BackoffConfig {
  /** Default 800 (`defaultBackoff`, as the others). */
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

/** What {@link ReflectorConfig.afterList} is told about the list that just completed. */
export interface ListCompleted {
  /** The resourceVersion the list is complete at (that of its `LIST_DONE`). */
  readonly resourceVersion: string;
  /** How many objects it held. */
  readonly items: number;
  /** False for the first list of this subscription, true for every relist after it. */
  readonly relist: boolean;
  /** A streaming list (R11): its watch is already running, so the hook cannot delay it. */
  readonly streaming: boolean;
}

/** LIST page size when none is set (client-go's reflector pages by 500 too). */
export const defaultPageSize = 500;

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
   * freshly parsed and owned by the source, so mutating and returning the argument is fine: it is
   * typed `T`, not `Frozen<T>`, because it runs before the store freezes what it returns (the
   * freeze then covers the result). Must be idempotent. A throw is reported as a {@link TransformError} on `onStatus` and ends the
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
  /**
   * Report a `WAITING` status when a LIST or WATCH request has had no response (no page part, no
   * watch head) for this long (ms). Default 5 000. The request goes on; an informer's `synced`
   * does not change.
   */
  readonly waitingAfter?: number;
  /**
   * Abort a WATCH whose response has not started after this long (ms), with a `TransportError`
   * (`noResponse`) whose message names the likely cause, and open it again. Default 30 000. A
   * LIST is not cut this way (a server may take long to start a big list): `idleTimeout` bounds it.
   */
  readonly noResponseTimeout?: number;
  /** The delay before each retry after a failure: 800 ms doubling to 30 s by default (see {@link BackoffConfig}). */
  readonly backoff?: BackoffConfig;
  /**
   * Which errors end the source (a `FAILED` status, then the Observable errors with the server's
   * message) instead of being retried. `'transient'` (default): only an invalid request — 400 (a
   * label or field selector that does not parse) or 422 — which no retry can fix; 403 and 404 are
   * reported and retried at the slow end of the backoff (RBAC may be fixed, a CRD may appear).
   * `'permanent'`: 403 and 404 too. `'never'`: nothing; invalid requests are retried slowly as well.
   */
  readonly fatalErrors?: 'transient' | 'permanent' | 'never';
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
  /**
   * Called after each LIST completes (its `LIST_DONE` is emitted) and before the WATCH starts: the
   * point to clear local state a relist made stale, or to check what was listed. It **may delay
   * the watch**: when it returns a Promise or an Observable, the WATCH request is made once that
   * settles (completes, for an Observable), so events are not missed, only held on the server;
   * keep it short, the watch's resourceVersion ages meanwhile (a 410 then means a relist).
   * A throw, a rejection or an error is reported as an `ERROR` status (an `InformerError`,
   * reason `hook`) and the watch starts anyway: the hook never stops the source. Unsubscribing
   * while it runs unsubscribes its Observable. With a streaming list it is called at the
   * initial-events-end bookmark and only observes. Inside {@link informer}, the store has not
   * necessarily applied the list yet; use the informer's `onSynced` to look at the cache.
   */
  readonly afterList?: (listed: ListCompleted) => void | ObservableInput<unknown>;
  /** Runs every timer (backoff, watchdog, very-short-watch clock). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Aborting it is the same as unsubscribing, except that the Observable completes. */
  readonly signal?: AbortSignal;
}

/** A {@link BackoffConfig} checked and with every default filled in. Internal to the reflector. */
export interface ResolvedBackoffConfig {
  readonly initialDelay: number;
  readonly maxDelay: number;
  readonly factor: number;
  readonly jitter: number;
  readonly resetAfter: number;
  readonly random: () => number;
}

/**
 * A {@link ReflectorConfig} checked and with every default filled in: what the state machine, the
 * request builders and the runtime read. Internal to the reflector (not exported by the package).
 */
export interface ResolvedReflectorConfig<T> {
  /** LIST `limit` and the size of a streaming list's `LIST_PAGE`s; default 500. */
  readonly pageSize: number;
  /** Whether the caller set `pageSize`, which keeps relists at a specific RV paged (R2). */
  readonly pageSizeExplicit: boolean;
  readonly listSemantic: 'any' | 'mostRecent';
  readonly streamingList: boolean;
  /** Draws the `timeoutSeconds` of the next watch: the configured value, or an integer in [300, 600) (R5). */
  readonly timeoutSeconds: () => number;
  /** Watchdog limit in ms; default 150 000. */
  readonly idleTimeout: number;
  /** `WAITING` status after this long without a response, ms; default 5 000. */
  readonly waitingAfter: number;
  /** A watch without a response is aborted after this long, ms; default 30 000. */
  readonly noResponseTimeout: number;
  readonly fatalErrors: 'transient' | 'permanent' | 'never';
  readonly backoff: ResolvedBackoffConfig;
  readonly transform: ((object: T) => T) | undefined;
  readonly onStatus: ((status: ListWatchStatus) => void) | undefined;
  readonly afterList: ((listed: ListCompleted) => void | ObservableInput<unknown>) | undefined;
  readonly scheduler: SchedulerLike;
  readonly signal: AbortSignal | undefined;
}

/**
 * The R10 backoff defaults, written once: 800 ms doubling to 30 s, jitter 1 (delays in
 * `[base, 2·base)`), reset after 120 s of no backoff. Another retry that wants the reflector's
 * backoff imports these rather than copying the numbers.
 */
export const defaultBackoff = { initialDelay: 800, maxDelay: 30_000, factor: 2, jitter: 1, resetAfter: 120_000 } as const;

/**
 * Checks `config` eagerly (a `TypeError` at call time, style point 25, in the one wording of
 * `optionChecks`) and fills in every default in one literal.
 *
 * @param config What the caller passed to {@link reflector} (or {@link listWatch}).
 * @returns The config every part of the reflector reads.
 */
export function resolveReflectorConfig<T>(config: ReflectorConfig<T>): ResolvedReflectorConfig<T> {
  const check = optionChecks('reflector', config, false);
  const fixedTimeout = check.positiveInteger('timeoutSeconds', config.timeoutSeconds);
  return {
    pageSize: check.positiveInteger('pageSize', config.pageSize) ?? defaultPageSize,
    pageSizeExplicit: config.pageSize !== undefined,
    listSemantic: check.oneOf('listSemantic', config.listSemantic, ['any', 'mostRecent']) ?? 'any',
    streamingList: Boolean(config.streamingList),
    timeoutSeconds: fixedTimeout === undefined ? () => Math.floor(300 + Math.random() * 300) : () => fixedTimeout,
    idleTimeout: check.positive('idleTimeout', config.idleTimeout) ?? 150_000,
    waitingAfter: check.positive('waitingAfter', config.waitingAfter) ?? 5_000,
    noResponseTimeout: check.positive('noResponseTimeout', config.noResponseTimeout) ?? 30_000,
    fatalErrors: check.oneOf('fatalErrors', config.fatalErrors, ['transient', 'permanent', 'never']) ?? 'transient',
    backoff: resolveBackoffConfig(config.backoff),
    transform: check.func('transform', config.transform),
    onStatus: check.func('onStatus', config.onStatus),
    afterList: check.func('afterList', config.afterList),
    scheduler: config.scheduler ?? asyncScheduler,
    signal: config.signal,
  };
}

/**
 * Checks a {@link BackoffConfig} (each number finite and ≥ 0, else a `TypeError` naming `factory`)
 * and fills in `defaultBackoff` and `Math.random`.
 */
export function resolveBackoffConfig(config: BackoffConfig | undefined, factory = 'reflector'): ResolvedBackoffConfig {
  const check = optionChecks(factory, config);
  const number = (name: keyof typeof defaultBackoff): number => check.nonNegative(`backoff.${name}`, config?.[name]) ?? defaultBackoff[name];
  return {
    initialDelay: number('initialDelay'),
    maxDelay: number('maxDelay'),
    factor: number('factor'),
    jitter: number('jitter'),
    resetAfter: number('resetAfter'),
    random: check.func('backoff.random', config?.random) ?? Math.random,
  };
}
