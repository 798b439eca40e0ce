/**
 * @internal STOPGAP until issue 14's write path (src/sources/http's requests with a method and a
 * body, and the controller's resource client) is on main: the few JSON requests leader election
 * and sharding send — GET, POST and PUT of Leases, merge PATCH of labels — with the library's
 * request context (credentials and TLS from the KubeConfig, keep-alive). Errors are the catalogue's:
 * {@link KubeApiError} for an HTTP error status, {@link TransportError} below HTTP.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Observable } from 'rxjs';
import { KubeApiError, TransportError, type KubeStatus } from '../../errors.js';
import type { RequestContext } from '../../sources/http/requestContext.js';

/** One JSON request: its method, path (with the query), body, and what names it in errors. */
export interface StopgapRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  readonly path: string;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly verb: string;
  readonly resource: string;
  readonly namespace?: string;
}

/** A cold request: the parsed JSON body on 2xx, `undefined` on a 404 to a GET. Unsubscribing destroys it. */
export function stopgapRequest(context: RequestContext, init: StopgapRequest): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    let sent: ReturnType<typeof httpRequest> | undefined;
    const fail = (error: unknown): void => {
      const code = (error as { code?: unknown } | null)?.code;
      subscriber.error(new TransportError(init.verb, (error as Error)?.message ?? String(error), { cause: error, code: typeof code === 'string' ? code : undefined }));
    };
    context.options().then((options) => {
      if (subscriber.closed) return;
      const server = context.server();
      const body = init.body === undefined ? undefined : Buffer.from(JSON.stringify(init.body));
      sent = (server.protocol === 'https:' ? httpsRequest : httpRequest)({
        ...options,
        method: init.method,
        hostname: server.hostname.replace(/^\[|\]$/g, ''),
        port: server.port,
        path: server.pathname.replace(/\/$/, '') + init.path,
        headers: { ...options.headers, Accept: 'application/json', ...(body ? { 'Content-Type': init.contentType ?? 'application/json', 'Content-Length': body.length } : {}) },
      });
      sent.on('error', (error) => subscriber.closed || fail(error));
      sent.on('response', (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          const code = response.statusCode ?? 0;
          const text = Buffer.concat(parts).toString('utf8');
          let json: unknown;
          try {
            json = text === '' ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          if (code >= 200 && code < 300) return subscriber.next(json), subscriber.complete();
          if (code === 404 && init.method === 'GET') return subscriber.next(undefined), subscriber.complete();
          const status = (json as KubeStatus | undefined)?.kind === 'Status' ? (json as KubeStatus) : { message: text.slice(0, 500) };
          subscriber.error(new KubeApiError({ verb: init.verb, resource: init.resource, namespace: init.namespace, code, status }));
        });
      });
      sent.end(body);
    }, fail);
    return () => sent?.destroy();
  });
}
