import { Observable, type Subscriber } from 'rxjs';
import { KubeApiError, TransportError, type KubeStatus } from '../../errors.js';
import { concatBytes, utf8 } from './bytes.js';
import { isCredentialsFailure, type HttpTransport, type TransportRequest, type TransportResponse } from './httpTransport.js';
import { readBody } from './readBody.js';
import { scrubCredentials } from './scrubCredentials.js';
import { isArgumentError } from '../../options/optionChecks.js';

/** What names a request in errors: `cannot <verb> <resource> in namespace <namespace>`. */
export interface RequestTarget {
  readonly verb: string;
  readonly resource: string;
  readonly namespace?: string | undefined;
}

/** The HTTP methods of the Kubernetes API. */
export type HttpMethod = TransportRequest['method'];

/** One request: method, path (with the query), what to accept, and a body for writes. */
export type HttpRequestInit = TransportRequest;

const maxErrorBodyBytes = 1 << 20;

/**
 * A cold HTTP request over a {@link HttpTransport}: on a 2xx response, hands the response to
 * `onResponse` (which reads the body into the subscriber); on another status, reads the (bounded)
 * body and errors with {@link KubeApiError}; on a network failure, errors with
 * {@link TransportError}. Unsubscribing aborts the request and its body. Credentials are the
 * transport's, applied per request, so a retry after a 401 reloads them.
 */
export function httpRequest<R>(
  transport: HttpTransport,
  init: HttpRequestInit,
  target: RequestTarget,
  onResponse: (response: TransportResponse, subscriber: Subscriber<R>) => void,
): Observable<R> {
  return new Observable<R>((subscriber) => {
    const abort = new AbortController();
    transport.request(init, abort.signal).then(
      (response) => {
        if (subscriber.closed) return;
        if (response.status >= 200 && response.status < 300) {
          onResponse(response, subscriber);
          return;
        }
        const parts: Uint8Array[] = [];
        let size = 0;
        readBody(response, subscriber, target.verb, {
          cut: 'the connection closed before the error body ended',
          chunk: (chunk) => {
            if (size < maxErrorBodyBytes) parts.push(chunk);
            size += chunk.length;
          },
          end: () => subscriber.error(apiError(target, response.status, utf8(concatBytes(parts)), response.header('retry-after'))),
        });
      },
      (error: unknown) => {
        if (subscriber.closed) return;
        subscriber.error(requestError(target.verb, error));
      },
    );
    return () => abort.abort();
  });
}

/** A transport's rejection as the error the subscriber gets: credentials, the library's own errors, or a {@link TransportError}. */
function requestError(verb: string, error: unknown): Error {
  if (isCredentialsFailure(error)) return credentialError(verb, error.cause);
  if (error instanceof TransportError || isArgumentError(error)) return error;
  // fetch rejects with a bare TypeError ('fetch failed') whose cause says what failed (undici: ECONNREFUSED …).
  const own = (error as { code?: unknown } | null)?.code;
  const cause = own === undefined ? (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause : undefined;
  const code = own ?? cause?.code;
  const message = String((error as Error)?.message ?? error) + (typeof cause?.message === 'string' && cause.message !== '' ? `: ${cause.message}` : '');
  return new TransportError(verb, message, { cause: error, code: typeof code === 'string' ? code : undefined });
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

function apiError(target: RequestTarget, code: number, body: string, retryAfter: string | undefined): KubeApiError {
  let status: KubeStatus | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object' && (parsed as KubeStatus).kind === 'Status') status = parsed as KubeStatus;
  } catch {
    // Not JSON: keep the text as the message.
  }
  if (!status && body.trim() !== '') status = { message: body.trim().slice(0, 500) };
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  return new KubeApiError({ ...target, code, status, retryAfterSeconds: seconds });
}
