import type { Subscriber } from 'rxjs';
import { bodyTooLargeError } from '../../errors.js';
import { concatBytes, utf8 } from './bytes.js';
import type { TransportResponse } from './httpTransport.js';
import { cancelBody } from './readBody.js';
import { settleBody } from './settleBody.js';

/** The default cap of a body read whole: about V8's longest string (2^29 - 24 UTF-16 units), which no longer body could be decoded into. */
export const defaultMaxBodyBytes = 512 * 1024 * 1024;

/** How {@link readJson} (and {@link readList}) bound a body: at most `bytes`, and the option that sets it (for the error). */
export interface BodyLimit {
  readonly bytes: number;
  readonly option?: string;
}

/**
 * Checks a body against `limit`: call `start()` before reading (false when its `Content-Length` is
 * already over it; the body is then cancelled) and `add(chunk)` for each chunk (throws at the chunk
 * that crosses it, which stops the reading). Either way the subscriber gets a `TransportError` (`bodyTooLarge`).
 */
export function bodyLimiter(response: TransportResponse, subscriber: Pick<Subscriber<unknown>, 'closed' | 'error'>, verb: string, limit: BodyLimit): { start(): boolean; add(chunk: Uint8Array): void } {
  let size = 0;
  return {
    start: () => {
      if (!(Number(response.header('content-length')) > limit.bytes)) return true;
      cancelBody(response);
      if (!subscriber.closed) subscriber.error(bodyTooLargeError(verb, limit.bytes, limit.option));
      return false;
    },
    add: (chunk) => {
      if ((size += chunk.length) > limit.bytes) throw bodyTooLargeError(verb, limit.bytes, limit.option);
    },
  };
}

/**
 * Reads a whole response body, decodes it once, parses it once, emits it and completes. (Lists are
 * read as they arrive by {@link readList}.)
 *
 * A body longer than `limit.bytes` (by its `Content-Length`, or as counted) is abandoned: the body
 * is cancelled and the subscriber gets a `TransportError` (`bodyTooLarge`).
 */
export function readJson<R>(
  response: TransportResponse,
  subscriber: Subscriber<R>,
  map: (value: unknown) => R = (v) => v as R,
  verb = 'get',
  limit: BodyLimit = { bytes: defaultMaxBodyBytes },
): void {
  let parts: Uint8Array[] = [];
  let size = 0;
  const limiter = bodyLimiter(response, subscriber, verb, limit);
  if (!limiter.start()) return;
  settleBody(
    response,
    subscriber,
    verb,
    (chunk) => {
      try {
        limiter.add(chunk);
      } catch (error) {
        parts = [];
        throw error;
      }
      size += chunk.length;
      parts.push(chunk);
    },
    () => map(JSON.parse(utf8(parts.length === 1 ? parts[0]! : concatBytes(parts, size)))),
  );
}
