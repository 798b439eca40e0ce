/**
 * The byte-level seam under every request the library sends: one request in, the response's status,
 * headers and body (a stream of byte chunks) out, abortable with an `AbortSignal`. Two
 * implementations: `node:http`/`https` over a KubeConfig ({@link kubeConfigTransport}, Node only)
 * and WHATWG `fetch` ({@link fetchTransport}: browsers, Node, Deno, Bun). Everything above the bytes
 * — status classification, bounded bodies, line splitting, JSON and list parsing, paging, the
 * ListerWatcher — is written once over this interface ({@link httpRequest} and up).
 */
export interface HttpTransport {
  /**
   * Sends `request`; resolves once the response's head has arrived (any status), rejects when no
   * response came (refused, reset, TLS, credentials). Aborting `signal` cancels the request and
   * its body.
   */
  readonly request: (request: TransportRequest, signal: AbortSignal) => Promise<TransportResponse>;
  /** Closes idle keep-alive connections, where the transport keeps any. */
  readonly closeIdleConnections?: () => void;
}

/** One request, as {@link HttpTransport.request} sends it. */
export interface TransportRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the server URL's own path, with the query: `/api/v1/namespaces/x/configmaps?limit=500`. */
  readonly pathAndQuery: string;
  readonly accept: string;
  /** The serialised body of a write. */
  readonly body?: string;
  /** `Content-Type` of the body (default `application/json`). */
  readonly contentType?: string;
}

/** A response's head and its body. */
export interface TransportResponse {
  readonly status: number;
  /** A header's value (the first, when repeated), by its name in any case; `undefined` when absent. */
  readonly header: (name: string) => string | undefined;
  /**
   * The body's bytes as they arrive. It ends when the body has ended whole; a body cut short (the
   * connection closed, reset or aborted) throws. Stopping the iteration early cancels the body.
   */
  readonly body: AsyncIterable<Uint8Array>;
}

/** How a transport rejects when it could not obtain credentials (an exec plugin failed, a token did not parse): the failure is `cause`. */
export interface CredentialsFailure {
  readonly credentialsFailure: true;
  readonly cause: unknown;
}

/** Wraps a failure to obtain credentials, for {@link HttpTransport.request} to reject with. */
export const credentialsFailure = (cause: unknown): CredentialsFailure => ({ credentialsFailure: true, cause });

/** Whether a transport's rejection is a {@link CredentialsFailure}. */
export const isCredentialsFailure = (error: unknown): error is CredentialsFailure =>
  error !== null && typeof error === 'object' && (error as Partial<CredentialsFailure>).credentialsFailure === true;
