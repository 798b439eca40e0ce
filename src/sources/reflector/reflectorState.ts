/**
 * The reflector as a state machine, in data: its states ({@link ReflectorState}), what it
 * remembers across requests ({@link ReflectorMemory}), the inputs that move it
 * ({@link ReflectorInput}: the ends of requests and timers) and the effects it asks the runtime to
 * perform ({@link ReflectorEffect}). The one transition over these is {@link reflectorStep}; the
 * runtime ({@link runReflector}) only performs effects and feeds inputs back. kube-rs `watcher.rs`
 * `State` + `step`, with client-go's Reflector fields as the memory.
 */
import type { ListRequest, ListResponse, WatchRequest } from '../listerWatcher.js';
import type { ListDone, ListPage, ListStart } from '../rawEvent.js';
import type { ListWatchStatus, RelistReason } from './listWatchStatus.js';

/** What the reflector keeps from one request to the next: client-go's Reflector fields. */
export interface ReflectorMemory {
  /** client-go `lastSyncResourceVersion`: the last list's RV, then the RV of the last watch event (R4, R6). */
  readonly lastSyncRV: string;
  /** client-go `isLastSyncResourceVersionUnavailable`: a 410 or too-large RV was seen; the next list asks for `""` (R3). */
  readonly rvUnavailable: boolean;
  /** client-go `paginatedResult`: an RV "0" list came back in several pages; relists stay paged (R2). Sticky. */
  readonly paginatedResult: boolean;
}

/** The memory of a reflector that has synced nothing yet. */
export const initialMemory: ReflectorMemory = { lastSyncRV: '', rvUnavailable: false, paginatedResult: false };

/**
 * Where the reflector is. Exactly one request or one timer is outstanding in every state but
 * `idle` and `failed`. While `watching`, the runtime moves `lastSyncRV` itself with every event (the
 * hot path, R6) and hands it back in the {@link WatchEnded} input; `memory` catches up then.
 *
 * ```text
 *                     start
 *           +-----------+------------+
 *           |                        | streamingList
 *           v                        v
 *      +---------+             +-----------+
 *   +->| listing |--+       +->| streaming |---------------------+
 *   |  +---------+  | next  |  +-----------+  initial-events-end |
 *   |    |   ^      | page  |    |    ^       bookmark (R11)     |
 *   |    |   +------+       |    +----+ stream ended: retry now  |
 *   |    | last page        |           (R11)                    v
 *   |    | (LIST_DONE)      |                             +----------+
 *   |    +------------------|---------------------------->| watching |--+ clean end:
 *   |                       |                             +----------+  | re-watch
 *   |                       |     cycle failed (R8),        |   ^  ^----+ now (R7)
 *   |                       |     429 / refused (R9, R11)   v   | rewatch (R9)
 *   |  relist (R8)          |  relist (R11)          +------------+
 *   +-----------------------+------------------------| backingOff |
 *                                                    +------------+
 *   listing   -- 410 / too-large RV (R3) ------------> listing, at once (RV "", or the full retry)
 *   streaming -- 410 / too-large RV; other error ----> streaming at RV ""; listing, at once (R11)
 *   any       -- 400/422; 403/404 with fatalErrors 'permanent' -> failed (the Observable errors)
 * ```
 */
export type ReflectorState = IdleState | ListingState | StreamingState | WatchingState | BackingOffState | FailedState;

/** Subscribed, nothing started yet (kube-rs `Empty`). `start` begins a list cycle. */
export interface IdleState {
  readonly kind: 'idle';
  readonly memory: ReflectorMemory;
}

/** A LIST page is in flight (kube-rs `InitPage`): the cycle's RV, its progress so far, the request. */
export interface ListingState {
  readonly kind: 'listing';
  readonly memory: ReflectorMemory;
  /** The RV this list attempt asked for (reported in `LISTING`; kept for the full retry, R3). */
  readonly resourceVersion: string;
  /** The page request in flight; it has a `continue` token after the first page. */
  readonly request: ListRequest;
  /** Pages received whole so far in this attempt (the parts of the page in flight do not count). */
  readonly page: number;
  /** Items received so far in this attempt, the parts of the page in flight included. */
  readonly itemsSoFar: number;
  /** The first page's RV, which the list ends at (R4); `""` before the first page. */
  readonly listRV: string;
  /** This is the one full retry after an expired continue token (R3); it is not retried that way again. */
  readonly fullRetry: boolean;
}

/** A streaming list's watch is in flight, before its initial-events-end bookmark (R11; kube-rs `InitialWatch`). */
export interface StreamingState {
  readonly kind: 'streaming';
  readonly memory: ReflectorMemory;
  /** The RV the streaming watch asked for. */
  readonly resourceVersion: string;
}

/** A watch is in flight (kube-rs `Watching`): opened from `resourceVersion`, or a streaming list past its bookmark. */
export interface WatchingState {
  readonly kind: 'watching';
  readonly memory: ReflectorMemory;
  /** The RV the watch started from (reported in `WATCHING`). */
  readonly resourceVersion: string;
}

/** A backoff timer runs (R10); when it elapses the reflector does `then`. */
export interface BackingOffState {
  readonly kind: 'backingOff';
  readonly memory: ReflectorMemory;
  readonly then: AfterBackoff;
}

/** What follows a backoff: a new cycle (reported as `RELISTING`), or a new watch at the same RV (R9). */
export type AfterBackoff =
  | { readonly next: 'relist'; readonly reason: RelistReason; readonly cause?: Error }
  | { readonly next: 'rewatch' };

/** An invalid request (400/422), or a 403/404 with `fatalErrors: 'permanent'`, errored the Observable. Nothing moves it any more. */
export interface FailedState {
  readonly kind: 'failed';
  readonly memory: ReflectorMemory;
  readonly error: Error;
}

/**
 * What moves the machine: the ends of requests and timers. `items` are already transformed (the
 * runtime applies `transform`; a throw arrives as a failure with a {@link TransformError}).
 */
export type ReflectorInput<T> =
  | { readonly type: 'start' }
  | { readonly type: 'page'; readonly response: ListResponse<T> }
  /** A part of the page in flight, not its last ({@link ListerWatcher.list} may emit a page in parts). */
  | { readonly type: 'pagePart'; readonly response: ListResponse<T> }
  | { readonly type: 'listFailed'; readonly error: unknown }
  | { readonly type: 'opened' }
  | { readonly type: 'initialEventsEnd'; readonly resourceVersion: string; readonly items: readonly T[] }
  | WatchEnded
  | { readonly type: 'backoffElapsed' };

/** A watch request ended: the server closed it (`error` undefined), or it failed with `error`. */
export interface WatchEnded {
  readonly type: 'watchEnded';
  readonly error: unknown;
  /** `OPEN` was seen: the server accepted the watch. */
  readonly opened: boolean;
  /** Events delivered (everything but `OPEN` and `PROGRESS`). */
  readonly events: number;
  /** From the request's start to its end, on the scheduler's clock. */
  readonly durationMs: number;
  /** `lastSyncRV` as this watch's events left it (R6); ignored before a streaming list's bookmark. */
  readonly resourceVersion: string;
}

/**
 * What the runtime must do, in order. At most one effect starts something (`list`, `watch`,
 * `backOff`) or ends everything (`fail`), and it is always the last one.
 */
export type ReflectorEffect<T> =
  | { readonly type: 'emit'; readonly event: ListStart | ListPage<T> | ListDone }
  | { readonly type: 'status'; readonly status: ListWatchStatus }
  | { readonly type: 'list'; readonly request: ListRequest }
  | { readonly type: 'watch'; readonly request: WatchRequest }
  | BackOffEffect
  | { readonly type: 'fail'; readonly error: Error };

/** Wait one backoff delay — at the slow end for 403/404, Retry-After when given — then feed `backoffElapsed`. */
export interface BackOffEffect {
  readonly type: 'backOff';
  readonly cause: Error;
  /** Reported in `BACKING_OFF`. */
  readonly next: 'relist' | 'rewatch';
  readonly slow: boolean;
  readonly retryAfterMs: number | undefined;
}

/** One transition's result: the next state and the effects to perform, in order. */
export interface ReflectorStep<T> {
  readonly state: ReflectorState;
  readonly effects: ReadonlyArray<ReflectorEffect<T>>;
}
