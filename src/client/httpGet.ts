import type { IncomingMessage } from 'node:http';
import type { Observable, Subscriber } from 'rxjs';
import { httpRequest, type RequestTarget } from './httpRequest.js';
import type { RequestContext } from './requestContext.js';

export type { RequestTarget } from './httpRequest.js';

/**
 * A cold GET ({@link httpRequest} with the method and no body): LIST pages, WATCH streams and
 * discovery documents. Errors and cancellation are {@link httpRequest}'s.
 */
export function httpGet<R>(
  context: RequestContext,
  pathAndQuery: string,
  accept: string,
  target: RequestTarget,
  onResponse: (response: IncomingMessage, subscriber: Subscriber<R>) => void,
): Observable<R> {
  return httpRequest(context, { method: 'GET', pathAndQuery, accept }, target, onResponse);
}
