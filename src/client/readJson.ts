import type { IncomingMessage } from 'node:http';
import type { Subscriber } from 'rxjs';
import { bodyTooLargeError } from '../errors.js';
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
 * already over it) and `add(chunk)` for each chunk (false at the chunk that crosses it). Either way
 * the response has been destroyed and the subscriber has its `TransportError` (`bodyTooLarge`).
 */
export function bodyLimiter(response: IncomingMessage, subscriber: Pick<Subscriber<unknown>, 'closed' | 'error'>, verb: string, limit: BodyLimit, onTooLarge?: () => void): { start(): boolean; add(chunk: Buffer): boolean } {
  let size = 0;
  const tooLarge = (): false => {
    onTooLarge?.();
    response.destroy();
    if (!subscriber.closed) subscriber.error(bodyTooLargeError(verb, limit.bytes, limit.option));
    return false;
  };
  return {
    start: () => !(Number(response.headers['content-length']) > limit.bytes) || tooLarge(),
    add: (chunk) => (size += chunk.length) <= limit.bytes || tooLarge(),
  };
}

/**
 * Reads a whole response body, decodes it once, parses it once, emits it and completes. (Lists are
 * read as they arrive by {@link readList}.)
 *
 * A body longer than `limit.bytes` (by its `Content-Length`, or as counted) is abandoned: the
 * response is destroyed and the subscriber gets a `TransportError` (`bodyTooLarge`).
 */
export function readJson<R>(
  response: IncomingMessage,
  subscriber: Subscriber<R>,
  map: (value: unknown) => R = (v) => v as R,
  verb = 'get',
  limit: BodyLimit = { bytes: defaultMaxBodyBytes },
): void {
  const parts: Buffer[] = [];
  let size = 0;
  const limiter = bodyLimiter(response, subscriber, verb, limit, () => void (parts.length = 0));
  if (!limiter.start()) return;
  response.on('data', (chunk: Buffer) => {
    if (subscriber.closed || !limiter.add(chunk)) return;
    size += chunk.length;
    parts.push(chunk);
  });
  settleBody(response, subscriber, verb, () => map(JSON.parse((parts.length === 1 ? parts[0]! : Buffer.concat(parts, size)).toString('utf8'))));
}
