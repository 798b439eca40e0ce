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
export type ListWatchStatus = ListingStatus | WatchingStatus | WaitingStatus | BackingOffStatus | RelistingStatus | ErrorStatus | FailedStatus | CrdStatus;

/** A list is running; emitted when it starts (`page: 0`) and after every page (and every part of a page that comes in parts). @inline */
export interface ListingStatus {
  /** A list is running. */
  readonly type: 'LISTING';
  /** The `resourceVersion` the list was asked for (`"0"`, `""` or the last synced one). */
  readonly resourceVersion: string;
  /** True for a streaming list (`sendInitialEvents=true`). */
  readonly streaming: boolean;
  /** Pages received so far in this cycle (0 when it starts). */
  readonly page: number;
  /** Items received so far in this cycle. */
  readonly itemsSoFar: number;
  /** The server's estimate of the items still to come, when it gives one. */
  readonly remainingItemCount?: number;
}

/** A watch was accepted by the server and is streaming from `resourceVersion`. @inline */
export interface WatchingStatus {
  /** A watch is streaming. */
  readonly type: 'WATCHING';
  /** The resourceVersion the watch streams from. */
  readonly resourceVersion: string;
}

/**
 * A LIST or WATCH request has had no response for `waitingMs` (`waitingAfter`, default 5 s): the
 * source is not silently stale, it says so. Nothing else changes: an informer that had synced
 * stays synced, and the request goes on (a watch is aborted with a `noResponse` error after
 * `noResponseTimeout`, then opened again). In a browser over HTTP/1.1 (`kubectl proxy`) the likely
 * cause is the per-host connection limit (6 in Chromium), which every open watch holds one of;
 * `message` says so, and the remedy (the relay, or HTTP/2).
 *
 * ```text
 * LISTING … (a watch request, no response) … WAITING ─► WATCHING   (it answered late)
 *                                            WAITING ─► ERROR(noResponse) ─► WAITING …
 * ```
 *
 * @inline
 */
export interface WaitingStatus {
  /** A request has had no response for a while. */
  readonly type: 'WAITING';
  /** Which request is waiting. */
  readonly verb: 'list' | 'watch';
  /** How long the request has had no response, ms. */
  readonly waitingMs: number;
  /** The likely cause and the remedy, in a sentence. */
  readonly message: string;
}

/**
 * Waiting `delay` ms before the next attempt (`attempt` counts since the last backoff reset, from 1).
 *
 * @inline
 */
export interface BackingOffStatus {
  /** Waiting before the next attempt. */
  readonly type: 'BACKING_OFF';
  /** Which wait this is since the last backoff reset, from 1. */
  readonly attempt: number;
  /** How long this wait is, ms. */
  readonly delay: number;
  /** The failure that led to it. */
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
  /** A new list cycle begins. */
  readonly type: 'RELISTING';
  /** Why the list starts again. */
  readonly reason: RelistReason;
  /** The failure that led to it, when one did. */
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
  /** Something failed; a retry follows, or `FAILED` when none can help. */
  readonly type: 'ERROR';
  /** What failed: a `KubeApiError`, `TransportError`, `TransformError` or `InformerError`. */
  readonly error: Error;
  /** True for 403, 404 and invalid requests (400, 422): retrying soon will not help. */
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
  /** The source gave up. */
  readonly type: 'FAILED';
  /** The error that ends the source (it errors with it right after). */
  readonly error: Error;
}

/**
 * Where the CustomResourceDefinition of a factory informer's resource stands, told when it changes
 * (an informer of a built-in resource never sees these). While the CRD does not serve the
 * resource, the informer makes no request for it; it lists and watches as soon as it does.
 *
 * ```text
 * CRD_MISSING(notFound) … CRD_ESTABLISHED LISTING … WATCHING … CRD_REMOVED … CRD_ESTABLISHED LISTING …
 *                                                  CRD_VERSION_NOT_SERVED … CRD_ESTABLISHED LISTING …
 * ```
 *
 * @inline
 */
export type CrdStatus = CrdMissingStatus | CrdEstablishedStatus | CrdRemovedStatus | CrdVersionNotServedStatus;

/** What every {@link CrdStatus} names. @inline */
export interface CrdStatusBase {
  /** The CRD's name, `<plural>.<group>` (for a resource asked for by kind before its CRD exists, `<Kind> in <group>`). */
  readonly crd: string;
  /** The version the informer reads. */
  readonly version: string;
  /** The versions the CRD serves now (none when it does not exist). */
  readonly servedVersions: readonly string[];
  /** The status in a sentence, for logs and `whenSynced()` messages. */
  readonly message: string;
}

/**
 * The CRD does not exist yet, is not `Established` yet, or is being deleted: the informer waits
 * for it (`whenSynced()` keeps waiting, within its `timeoutMs`). @inline
 */
export interface CrdMissingStatus extends CrdStatusBase {
  /** The CRD is not there, or not ready. */
  readonly type: 'CRD_MISSING';
  /** Whether the CRD does not exist, is not `Established` yet, or is being deleted. */
  readonly reason: 'notFound' | 'notEstablished' | 'terminating';
}

/** The CRD serves the informer's version (found, or back): the informer lists and watches. @inline */
export interface CrdEstablishedStatus extends CrdStatusBase {
  /** The CRD serves the informer's version. */
  readonly type: 'CRD_ESTABLISHED';
}

/**
 * The CRD was deleted, and with it every object of its resource: the informer stopped its
 * requests and its cache is empty (each object left in it was delivered as a delete). It waits for
 * the CRD to come back. @inline
 */
export interface CrdRemovedStatus extends CrdStatusBase {
  /** The CRD was deleted. */
  readonly type: 'CRD_REMOVED';
}

/**
 * The CRD exists but no longer serves the informer's version (`served: false`, or the version was
 * removed): the informer stopped its requests and keeps its cache as it was (the objects still
 * exist, in the served versions), and resumes when the version is served again. @inline
 */
export interface CrdVersionNotServedStatus extends CrdStatusBase {
  /** The CRD no longer serves the informer's version. */
  readonly type: 'CRD_VERSION_NOT_SERVED';
}
