import type { Subscriber } from 'rxjs';
import { createListBodyParser } from './listBodyParser.js';
import type { TransportResponse } from '../../client/httpTransport.js';
import { bodyLimiter, defaultMaxBodyBytes, type BodyLimit } from '../../client/readJson.js';
import { invalidBody, settleBody } from '../../client/settleBody.js';

/**
 * Reads a list response: parses it as it arrives ({@link createListBodyParser}: the head first,
 * then the items chunk by chunk), emits the list (through `map`) when the body ends, and completes.
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
    try {
      parser.push(chunk);
    } catch (error) {
      throw invalidBody(verb, error);
    }
  };
  settleBody(response, subscriber, verb, onChunk, () => map(parser.end()));
}
