import { request as httpRequestFn, type IncomingMessage } from 'node:http';
import { request as httpsRequestFn } from 'node:https';
import { credentialsFailure, type HttpTransport, type TransportResponse } from './httpTransport.js';
import type { RequestContext } from './requestContext.js';

/** A cut body's error: what {@link TransportResponse.body} throws when the connection closed before the body ended. */
const cutShort = (cause?: unknown): Error =>
  Object.assign(new Error('the connection closed before the body ended', cause === undefined ? {} : { cause }), { code: 'ECONNRESET' });

/**
 * The {@link HttpTransport} of `node:http`/`node:https` over a KubeConfig's {@link RequestContext}:
 * the server URL and the per-request options (auth headers, TLS, keep-alive agent) are read afresh
 * for every request, so a request after a 401 carries reloaded credentials.
 */
export function nodeTransport(context: RequestContext): HttpTransport {
  return {
    closeIdleConnections: context.closeIdleConnections,
    request: async (init, signal) => {
      const options = await context.options().catch((error: unknown) => {
        throw credentialsFailure(error);
      });
      signal.throwIfAborted();
      const server = context.server();
      const send = server.protocol === 'https:' ? httpsRequestFn : httpRequestFn;
      const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
      return new Promise<TransportResponse>((resolve, reject) => {
        const request = send({
          ...options,
          method: init.method,
          protocol: server.protocol,
          hostname: server.hostname.replace(/^\[|\]$/g, ''),
          port: server.port,
          path: server.pathname.replace(/\/$/, '') + init.pathAndQuery,
          headers: {
            ...options.headers,
            Accept: init.accept,
            ...(body !== undefined ? { 'Content-Type': init.contentType ?? 'application/json', 'Content-Length': body.length } : {}),
          },
        });
        // Not http.request's own `signal` option: it reaches the socket, and a keep-alive socket
        // back in the agent's pool would be destroyed by a later abort of this request's signal.
        // Nor once the body has ended: its socket may already serve the next request.
        let ended = false;
        const abort = (): void => void (ended || request.destroy());
        signal.addEventListener('abort', abort, { once: true }); // the signal is this request's alone
        request.on('error', reject);
        request.on('response', (response) => {
          // A body read reports its errors through the iteration; one aborted before (or after)
          // it is read must not be an uncaught 'error'.
          response.on('error', () => undefined);
          response.on('end', () => (ended = true));
          resolve({
            status: response.statusCode ?? 0,
            header: (name) => {
              const value = response.headers[name.toLowerCase()];
              return Array.isArray(value) ? value[0] : value;
            },
            body: bodyOf(response),
          });
        });
        request.end(body);
      });
    },
  };
}

/** The response's chunks as they are read; an end before the body completed is a cut. */
async function* bodyOf(response: IncomingMessage): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of response) yield chunk as Buffer;
  } catch (error) {
    throw cutShort(error);
  }
  if (!response.complete) throw cutShort();
}
