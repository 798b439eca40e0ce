import { request as httpRequestFn, type IncomingMessage } from 'node:http';
import { request as httpsRequestFn } from 'node:https';
import { Observable, type Subscriber } from 'rxjs';
import { KubeApiError, TransportError, type KubeStatus } from '../errors.js';
import type { RequestContext } from './requestContext.js';
import { scrubCredentials } from './scrubCredentials.js';

/** What names a request in errors: `cannot <verb> <resource> in namespace <namespace>`. */
export interface RequestTarget {
  readonly verb: string;
  readonly resource: string;
  readonly namespace?: string | undefined;
}

/** The HTTP methods of the Kubernetes API. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One request: method, path (with the query), what to accept, and a body for writes. */
export interface HttpRequestInit {
  readonly method: HttpMethod;
  /** Below the server URL's own path: `/api/v1/namespaces/x/configmaps/y?fieldManager=z`. */
  readonly pathAndQuery: string;
  readonly accept: string;
  /** The serialised body (JSON; JSON is also valid YAML for apply patches). */
  readonly body?: string;
  /** `Content-Type` of the body, e.g. `application/json-patch+json`. */
  readonly contentType?: string;
}

const maxErrorBodyBytes = 1 << 20;

/**
 * A cold HTTP request: on a 2xx response, hands the response to `onResponse` (which reads the body
 * into the subscriber); on another status, reads the (bounded) body and errors with
 * {@link KubeApiError}; on a network failure, errors with {@link TransportError}. Unsubscribing
 * destroys the request and its socket. Credentials are applied per request, so a retry after a 401
 * reloads them.
 */
export function httpRequest<R>(
  context: RequestContext,
  init: HttpRequestInit,
  target: RequestTarget,
  onResponse: (response: IncomingMessage, subscriber: Subscriber<R>) => void,
): Observable<R> {
  return new Observable<R>((subscriber) => {
    let request: ReturnType<typeof httpRequestFn> | undefined;
    let done = false;
    const transportError = (error: unknown): TransportError => {
      const code = (error as { code?: unknown } | null)?.code;
      return new TransportError(target.verb, (error as Error)?.message ?? String(error), {
        cause: error,
        code: typeof code === 'string' ? code : undefined,
      });
    };
    context.options().then(
      (options) => {
        if (subscriber.closed) return;
        let server: URL;
        try {
          server = context.server();
        } catch (error) {
          subscriber.error(error);
          return;
        }
        const basePath = server.pathname.replace(/\/$/, '');
        const send = server.protocol === 'https:' ? httpsRequestFn : httpRequestFn;
        const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
        request = send({
          ...options,
          method: init.method,
          protocol: server.protocol,
          hostname: server.hostname.replace(/^\[|\]$/g, ''),
          port: server.port,
          path: basePath + init.pathAndQuery,
          headers: {
            ...options.headers,
            Accept: init.accept,
            ...(body !== undefined ? { 'Content-Type': init.contentType ?? 'application/json', 'Content-Length': body.length } : {}),
          },
        });
        request.on('error', (error) => {
          if (!done) subscriber.error(transportError(error));
        });
        request.on('response', (response) => {
          const code = response.statusCode ?? 0;
          response.on('error', (error) => {
            if (!done) subscriber.error(transportError(error));
          });
          if (code >= 200 && code < 300) {
            onResponse(response, subscriber);
            return;
          }
          const parts: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < maxErrorBodyBytes) parts.push(chunk);
            size += chunk.length;
          });
          response.on('end', () => {
            subscriber.error(apiError(target, code, Buffer.concat(parts).toString('utf8'), response.headers['retry-after']));
          });
        });
        request.end(body);
      },
      (error: unknown) => subscriber.error(credentialError(target.verb, error)),
    );
    return () => {
      done = true;
      request?.destroy();
    };
  });
}

/**
 * Loading credentials failed. V8's JSON.parse errors quote the start of the text they choke on, and
 * that text is an exec plugin's output or a decoded OIDC id-token, which hold the token: such an
 * error is replaced by a message without the text. Any other failure's message may be what an
 * exec plugin printed on stderr (client-node rejects with it as is), so it is shown scrubbed of
 * whatever looks like a credential, and the original error is not kept as the cause.
 */
function credentialError(verb: string, error: unknown): TransportError {
  if (error instanceof SyntaxError) {
    return new TransportError(verb, 'cannot load credentials: an exec plugin output or a token did not parse as JSON (not shown: it may hold secrets)');
  }
  const text = scrubCredentials(String((error as Error)?.message ?? error).trim());
  const code = (error as { code?: unknown })?.code;
  return new TransportError(verb, `cannot load credentials: ${text}`, typeof code === 'string' ? { code } : {});
}

function apiError(target: RequestTarget, code: number, body: string, retryAfter: string | string[] | undefined): KubeApiError {
  let status: KubeStatus | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object' && (parsed as KubeStatus).kind === 'Status') status = parsed as KubeStatus;
  } catch {
    // Not JSON: keep the text as the message.
  }
  if (!status && body.trim() !== '') status = { message: body.trim().slice(0, 500) };
  const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  const seconds = header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
  return new KubeApiError({ ...target, code, status, retryAfterSeconds: seconds });
}
