/** What a reflector reports on `onStatus` while it lists, watches, backs off and relists: the public status union. */
/**
 * What a List+Watch source is doing, delivered to `onStatus` (see {@link ReflectorConfig.onStatus}),
 * in band as `STATUS` raw events, and on an informer's `status$`. Errors never kill the source
 * unless no retry can fix them (see `fatalErrors`): they show up here as `ERROR`, followed by
 * `BACKING_OFF` and then `RELISTING` or `WATCHING` again. A source that gives up ends with
 * `FAILED`, then errors.
 *
 * ```text
 * LISTING(page 0) LISTING(page 1) … WATCHING  ERROR BACKING_OFF RELISTING LISTING … WATCHING
 *                                             ERROR(permanent) FAILED ✕
 * ```
 */
export type ListWatchStatus = ListingStatus | WatchingStatus | BackingOffStatus | RelistingStatus | ErrorStatus | FailedStatus;

/** A list is running; emitted when it starts (`page: 0`) and after every page. @inline */
export interface ListingStatus {
  readonly type: 'LISTING';
  /** The `resourceVersion` the list was asked for (`"0"`, `""` or the last synced one). */
  readonly resourceVersion: string;
  /** True for a streaming list (`sendInitialEvents=true`). */
  readonly streaming: boolean;
  readonly page: number;
  readonly itemsSoFar: number;
  readonly remainingItemCount?: number;
}

/** A watch was accepted by the server and is streaming from `resourceVersion`. @inline */
export interface WatchingStatus {
  readonly type: 'WATCHING';
  readonly resourceVersion: string;
}

/**
 * Waiting `delay` ms before the next attempt (`attempt` counts since the last backoff reset, from 1).
 *
 * @inline
 */
export interface BackingOffStatus {
  readonly type: 'BACKING_OFF';
  readonly attempt: number;
  readonly delay: number;
  readonly cause: Error;
  /** What happens after the delay. */
  readonly next: 'relist' | 'rewatch';
}

/** Why a new list starts. */
export type RelistReason =
  | 'expired'
  | 'tooLargeResourceVersion'
  | 'expiredContinue'
  | 'watchError'
  | 'veryShortWatch'
  | 'listError'
  | 'streamingFallback'
  | 'streamingRetry';

/** A new list cycle begins, and why. @inline */
export interface RelistingStatus {
  readonly type: 'RELISTING';
  readonly reason: RelistReason;
  readonly cause?: Error;
}

/**
 * Something failed. `error` is a {@link KubeApiError}, a {@link TransportError} (its `reason` says
 * how the transport failed), a {@link TransformError}, or an {@link InformerError} with reason
 * `hook` when `afterList` threw (the watch starts anyway, no backoff follows); `permanent` is true for 403 and 404
 * (retried slowly, or fatal with `fatalErrors: 'permanent'`) and for an invalid request, 400 or
 * 422 (fatal unless `fatalErrors: 'never'`).
 *
 * @inline
 */
export interface ErrorStatus {
  readonly type: 'ERROR';
  readonly error: Error;
  readonly permanent: boolean;
}

/**
 * The source gave up: `error` ends it (it errors right after this status). The reflector gives up
 * on an invalid request (400, 422) and, with `fatalErrors: 'permanent'`, on 403 and 404; an
 * informer also reports this way any error that ends its source, whatever the source.
 *
 * @inline
 */
export interface FailedStatus {
  readonly type: 'FAILED';
  readonly error: Error;
}
