import type { IncomingMessage } from 'node:http';
import type { Subscriber } from 'rxjs';
import { TransportError } from '../sources/transportError.js';

/** Reads a whole response body, decodes it once, parses it once, emits it and completes. */
export function readJson<R>(
  response: IncomingMessage,
  subscriber: Subscriber<R>,
  map: (value: unknown) => R = (v) => v as R,
  verb = 'get',
): void {
  const parts: Buffer[] = [];
  let size = 0;
  response.on('data', (chunk: Buffer) => {
    parts.push(chunk);
    size += chunk.length;
  });
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
