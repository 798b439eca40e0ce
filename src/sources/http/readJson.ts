import type { IncomingMessage } from 'node:http';
import type { Subscriber } from 'rxjs';
import { bodyTooLargeError, TransportError } from '../../errors.js';

/** Bytes of a list body searched for the start of `"items"` by {@link readJson}'s `peekHead`. */
const maxHeadBytes = 64 * 1024;
const itemsKey = Buffer.from('"items":');

/** The default cap of a body read whole: about V8's longest string (2^29 - 24 UTF-16 units), which no longer body could be decoded into. */
export const defaultMaxBodyBytes = 512 * 1024 * 1024;

/** How {@link readJson} bounds a body: at most `bytes`, and the option that sets it (for the error). */
export interface BodyLimit {
  readonly bytes: number;
  readonly option?: string;
}

/**
 * Reads a whole response body, decodes it once, parses it once, emits it and completes.
 *
 * With `peekHead`, a list body's head is handed over as soon as it has arrived: everything before
 * `"items":`, parsed as an object (the apiserver writes `kind`, `apiVersion` and `metadata` first),
 * so a caller can act on `metadata.continue` while the items still stream. Called at most once, and
 * not at all when the head is not found within 64 KiB or does not parse.
 *
 * A body longer than `limit.bytes` (by its `Content-Length`, or as counted) is abandoned: the
 * response is destroyed and the subscriber gets a {@link TransportError} (`bodyTooLarge`).
 */
export function readJson<R>(
  response: IncomingMessage,
  subscriber: Subscriber<R>,
  map: (value: unknown) => R = (v) => v as R,
  verb = 'get',
  peekHead?: (head: unknown) => void,
  limit: BodyLimit = { bytes: defaultMaxBodyBytes },
): void {
  const parts: Buffer[] = [];
  let size = 0;
  const tooLarge = (): void => {
    parts.length = 0;
    response.destroy();
    if (!subscriber.closed) subscriber.error(bodyTooLargeError(verb, limit.bytes, limit.option));
  };
  const announced = Number(response.headers['content-length']);
  if (announced > limit.bytes) return tooLarge();
  let peeking = peekHead !== undefined;
  // The last bytes already searched, so a key split across two chunks is still found; each chunk is
  // searched once (small chunks must not make this quadratic).
  let tail = Buffer.alloc(0);
  response.on('data', (chunk: Buffer) => {
    if (subscriber.closed) return;
    size += chunk.length;
    if (size > limit.bytes) return tooLarge();
    parts.push(chunk);
    if (peeking) peek(chunk);
  });
  const peek = (chunk: Buffer): void => {
    const window = tail.length === 0 ? chunk : Buffer.concat([tail, chunk]);
    const found = window.indexOf(itemsKey);
    if (found < 0) {
      if (size > maxHeadBytes) peeking = false;
      else tail = Buffer.from(window.subarray(Math.max(0, window.length - itemsKey.length + 1)));
      return;
    }
    peeking = false;
    const at = size - window.length + found;
    let value: unknown;
    try {
      value = JSON.parse(`${Buffer.concat(parts, size).toString('utf8', 0, at)}"items":[]}`);
    } catch {
      return; // not a head we understand: no early look
    }
    peekHead!(value);
  };
  response.on('close', () => {
    if (!response.complete && !subscriber.closed) {
      subscriber.error(new TransportError(verb, 'the connection closed before the body ended', { code: 'ECONNRESET' }));
    }
  });
  response.on('end', () => {
    if (subscriber.closed) return;
    let value: R;
    try {
      value = map(JSON.parse((parts.length === 1 ? parts[0]! : Buffer.concat(parts, size)).toString('utf8')));
    } catch (error) {
      subscriber.error(new TransportError(verb, `invalid response body: ${(error as Error).message}`, { cause: error }));
      return;
    }
    subscriber.next(value);
    subscriber.complete();
  });
}
