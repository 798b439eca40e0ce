import type { Observable, Subscriber } from 'rxjs';
import type { HttpTransport, TransportResponse } from './httpTransport.js';
import { httpRequest, type RequestTarget } from './httpRequest.js';

export type { RequestTarget } from './httpRequest.js';

/**
 * A cold GET ({@link httpRequest} with the method and no body): LIST pages, WATCH streams and
 * discovery documents. Errors and cancellation are {@link httpRequest}'s.
 */
export function httpGet<R>(
  transport: HttpTransport,
  pathAndQuery: string,
  accept: string,
  target: RequestTarget,
  onResponse: (response: TransportResponse, subscriber: Subscriber<R>) => void,
): Observable<R> {
  return httpRequest(transport, { method: 'GET', pathAndQuery, accept }, target, onResponse);
}
