import type { Subscriber } from 'rxjs';
import { TransportError } from '../../errors.js';
import type { TransportResponse } from './httpTransport.js';

/** What {@link readBody} does with a body: each chunk, then the end. */
export interface BodyHandlers {
  /** Each chunk as it arrives. A throw stops reading (the body is cancelled) and errors the subscriber with what was thrown. */
  readonly chunk: (chunk: Uint8Array) => void;
  /** The body ended whole (not called once the subscriber has closed). */
  readonly end: () => void;
  /** The message of the {@link TransportError} (ECONNRESET) for a body cut short. */
  readonly cut: string;
}

/**
 * Reads a response body, the one loop every reader (JSON documents, lists, watch streams, error
 * bodies) runs over an {@link HttpTransport}'s bytes: chunks to `handlers.chunk` until the body
 * ends (`handlers.end`), the subscriber closes, or a handler throws; reading that stops early
 * cancels the body. A body cut short errors the subscriber with a {@link TransportError}.
 */
export function readBody(response: TransportResponse, subscriber: Pick<Subscriber<unknown>, 'closed' | 'error'>, verb: string, handlers: BodyHandlers): void {
  void (async () => {
    try {
      for await (const chunk of response.body) {
        if (subscriber.closed) return;
        try {
          handlers.chunk(chunk);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        if (subscriber.closed) return;
      }
    } catch (error) {
      if (subscriber.closed) return;
      const code = (error as { code?: unknown } | null)?.code;
      subscriber.error(new TransportError(verb, handlers.cut, { cause: error, code: typeof code === 'string' ? code : 'ECONNRESET' }));
      return;
    }
    if (!subscriber.closed) handlers.end();
  })();
}

/** Cancels a body that is not going to be read. */
export function cancelBody(response: TransportResponse): void {
  void response.body[Symbol.asyncIterator]().return?.();
}
