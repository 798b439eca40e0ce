import type { Subscriber } from 'rxjs';
import type { RequestTarget } from '../../client/transport/httpRequest.js';
import type { TransportResponse } from '../../client/transport/httpTransport.js';
import { readBody } from '../../client/transport/readBody.js';
import { KubeApiError, malformedLineError, TransportError, type KubeStatus } from '../../errors.js';
import type { WatchMessage } from '../listerWatcher.js';
import { createLineReader } from './lineReader.js';

const OPEN: WatchMessage<never> = { type: 'OPEN' };
const PROGRESS: WatchMessage<never> = { type: 'PROGRESS' };

/**
 * Reads a WATCH response body into watch messages: `OPEN` first; the body cut into lines (at most
 * `maxLineBytes` held), each parsed once and emitted as parsed (`{ type, object }`) and stamped
 * `receivedAt` with its chunk's arrival; a chunk that completes no line is a `PROGRESS`. Objects
 * of another kind than `expectedKind` are dropped (R6); an `ERROR` event is a {@link KubeApiError};
 * a body that ends inside a line, or is cut, is a {@link TransportError} (the watch resumes).
 */
export function readWatch<T>(
  response: TransportResponse,
  subscriber: Subscriber<WatchMessage<T>>,
  maxLineBytes: number,
  where: RequestTarget,
  expectedKind: () => string | undefined,
  now: () => number,
): void {
  subscriber.next(OPEN);
  // When the chunk being cut into lines arrived: every event in it arrived then (read once a chunk).
  let arrivedAt = 0;
  const kind = expectedKind();
  const reader = createLineReader(maxLineBytes, (line) => {
    let event: { type?: unknown; object?: unknown };
    try {
      event = JSON.parse(line) as typeof event;
    } catch (error) {
      throw malformedLineError(line, error);
    }
    const type = event?.type;
    if (event === null || typeof event !== 'object' || event.object === null || typeof event.object !== 'object') {
      throw malformedLineError(line);
    }
    if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED' || type === 'BOOKMARK') {
      const objectKind = (event.object as { kind?: unknown }).kind;
      if (kind !== undefined && type !== 'BOOKMARK' && typeof objectKind === 'string' && objectKind !== kind) return;
      if (type !== 'BOOKMARK') (event as { receivedAt?: number }).receivedAt = arrivedAt;
      subscriber.next(event as WatchMessage<T>);
    } else if (type === 'ERROR') {
      const status = event.object as KubeStatus;
      throw new KubeApiError({ ...where, code: typeof status.code === 'number' ? status.code : 500, status });
    } else {
      throw malformedLineError(line);
    }
  });
  readBody(response, subscriber, where.verb, {
    cut: 'the connection closed mid-stream',
    chunk: (chunk) => {
      arrivedAt = now();
      if (!reader.push(chunk)) subscriber.next(PROGRESS);
    },
    end: () => {
      // A body that ends inside a line was cut short: say so (the watch resumes from the last RV).
      const held = reader.pending();
      if (held > 0) subscriber.error(new TransportError(where.verb, `the stream ended inside an event line (${held} bytes dropped)`, { code: 'ECONNRESET' }));
      else subscriber.complete();
    },
  });
}
