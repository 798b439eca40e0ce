import type { IncomingMessage } from 'node:http';
import type { Subscriber } from 'rxjs';
import { TransportError } from '../errors.js';

/**
 * Ends a response body's reading, for {@link readJson} and {@link readList}: when the body ends,
 * emits `decode()` and completes (a throw is a {@link TransportError} naming an invalid body); a
 * connection that closes before the body ended is a {@link TransportError} (ECONNRESET).
 */
export function settleBody<R>(response: IncomingMessage, subscriber: Subscriber<R>, verb: string, decode: () => R): void {
  response.on('close', () => {
    if (!response.complete && !subscriber.closed) {
      subscriber.error(new TransportError(verb, 'the connection closed before the body ended', { code: 'ECONNRESET' }));
    }
  });
  response.on('end', () => {
    if (subscriber.closed) return;
    let value: R;
    try {
      value = decode();
    } catch (error) {
      subscriber.error(invalidBody(verb, error));
      return;
    }
    subscriber.next(value);
    subscriber.complete();
  });
}

/** The error for a body that is not what `verb` expected. */
export const invalidBody = (verb: string, error: unknown): TransportError =>
  new TransportError(verb, `invalid response body: ${(error as Error).message}`, { cause: error });
