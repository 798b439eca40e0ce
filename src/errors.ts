/**
 * Every error rx-informer throws or reports, in one catalogue. The informer's messages start with
 * `[informer]`; the controller toolkit's (a {@link ControllerError}, a {@link KubeApiError} of its
 * reads and writes) name the object or request instead; a bad argument's `TypeError` names the
 * part that refused it (`[leaderElection] renewDeadlineMs must be …`, `[resourceClient] …`);
 * `name` is the class name; `cause` keeps what went wrong underneath. Where failures differ only in
 * what happened, one class carries a `reason` (as kube-rs has one `watcher::Error`), so a user
 * writes `error instanceof TransportError && error.reason === 'stalled'`.
 *
 * | class | thrown / reported by | what it means |
 * |---|---|---|
 * | {@link KubeApiError} | sources, on `onStatus` | the API server answered with an error status, or ended a watch with `ERROR` |
 * | {@link TransportError} | sources, on `onStatus` | the bytes between us and the server failed: network, stall, a broken stream |
 * | {@link TransformError} | sources, on `onStatus` | the configured `transform` threw |
 * | {@link InformerError} | informer `errors$`, store updates | a bad object, index function, handler or hook; the informer went on |
 * | {@link NotSyncedError} | `whenSynced()`, `whenAllSynced()` (rejected) | the wait for the first synced snapshot ended without one |
 * | {@link ControllerError} | the controller toolkit (`rx-informer/controller`) | a write lost a race, a reconcile gave up for good, an edit that cannot be sent, a controller that could not stop in time |
 * | {@link UnknownIndexError} | snapshot queries (thrown) | an index that was not configured |
 * | {@link LabelSelectorError} | selector parsing (thrown) | selector text or spec that is not valid |
| {@link ShardSelectorError} | sources (ends the source) | the API server did not apply a `shardSelector` (gate `ShardedListAndWatch` off, or a server older than 1.36) |
 *
 * Bad arguments to a factory are a `TypeError` at call time, before anything is subscribed. On a
 * Node older than 22.19, importing `rx-informer/test-server` and calling any function that takes a
 * KubeConfig throw an `Error` saying so in one line.
 *
 * This module imports nothing: every other room may use it.
 */

/* ---------------------------------------------------------------- the API server said no */

/** The parts of a `metav1.Status` the informer reads. */
export interface KubeStatus {
  /** `Status`. */
  readonly kind?: string;
  /** `Failure` or `Success`. */
  readonly status?: string;
  /** The server's explanation, for people. */
  readonly message?: string;
  /** Machine-readable cause: `NotFound`, `Conflict`, `Expired`, `Forbidden`, `TooManyRequests`, …. */
  readonly reason?: string;
  /** The HTTP status code it goes with. */
  readonly code?: number;
  /** More about the failure: the object concerned, when to retry, field errors. */
  readonly details?: {
    /** Seconds the client should wait before it retries. */
    readonly retryAfterSeconds?: number;
    /** The individual failures, e.g. one per invalid field of a 422. */
    readonly causes?: ReadonlyArray<{
      /** Machine-readable cause, e.g. `FieldValueInvalid`. */
      readonly reason?: string;
      /** The failure, for people. */
      readonly message?: string;
      /** The field concerned, e.g. `metadata.name`. */
      readonly field?: string;
    }>;
    readonly [field: string]: unknown;
  };
  readonly [field: string]: unknown;
}

/** What {@link KubeApiError} is built from. */
export interface KubeApiErrorInit {
  /** `list`, `watch`, `discover`, or a write: `get`, `create`, `update`, `patch`, `apply`, `delete`. */
  readonly verb: string;
  /** The plural resource, e.g. `configmaps` or `widgets.example.com`. */
  readonly resource: string;
  /** Absent for all namespaces / cluster-scoped resources. */
  readonly namespace?: string | undefined;
  /** HTTP status, or the `code` of a watch `ERROR` event. */
  readonly code: number;
  /** The `Status` body, when the server sent one. */
  readonly status?: KubeStatus | undefined;
  /** From `Retry-After` or `Status.details.retryAfterSeconds`. */
  readonly retryAfterSeconds?: number | undefined;
  /** The same request can never succeed, whatever its status code says (discovery of a kind no CRD can add). */
  readonly cannotSucceed?: boolean | undefined;
}

const reasonText: Readonly<Record<number, string>> = {
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  409: 'conflict',
  410: 'expired',
  415: 'unsupported media type',
  422: 'invalid',
  429: 'too many requests',
  500: 'internal error',
  503: 'service unavailable',
  504: 'timeout',
};

/** The {@link KubeApiError}s made with `cannotSucceed` (kept aside, so a copy of an error stays a plain one). */
const cannotSucceed = new WeakSet<Error>();

/** The requests of the informer's own sources; their errors carry its `[informer]` prefix. */
const informerVerbs: ReadonlySet<string> = new Set(['list', 'watch', 'discover']);

/**
 * The API server refused a request (an HTTP error status: a LIST, a WATCH, discovery, or a read or
 * write of the controller toolkit) or ended a watch with an `ERROR` event. The message names the
 * verb, the resource and the namespace, with the informer's prefix for its own requests:
 * `[informer] cannot watch configmaps in namespace x: forbidden (…server message…)`,
 * `cannot create configmaps in namespace x: forbidden (…)`.
 */
export class KubeApiError extends Error {
  /** Always `KubeApiError`. */
  override readonly name = 'KubeApiError';
  /** `list`, `watch`, `discover`, or a write: `get`, `create`, `update`, `patch`, `apply`, `delete`. */
  readonly verb: string;
  /** The plural resource, e.g. `configmaps` or `widgets.example.com`. */
  readonly resource: string;
  /** The namespace of the request; `undefined` for all namespaces or a cluster-scoped resource. */
  readonly namespace: string | undefined;
  /** The HTTP status, or the `code` of a watch `ERROR` event. */
  readonly code: number;
  /** `Status.reason` (`Expired`, `Gone`, `Forbidden`, `TooManyRequests`, …) or `undefined`. */
  readonly reason: string | undefined;
  /** The `Status` body, when the server sent one. */
  readonly status: KubeStatus | undefined;
  /** Seconds to wait before retrying, from `Retry-After` or `Status.details.retryAfterSeconds`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    init: KubeApiErrorInit,
    options?: {
      /** What caused it, kept as the error's `cause`. */
      cause?: unknown;
    },
  ) {
    const where = init.namespace ? ` in namespace ${init.namespace}` : '';
    const text = reasonText[init.code] ?? `HTTP ${init.code}`;
    const detail = init.status?.message ? ` (${init.status.message})` : '';
    super(`${informerVerbs.has(init.verb) ? '[informer] ' : ''}cannot ${init.verb} ${init.resource}${where}: ${text}${detail}`, options);
    this.verb = init.verb;
    this.resource = init.resource;
    this.namespace = init.namespace;
    this.code = init.code;
    this.reason = typeof init.status?.reason === 'string' && init.status.reason !== '' ? init.status.reason : undefined;
    this.status = init.status;
    this.retryAfterSeconds = init.retryAfterSeconds ?? init.status?.details?.retryAfterSeconds;
    if (init.cannotSucceed === true) cannotSucceed.add(this);
  }

  /**
   * 400 or 422: the server refused the request itself (a selector that does not parse, bad list
   * options), so the same request can never succeed; and discovery of a kind that a group version
   * the server serves lacks, in a group no CustomResourceDefinition can use (the core group, `apps`,
   * `batch`: a CRD's group has a dot). A source fails fast on it (unless `fatalErrors: 'never'`),
   * and so does the CLI.
   */
  get invalidRequest(): boolean {
    return this.code === 400 || this.code === 422 || cannotSucceed.has(this);
  }
}

/* ---------------------------------------------------------------- the transport failed us */

/**
 * What broke below the API: `network` — connection refused, reset, DNS, TLS, or a body cut short
 * (`code` is Node's, e.g. `ECONNREFUSED`); `stalled` — no byte for longer than `idleTimeout`, the
 * request was aborted; `veryShortWatch` — a watch closed in under a second with no event (client-go's
 * `VeryShortWatchError`); `noResponse` — a watch whose response had not started after
`noResponseTimeout` (in a browser on HTTP/1.1, most likely queued behind the per-host connection
limit), the request was aborted; `malformedLine` — a watch line that is not a JSON watch event;
 * `lineTooLong` — a watch line longer than `maxLineBytes`; `bodyTooLarge` — a response read whole
 * (a LIST page, discovery) longer than its cap (`maxListBytes` for lists), announced by its
 * `Content-Length` or counted as it arrived; the rest is not read.
 */
export type TransportErrorReason = 'network' | 'stalled' | 'noResponse' | 'veryShortWatch' | 'malformedLine' | 'lineTooLong' | 'bodyTooLarge';

/** Options of the {@link TransportError} constructor. */
export interface TransportErrorOptions {
  /** Default `network`. */
  readonly reason?: TransportErrorReason;
  /** The underlying failure (Node's network error, the parse error), kept as the error's `cause`. */
  readonly cause?: unknown;
  /** Node's error code, for `network`. */
  readonly code?: string | undefined;
  /** `stalled`, `noResponse`: how long nothing arrived, ms. */
  readonly idleMs?: number;
  /** `veryShortWatch`: how long the watch lasted, ms. */
  readonly durationMs?: number;
  /** `malformedLine`: the start of the line (at most 200 characters). */
  readonly line?: string;
  /** `lineTooLong`: the limit that was exceeded, bytes. */
  readonly maxLineBytes?: number;
  /** `bodyTooLarge`: the limit that was exceeded, bytes. */
  readonly maxBodyBytes?: number;
}

/**
 * A LIST or WATCH failed below HTTP, or its stream could not be used; `reason` says how (see
 * {@link TransportErrorReason}). The source reports it on `onStatus` and recovers: it re-watches
 * after a clean break of an open watch, and otherwise backs off and relists. A custom
 * {@link ListerWatcher} reports its own network failures with `new TransportError(verb, message)`.
 */
export class TransportError extends Error {
  /** Always `TransportError`. */
  override readonly name = 'TransportError';
  /** How it failed: see {@link TransportErrorReason}. */
  readonly reason: TransportErrorReason;
  /** `list`, `watch` or `discover`. */
  readonly verb: string;
  /** Node's error code (`ECONNREFUSED`, `ECONNRESET`, …) when the network failed. */
  readonly code: string | undefined;
  /** Set for `stalled` and `noResponse`. */
  readonly idleMs: number | undefined;
  /** Set for `veryShortWatch`. */
  readonly durationMs: number | undefined;
  /** Set for `malformedLine`. */
  readonly line: string | undefined;
  /** Set for `lineTooLong`. */
  readonly maxLineBytes: number | undefined;
  /** Set for `bodyTooLarge`. */
  readonly maxBodyBytes: number | undefined;

  constructor(verb: string, message: string, options: TransportErrorOptions = {}) {
    super(message.startsWith('[informer]') ? message : `[informer] ${verb} failed: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason ?? 'network';
    this.verb = verb;
    this.code = options.code;
    this.idleMs = options.idleMs;
    this.durationMs = options.durationMs;
    this.line = options.line;
    this.maxLineBytes = options.maxLineBytes;
    this.maxBodyBytes = options.maxBodyBytes;
  }
}

/** @internal No byte arrived on a LIST or WATCH for `idleMs`. */
export function stalledError(verb: string, idleMs: number): TransportError {
  return new TransportError(verb, `[informer] ${verb} stalled: no data for ${idleMs} ms`, { reason: 'stalled', idleMs });
}

/**
 * @internal Why a request may have gone `waitingMs` without a response, and the remedy: the
 * message of the `WAITING` status and of the `noResponse` error.
 */
export function noResponseMessage(verb: string, waitingMs: number): string {
  return `[informer] no response to the ${verb} after ${waitingMs} ms: likely queued behind the browser's per-host connection limit (HTTP/1.1: 6, and each open watch holds one). Remedy: rx-informer/relay (every watch over one connection) or HTTP/2`;
}

/** @internal A watch's response had not started after `waitingMs`: aborted. */
export function noResponseError(verb: string, waitingMs: number): TransportError {
  return new TransportError(verb, noResponseMessage(verb, waitingMs), { reason: 'noResponse', idleMs: waitingMs });
}

/** @internal A watch closed after `durationMs` (< 1 s) without an event. */
export function veryShortWatchError(durationMs: number): TransportError {
  return new TransportError('watch', `[informer] very short watch: closed after ${durationMs} ms with no events`, { reason: 'veryShortWatch', durationMs });
}

/** @internal A watch line that is not a JSON watch event. */
export function malformedLineError(line: string, cause?: unknown): TransportError {
  const head = line.length > 200 ? `${line.slice(0, 197)}...` : line;
  return new TransportError('watch', `[informer] malformed watch event: ${JSON.stringify(head)}`, { reason: 'malformedLine', line: head, cause });
}

/** @internal A watch line grew beyond `maxLineBytes` without a newline. */
export function lineTooLongError(maxLineBytes: number): TransportError {
  return new TransportError('watch', `[informer] watch event line exceeds ${maxLineBytes} bytes`, { reason: 'lineTooLong', maxLineBytes });
}

/**
 * @internal A response body read whole grew beyond `maxBodyBytes`.
 *
 * @param option the option that sets the limit, named in the message when there is one.
 */
export function bodyTooLargeError(verb: string, maxBodyBytes: number, option?: string): TransportError {
  const named = option === undefined ? '' : ` (${option})`;
  return new TransportError(verb, `[informer] ${verb} response body exceeds ${maxBodyBytes} bytes${named}`, { reason: 'bodyTooLarge', maxBodyBytes });
}

/* ---------------------------------------------------------------- a user function failed */

/**
 * The configured `transform` threw for an object. The source reports it on `onStatus`, ends the
 * current list or watch, and backs off and relists, as client-go does when its transformer fails;
 * the store keeps what it had meanwhile.
 */
export class TransformError extends Error {
  /** Always `TransformError`. */
  override readonly name = 'TransformError';
  constructor(options: {
    /** What `transform` threw, kept as the error's `cause`. */
    cause: unknown;
  }) {
    super(`[informer] transform threw: ${messageOf(options.cause)}`, options);
  }
}

/**
 * What an {@link InformerError} is about: `invalidObject` — the key function rejected an object
 * (for example one without a name), which was skipped; `indexFunc` — an index function threw or
 * returned something other than strings, and the object was left out of that index; `handler` — a
 * handler added with `addHandler` threw; `hook` — an informer hook such as `onUpdate` threw.
 */
export type InformerErrorReason = 'invalidObject' | 'indexFunc' | 'handler' | 'hook';

/**
 * Options of the {@link InformerError} constructor; which fields are set depends on the reason.
 *
 * @inline
 */
export interface InformerErrorOptions {
  /** What failed underneath (the thrown error), kept as the error's `cause`. */
  readonly cause: unknown;
  /** The cache key concerned (`indexFunc`, `handler`). */
  readonly key?: string;
  /** `invalidObject`: the raw event whose object was rejected (`ADDED`, `LIST_DONE`, …). */
  readonly eventType?: string;
  /** `indexFunc`: the index. */
  readonly indexName?: string;
  /** `handler`: the notification the handler was given. */
  readonly notification?: {
    /** The notification's type. */
    readonly type: 'add' | 'update' | 'delete';
    /** The notification's cache key. */
    readonly key: string;
  };
  /** `hook`: the hook's option name. */
  readonly hook?: string;
}

/**
 * A problem the informer reported on `errors$` (and, for index functions, in a store update's
 * `errors`) and survived: the cache keeps what it had and other consumers go on. `reason` says what
 * failed (see {@link InformerErrorReason}).
 */
export class InformerError extends Error {
  /** Always `InformerError`. */
  override readonly name = 'InformerError';
  /** What failed: see {@link InformerErrorReason}. */
  readonly reason: InformerErrorReason;
  /** The cache key concerned (`indexFunc`, `handler`); `undefined` otherwise. */
  readonly key: string | undefined;
  /** `invalidObject`: the raw event whose object was rejected (`ADDED`, `LIST_DONE`, …). */
  readonly eventType: string | undefined;
  /** `indexFunc`: the index whose function failed. */
  readonly indexName: string | undefined;
  /** `handler`: the notification the handler was given (its type and key). */
  readonly notification: InformerErrorOptions['notification'];
  /** `hook`: the hook's option name, e.g. `onUpdate`. */
  readonly hook: string | undefined;

  constructor(reason: InformerErrorReason, message: string, options: InformerErrorOptions) {
    super(message, { cause: options.cause });
    this.reason = reason;
    this.key = options.key;
    this.eventType = options.eventType;
    this.indexName = options.indexName;
    this.notification = options.notification;
    this.hook = options.hook;
  }
}

/** @internal The key function rejected the object of a `eventType` event. */
export function invalidObjectError(eventType: string, cause: unknown): InformerError {
  const reason = messageOf(cause).replace(/^\[informer\] /, '');
  return new InformerError('invalidObject', `[informer] skipped the object of a ${eventType} event: ${reason}`, { cause, eventType });
}

/** @internal Index function `indexName` failed for `key`. */
export function indexFuncError(indexName: string, key: string, cause: unknown): InformerError {
  const message = `[informer] index function "${indexName}" failed for ${key}: ${messageOf(cause)}; the object is left out of that index`;
  return new InformerError('indexFunc', message, { cause, key, indexName });
}

/** @internal A handler threw for `notification`. */
export function handlerError(notification: { readonly type: 'add' | 'update' | 'delete'; readonly key: string }, cause: unknown): InformerError {
  return new InformerError('handler', `[informer] ${notification.type} handler threw for ${notification.key}: ${messageOf(cause)}`, { cause, key: notification.key, notification });
}

/** @internal The hook `hook` threw. */
export function hookError(hook: string, cause: unknown): InformerError {
  return new InformerError('hook', `[informer] ${hook} threw: ${messageOf(cause)}`, { cause, hook });
}

/* ---------------------------------------------------------------- a wait that ended without a sync */

/**
 * Why a `whenSynced()` gave up: `notConnected` — nothing keeps the informer running (call
 * `connect()` first); `disconnected` — the last subscription (or `connect()`) went away before the
 * first list was applied; `timeout` — `timeoutMs` passed; `aborted` — the `signal` aborted;
 * `failed` — the source gave up for good (a `FAILED` status, e.g. a 404 with `fatalErrors:
 * 'permanent'`).
 */
export type NotSyncedReason = 'notConnected' | 'disconnected' | 'timeout' | 'aborted' | 'failed';

/**
 * `whenSynced()` (or a factory's `whenAllSynced()`) rejected: `reason` says why (see
 * {@link NotSyncedReason}). The message names the informer when it has a name and ends with the
 * last error its source reported, which is also `lastError` and `cause`:
 * `[informer] configmaps: not synced after 5000 ms: list failed: connect ECONNREFUSED 127.0.0.1:1`.
 */
export class NotSyncedError extends Error {
  /** Always `NotSyncedError`. */
  override readonly name = 'NotSyncedError';
  /** Why the wait ended: see {@link NotSyncedReason}. */
  readonly reason: NotSyncedReason;
  /** The informer's name (`informer({ name })`; a factory names each after its resource). */
  readonly informer: string | undefined;
  /** The last error the source reported before the wait ended (the terminal one for `failed`). */
  readonly lastError: Error | undefined;
  /** `timeout`: the time waited, ms. */
  readonly timeoutMs: number | undefined;

  constructor(
    reason: NotSyncedReason,
    message: string,
    options: {
      /** The informer's name. */
      readonly informer?: string | undefined;
      /** The last error its source reported, kept as the error's `cause` too. */
      readonly lastError?: Error | undefined;
      /** `timeout`: the time waited, ms. */
      readonly timeoutMs?: number;
    } = {},
  ) {
    super(message, options.lastError === undefined ? undefined : { cause: options.lastError });
    this.reason = reason;
    this.informer = options.informer;
    this.lastError = options.lastError;
    this.timeoutMs = options.timeoutMs;
  }
}

const notSyncedText: Readonly<Record<NotSyncedReason, string>> = {
  notConnected: 'whenSynced() on an informer that is not running: call connect() first (or subscribe to one of its streams)',
  disconnected: 'disconnected before the first list was applied',
  timeout: 'not synced after {ms} ms',
  aborted: 'whenSynced() aborted before the first list was applied',
  failed: 'the source failed',
};

/** @internal The rejection of a `whenSynced()`, with the informer's name and the source's last error in the message. */
export function notSyncedError(reason: NotSyncedReason, informer: string | undefined, lastError: Error | undefined, timeoutMs?: number): NotSyncedError {
  const text = notSyncedText[reason].replace('{ms}', String(timeoutMs));
  const last = lastError !== undefined ? `: ${messageOf(lastError).replace(/^\[informer\] /, '')}` : reason === 'timeout' || reason === 'aborted' ? ' (the source reported no error)' : '';
  const message = `[informer] ${informer !== undefined ? `${informer}: ` : ''}${text}${last}`;
  return new NotSyncedError(reason, message, { informer, lastError, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
}

/* ---------------------------------------------------------------- a controller could not do its work */

/**
 * What a {@link ControllerError} is about:
 * - `conflict` — a write lost a race with another writer: a 409 (`Conflict`, or `AlreadyExists` for a
 *   create), the 422 the API server answers when a JSON Patch `test` fails (the object changed
 *   since it was read), or a 404 of a write built from an object read earlier (it was deleted since). `cause` is the {@link KubeApiError}. Retrying with a fresh read succeeds, so
 *   a controller treats it as an ordinary error (per-key backoff).
 * - `terminal` — a reconciler gave up on an object for good (see `terminal()`); it is not retried
 *   until something triggers the object again.
 * - `alreadyOwned` — the object has a controller `ownerReference` to another owner.
 * - `invalidEdit` — a draft edit that JSON Patch cannot express (replacing the whole object, a `Map`
 *   or `Set` value), or a status edit that changed more than `status`.
 * - `shutdownTimeout` — reconciles were still running when the shutdown grace period ended; they
 *   were aborted.
 * - `timeout` — a reconcile run outlived the queue's `timeoutMs`; its signal was aborted and the run
 *   failed (retried with backoff).
 */
export type ControllerErrorReason = 'conflict' | 'terminal' | 'alreadyOwned' | 'invalidEdit' | 'shutdownTimeout' | 'timeout';

/** Options of the {@link ControllerError} constructor. */
export interface ControllerErrorOptions {
  /** What caused it (a write conflict's API server answer), kept as the error's `cause`. */
  readonly cause?: unknown;
  /** The cache key of the object concerned, when there is one. */
  readonly key?: string | undefined;
}

/**
 * A controller toolkit failure; `reason` says which (see {@link ControllerErrorReason}). Write
 * conflicts keep the API server's answer as `cause`. Its messages name the object and what
 * happened, without the informer's `[informer]` prefix:
 * `ConfigMap blog-page in demo changed under this patch (resourceVersion 41 → newer): another
 * writer got there first; read it again and retry (a controller's reconcile is retried)`.
 */
export class ControllerError extends Error {
  /** Always `ControllerError`: what a log line and an `error.name` check see. */
  override readonly name = 'ControllerError';
  /** Which failure it is: see {@link ControllerErrorReason}. */
  readonly reason: ControllerErrorReason;
  /** The cache key (`namespace/name`) of the object concerned; `undefined` when there is none. */
  readonly key: string | undefined;

  constructor(reason: ControllerErrorReason, message: string, options: ControllerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.key = options.key;
  }
}

/**
 * @internal Whether a failed write lost a race: a 409 other than a server-side apply field conflict;
 * and for a write built from an object read earlier (`fromRead`: a JSON Patch with tests, a PUT
 * with a resourceVersion), a 404 (the object was deleted since) or a 422 without validation causes,
 * which is how the API server answers a JSON Patch whose `test` failed (or whose path vanished):
 * `422 Invalid`, "the server rejected our request due to an error in our request", the failed test
 * not named (k8s.io/apiserver's patch handler reports it through `NewGenericServerResponse`).
 */
export function isWriteConflict(error: unknown, fromRead: boolean): error is KubeApiError {
  if (!(error instanceof KubeApiError)) return false;
  if (error.code === 404) return fromRead;
  const causes = error.status?.details?.causes ?? [];
  // A server-side apply conflict (another field manager owns a field) is not a race: re-reading
  // does not help, only `force` or a different field set does.
  if (error.code === 409) return !causes.some((cause) => cause.reason === 'FieldManagerConflict');
  return fromRead && error.code === 422 && causes.length === 0;
}

/** @internal The object a conflicting write was about, and what it was based on. */
export interface ConflictTarget {
  readonly kind?: string | undefined;
  readonly namespace?: string | undefined;
  readonly name: string;
  /** The resourceVersion the write was built on (a PUT's, a delete precondition's, a patch's `test`). */
  readonly resourceVersion?: string | undefined;
  /** The paths a JSON Patch tested besides `/metadata/resourceVersion` (`/metadata/finalizers`). */
  readonly tested?: readonly string[] | undefined;
}

/**
 * @internal A write conflict wrapped for the reconcile loop, worded as the race it is: the object,
 * what changed under the write (deleted, created, or newer than the resourceVersion it was built
 * on), and that reading again and retrying is the answer. `key` is `namespace/name`.
 */
export function conflictError(cause: KubeApiError, target: ConflictTarget): ControllerError {
  const object = `${target.kind ? `${target.kind} ` : ''}${target.name}${target.namespace ? ` in ${target.namespace}` : ''}`;
  const from = target.resourceVersion === undefined ? '' : `resourceVersion ${target.resourceVersion} → newer`;
  const basis = [from, ...(target.tested ?? []).map((path) => `${path} no longer as read`)].filter((part) => part !== '').join('; ');
  const what =
    cause.code === 404
      ? `was deleted under this ${cause.verb}`
      : cause.code === 409 && cause.verb === 'create'
        ? 'was created by another writer under this create'
        : `changed under this ${cause.verb}${basis === '' ? '' : ` (${basis})`}`;
  const key = target.namespace ? `${target.namespace}/${target.name}` : target.name;
  return new ControllerError('conflict', `${object} ${what}: another writer got there first; read it again and retry (a controller's reconcile is retried)`, { cause, key });
}

/* ---------------------------------------------------------------- this Node is too old */

/**
 * @internal `what` needs a newer Node than `version`, in one line:
 * `rx-informer/test-server needs Node.js 22.19 or newer; this is v20.20.2`.
 */
export function nodeTooOldError(what: string, purpose: string, minimum: string, version: string): Error {
  return new Error(`${what} needs Node.js ${minimum} or newer${purpose === '' ? '' : ` ${purpose}`}; this is ${version}`);
}

/* ---------------------------------------------------------------- a query that cannot be answered */

/** Thrown by snapshot index queries for an index that was not configured. */
export class UnknownIndexError extends Error {
  /** Always `UnknownIndexError`. */
  override readonly name = 'UnknownIndexError';
  constructor(
    /** The index asked for. */
    readonly indexName: string,
    known: readonly string[],
  ) {
    super(`[informer] index "${indexName}" does not exist${known.length ? ` (known: ${known.join(', ')})` : ' (no indexers configured)'}`);
  }
}

/** Thrown for label selector text or a selector spec that is not valid, naming the offending part. */
export class LabelSelectorError extends Error {
  /** Always `LabelSelectorError`. */
  override readonly name = 'LabelSelectorError';
  constructor(
    /** The selector text (or the spec, as text) that is not valid. */
    readonly selector: string,
    reason: string,
  ) {
    super(`[informer] invalid label selector ${JSON.stringify(selector)}: ${reason}`);
  }
}

/**
 * The API server ignored a `shardSelector`: a LIST answer did not echo it in
 * `metadata.shardInfo`, or an object outside its ranges arrived. The server does not have sharded
 * list and watch on (Kubernetes 1.36+ with the feature gate `ShardedListAndWatch`); retrying cannot
 * help, so the source ends with this (unless `fatalErrors: 'never'`).
 */
export class ShardSelectorError extends Error {
  /** Always `ShardSelectorError`. */
  override readonly name = 'ShardSelectorError';
  constructor(
    /** The `shardSelector` the server ignored. */
    readonly selector: string,
    what: string,
  ) {
    super(`[informer] the API server did not apply shardSelector ${JSON.stringify(selector.length > 120 ? `${selector.slice(0, 117)}...` : selector)}: ${what}; sharded list and watch needs Kubernetes 1.36+ with --feature-gates=ShardedListAndWatch=true on the kube-apiserver`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
