import type { ListWatchStatus } from './reflector/listWatchStatus.js';

/**
 * What a List+Watch source emits: watch events as the API server sends them, plus the list cycle
 * modelled as kube-rs does (`Init` / `InitApply` / `InitDone`) so that pages can stream, plus what
 * the source is doing (`STATUS`), in order with the rest, as kube-rs keeps errors in its stream.
 *
 * A list cycle is always `LIST_START`, zero or more `LIST_PAGE`, then `LIST_DONE`. A source may
 * abandon a cycle and start another with a new `LIST_START` (for example after a `410` on a
 * continue page); consumers then drop what they buffered. Nothing of a list reaches the store until
 * `LIST_DONE`, so a relist is applied atomically. Watch events (`ADDED`, `MODIFIED`, `DELETED`,
 * `BOOKMARK`) only ever come after a `LIST_DONE`. `STATUS` events may come at any point; they change
 * no object, and the store stages drop them (`informer()` hands them to its `status$`).
 *
 * ```text
 * STATUS(LISTING) LIST_START LIST_PAGE(items…) LIST_DONE(rv) STATUS(WATCHING) ADDED MODIFIED BOOKMARK(rv) …
 * ```
 */
export type RawEvent<T> = WatchEvent<T> | BookmarkEvent | ListStart | ListPage<T> | ListDone | StatusEvent;

/** A watch event carrying an object. @inline */
export interface WatchEvent<T> {
  /** What the server says happened to the object. */
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** The object as the server sent it (the final state for `DELETED`). */
  readonly object: T;
  /**
   * When its bytes arrived on the socket, in epoch ms on the source's clock (its `scheduler`, or
   * a sub-millisecond wall clock): what `informerMetrics()` measures the pipeline's latency from.
   * Set by the HTTP source; a fake may set it or leave it out (then the event is not measured).
   */
  readonly receivedAt?: number;
}

/**
 * A watch bookmark: no object changed, the collection is current as of `resourceVersion`.
 * `initialEventsEnd` is set on the bookmark that ends the initial events of a streaming list.
 *
 * @inline
 */
export interface BookmarkEvent {
  /** A bookmark. */
  readonly type: 'BOOKMARK';
  /** The collection's resourceVersion. */
  readonly resourceVersion: string;
  /** It ends the initial events of a streaming list. */
  readonly initialEventsEnd?: boolean;
}

/** A (re)list begins; anything buffered from an earlier unfinished list is dropped. @inline */
export interface ListStart {
  /** A (re)list begins. */
  readonly type: 'LIST_START';
}

/**
 * One page of a list.
 *
 * `remainingItemCount` is the server's estimate of the items still to come, when it gives one;
 * with `itemsSoFar` it is enough to draw progress.
 *
 * @inline
 */
export interface ListPage<T> {
  /** One page of a list. */
  readonly type: 'LIST_PAGE';
  /** The page's objects. */
  readonly items: readonly T[];
  /**
   * 1-based page number within this list cycle. A large page may come as it arrives, in several
   * `LIST_PAGE`s with the same number (its parts, in order).
   */
  readonly page: number;
  /** Items received in this cycle including this page. */
  readonly itemsSoFar: number;
  /** The server's estimate of the items after this page (`metadata.remainingItemCount`), when it gives one. */
  readonly remainingItemCount?: number;
}

/** The list is complete as of `resourceVersion`: apply it as one atomic replace. @inline */
export interface ListDone {
  /** The list is complete. */
  readonly type: 'LIST_DONE';
  /** The list's resourceVersion: the collection is current as of it. */
  readonly resourceVersion: string;
}

/**
 * What the source is doing, in band: the same {@link ListWatchStatus} values `onStatus` receives,
 * emitted right after each `onStatus` call. A source that fails for good emits a `FAILED` status
 * just before it errors.
 *
 * @inline
 */
export interface StatusEvent {
  /** A status, in band. */
  readonly type: 'STATUS';
  /** What the source is doing. */
  readonly status: ListWatchStatus;
}

/** The `type` of every {@link RawEvent}. */
export type RawEventType = RawEvent<unknown>['type'];
