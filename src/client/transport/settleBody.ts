import type { Subscriber } from 'rxjs';
import { TransportError } from '../../errors.js';
import type { TransportResponse } from './httpTransport.js';
import { readBody } from './readBody.js';

/**
 * Reads a body read whole, for {@link readJson} and {@link readList}: each chunk to `onChunk`;
 * when the body ends, emits `decode()` and completes (a throw is a {@link TransportError} naming an
 * invalid body); a connection that closes before the body ended is a {@link TransportError} (ECONNRESET).
 */
export function settleBody<R>(response: TransportResponse, subscriber: Subscriber<R>, verb: string, onChunk: (chunk: Uint8Array) => void, decode: () => R): void {
  readBody(response, subscriber, verb, {
    chunk: onChunk,
    cut: 'the connection closed before the body ended',
    end: () => {
      let value: R;
      try {
        value = decode();
      } catch (error) {
        subscriber.error(invalidBody(verb, error));
        return;
      }
      subscriber.next(value);
      subscriber.complete();
    },
  });
}

/** The error for a body that is not what `verb` expected. */
export const invalidBody = (verb: string, error: unknown): TransportError =>
  new TransportError(verb, `invalid response body: ${(error as Error).message}`, { cause: error });
