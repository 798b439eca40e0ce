import type { Subscriber } from 'rxjs';
import { createListBodyParser } from './listBodyParser.js';
import type { TransportResponse } from '../../client/transport/httpTransport.js';
import type { ListerWatcher } from '../listerWatcher.js';
import { defaultPageSize } from '../reflector/reflectorConfig.js';
import { bodyLimiter, defaultMaxBodyBytes, type BodyLimit } from '../../client/transport/readJson.js';
import { invalidBody, settleBody } from '../../client/transport/settleBody.js';

/** Items of a streamed list body emitted together, at the least: as many as a page holds by default. */
export const listPartItems = defaultPageSize;

/**
 * Reads a list response: parses it as it arrives ({@link createListBodyParser}: the head first,
 * then the items chunk by chunk), emits the list (through `map`) when the body ends, and completes.
 * A body large enough to be streamed (a one-page list of a whole collection) is emitted in parts:
 * the items parsed so far whenever {@link listPartItems} or more are waiting, each part with the
 * head's fields, and the rest when the body ends (a {@link ListerWatcher}'s list may emit a page in
 * parts), so that the store keys and freezes them while the rest of the body is on the wire.
 *
 * `onHead` gets the parsed head (`kind`, `apiVersion`, `metadata`, and `items: []`) as soon as it
 * has arrived, so a caller can act on `metadata.continue` while the items still stream; at most once.
 * A body that is not JSON, or ends early, is a `TransportError`. A body longer than
 * `limit.bytes` (by its `Content-Length`, or as counted while it streams) is abandoned as
 * {@link readJson} abandons one: the body cancelled, a `TransportError` (`bodyTooLarge`).
 */
export function readList<R>(
  response: TransportResponse,
  subscriber: Subscriber<R>,
  map: (value: unknown) => R,
  verb: string,
  onHead?: (head: unknown) => void,
  limit: BodyLimit = { bytes: defaultMaxBodyBytes },
): void {
  const limiter = bodyLimiter(response, subscriber, verb, limit);
  if (!limiter.start()) return;
  const parser = createListBodyParser(onHead);
  const onChunk = (chunk: Uint8Array): void => {
    limiter.add(chunk);
    let part: Record<string, unknown> | undefined;
    try {
      parser.push(chunk);
      part = parser.takeItems(listPartItems);
    } catch (error) {
      throw invalidBody(verb, error);
    }
    if (part !== undefined) subscriber.next(map(part));
  };
  settleBody(response, subscriber, verb, onChunk, () => map(parser.end()));
}
