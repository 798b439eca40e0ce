/**
 * Pure classification of the errors a LIST or WATCH ends with. Only the reflector's transition
 * ({@link reflectorStep}) asks these questions; the answers decide what happens next.
 */
import { KubeApiError, ShardSelectorError, TransportError } from '../../errors.js';

/** 410 Expired/Gone (client-go `isExpiredError`). */
export function isExpired(error: unknown): boolean {
  if (!(error instanceof KubeApiError)) return false;
  if (error.reason === 'Expired' || error.reason === 'Gone') return true;
  return error.code === 410 && !knownReason(error.reason);
}

/** "Too large resource version" (cause `ResourceVersionTooLarge`, or a Timeout with that message). */
export function isTooLargeResourceVersion(error: unknown): boolean {
  if (!(error instanceof KubeApiError)) return false;
  if (error.status?.details?.causes?.some((cause) => cause.reason === 'ResourceVersionTooLarge')) return true;
  if (error.reason === 'ResourceVersionTooLarge') return true;
  const timeout = error.code === 504 || error.reason === 'Timeout';
  return timeout && /too large resource version/i.test(error.status?.message ?? '');
}

/** 429, or connection refused: re-watch after backoff, no relist (R9). */
export function isRetriableWatchError(error: unknown): boolean {
  if (error instanceof KubeApiError) return error.code === 429 || error.reason === 'TooManyRequests';
  return error instanceof TransportError && error.code === 'ECONNREFUSED';
}

/**
 * Errors that retrying will not fix soon: 403 and 404 (RBAC or a CRD may still change) and an
 * invalid request (400, 422). Reported with `permanent: true`; retried at the slow end of the
 * backoff unless they are fatal ({@link isFatal}).
 */
export function isPermanent(error: unknown): boolean {
  return error instanceof KubeApiError && (error.code === 403 || error.code === 404 || isInvalidRequest(error));
}

/** 400 and 422: the server refused the request itself (a selector that does not parse, bad list options). The same request can never succeed. */
export function isInvalidRequest(error: unknown): boolean {
  return error instanceof KubeApiError && error.invalidRequest;
}

/**
 * Whether an error that ended a cycle ends the source: an invalid request or a server that ignored
 * the shard selector unless `fatalErrors` is `'never'`; 403 and 404 with `'permanent'`.
 */
export function isFatal(error: unknown, fatalErrors: 'transient' | 'permanent' | 'never'): boolean {
  if (fatalErrors === 'never') return false;
  return isInvalidRequest(error) || error instanceof ShardSelectorError || (fatalErrors === 'permanent' && isPermanent(error));
}

/** Milliseconds to wait as the server asked, if it did. */
export function retryAfterMs(error: unknown): number | undefined {
  if (error instanceof KubeApiError && error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1000;
  return undefined;
}

/** The idle watchdog cut the request (R5), or a watch's response never started. */
export function isStalled(error: unknown): boolean {
  return error instanceof TransportError && (error.reason === 'stalled' || error.reason === 'noResponse');
}

/**
 * R7: a watch ending that counts as a normal close (`error` is `undefined` when the server closed
 * the stream): the server closed it, the watchdog cut it, or the network broke once the watch was
 * open — except connection refused, which R9 retries after a backoff.
 */
export function isCleanWatchEnd(error: unknown, opened: boolean): boolean {
  if (error === undefined || isStalled(error)) return true;
  return error instanceof TransportError && error.reason === 'network' && opened && error.code !== 'ECONNREFUSED';
}

const knownReasons = new Set([
  'Unauthorized', 'Forbidden', 'NotFound', 'AlreadyExists', 'Conflict', 'Invalid', 'Timeout',
  'ServerTimeout', 'TooManyRequests', 'BadRequest', 'MethodNotAllowed', 'NotAcceptable',
  'RequestEntityTooLarge', 'UnsupportedMediaType', 'InternalError', 'ServiceUnavailable',
]);

function knownReason(reason: string | undefined): boolean {
  return reason !== undefined && knownReasons.has(reason);
}
