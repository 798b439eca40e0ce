import type { Observable } from 'rxjs';
import type { KubeStatus } from '../errors.js';

/**
 * The I/O seam of {@link reflector}: one LIST page and one WATCH, each as a cold Observable.
 *
 * The HTTP implementation ({@link httpListerWatcher}) bakes the resource path, selectors and
 * `Accept` header into every request, so the list and the watch always agree. Tests substitute
 * `cold()` marbles (client-go's `ListerWatcher` + `FakeControllerSource`).
 *
 * Errors are signalled as Observable errors: {@link KubeApiError} for an HTTP error status or a
 * watch `ERROR` event, {@link TransportError} for the network and for a stream that cannot be read
 * (its `reason` says which).
 */
export interface ListerWatcher<T> {
  /**
   * One LIST request: emits the page as one {@link ListResponse}, or in parts, then completes.
   * Unsubscribing aborts it. A large page may be emitted in parts as it arrives (the HTTP
   * ListerWatcher does so for a streamed body): each part holds the next of the page's items, in
   * order, with the page's `resourceVersion`, `continue`, `remainingItemCount` and `shardInfo` as
   * far as they are known; the last part's are the page's (`toArray()` and the items of every part
   * join them).
   */
  readonly list: (request: ListRequest) => Observable<ListResponse<T>>;
  /**
   * One WATCH request: emits `OPEN` when the server accepted it, then every event in order,
   * `PROGRESS` when bytes arrived that did not finish an event, and completes when the server
   * closes the stream. Unsubscribing aborts it.
   */
  readonly watch: (request: WatchRequest) => Observable<WatchMessage<T>>;
  /**
   * Optional: closes idle pooled connections. The reflector calls it when its subscriber leaves, so
   * nothing it opened outlives it; connections in use by other subscribers are not affected.
   */
  readonly closeIdleConnections?: () => void;
}

/** Query parameters of one LIST page. Absent fields are not sent. */
export interface ListRequest {
  /** `resourceVersion`: how fresh the list must be (`0`: any cached version; absent: the latest). */
  readonly resourceVersion?: string;
  /** `resourceVersionMatch`: how `resourceVersion` applies (`NotOlderThan`, `Exact`). */
  readonly resourceVersionMatch?: string;
  /** `limit`: the most items in one page. */
  readonly limit?: number;
  /** `continue`: the token of the previous page, for the next one. */
  readonly continue?: string;
}

/** One LIST page as the server sent it (items are plain JSON, `kind`/`apiVersion` filled in). */
export interface ListResponse<T> {
  /** The page's objects. */
  readonly items: readonly T[];
  /** `metadata.resourceVersion` of the list; `""` when the server sent none. */
  readonly resourceVersion: string;
  /** `metadata.continue`: the token for the next page; absent or `""` on the last. */
  readonly continue?: string;
  /** `metadata.remainingItemCount`: the server's estimate of the items after this page, when it gives one. */
  readonly remainingItemCount?: number;
  /** `metadata.shardInfo`: the shard selector the server applied, when it applied one. */
  readonly shardInfo?: {
    /** The `shardSelector` the server applied. */
    readonly selector: string;
  };
}

/** Query parameters of one WATCH. `allowWatchBookmarks=true` is always sent. */
export interface WatchRequest {
  /** `resourceVersion`: the version to watch from (events after it). */
  readonly resourceVersion: string;
  /** `timeoutSeconds`: seconds after which the server ends the watch (the reflector's default: an integer in [300, 600), as client-go). */
  readonly timeoutSeconds: number;
  /** `allowWatchBookmarks`: always `true`. */
  readonly allowWatchBookmarks: true;
  /** `sendInitialEvents`: the watch starts with the current objects (a streaming list). */
  readonly sendInitialEvents?: boolean;
  /** `resourceVersionMatch`: `NotOlderThan` with `sendInitialEvents`. */
  readonly resourceVersionMatch?: string;
}

/**
 * A bookmark as the server framed it: only `metadata.resourceVersion` (and annotations) are meaningful.
 *
 * @inline
 */
export interface WatchBookmarkMessage {
  /** A bookmark. */
  readonly type: 'BOOKMARK';
  /** The bookmark's object: only its metadata means anything. */
  readonly object: {
    /** The bookmark's metadata. */
    readonly metadata?: {
      /** The collection's resourceVersion. */
      readonly resourceVersion?: string;
      /** `k8s.io/initial-events-end: "true"` ends the initial events of a streaming list. */
      readonly annotations?: Readonly<Record<string, string>>;
    };
  };
}

/**
 * Signals of the transport rather than the server's events: the watch was accepted, or bytes arrived.
 *
 * @inline
 */
export interface WatchSignal {
  /** `OPEN`: the server accepted the watch; `PROGRESS`: bytes arrived. */
  readonly type: 'OPEN' | 'PROGRESS';
}

/** What {@link ListerWatcher.watch} emits. `ERROR` events arrive as a {@link KubeApiError} error instead. */
export type WatchMessage<T> =
  /** A watch event exactly as the server framed it (the parsed JSON line), and when it arrived (see `WatchEvent.receivedAt`). */
  | {
      /** What the server says happened to the object. */
      readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
      /** The object as the server sent it (the final state for `DELETED`). */
      readonly object: T;
      /** When its bytes arrived, epoch ms on the source's clock; absent when not measured. */
      readonly receivedAt?: number;
    }
  | WatchBookmarkMessage
  | WatchSignal;

export type { KubeStatus };
