import { credentialsFailure, type HttpTransport, type TransportResponse } from './httpTransport.js';
import { argumentError } from '../../options/optionChecks.js';

/**
 * Where a fetch transport sends its requests and how it authenticates: what a browser has instead
 * of a KubeConfig.
 */
export interface FetchTransportConfig {
  /**
   * The API server as the page reaches it: a `kubectl proxy` (`http://127.0.0.1:8001`), or the
   * app's own backend that adds credentials (`/k8s`, resolved against the page's URL). Request
   * paths (`/api/v1/pods?watch=true`) go below its path.
   */
  readonly baseUrl: string | URL;
  /** A bearer token, or a function that gives the current one (called for every request, so a refreshed token applies). */
  readonly token?: string | (() => string | Promise<string>);
  /** `fetch`'s credentials mode: `'include'` sends the browser's cookies to another origin too; default `'same-origin'`. */
  readonly credentials?: 'omit' | 'same-origin' | 'include';
  /** Headers added to every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `fetch` to use; default the global one (browsers, Node ≥ 18, Deno, Bun). */
  readonly fetch?: typeof fetch;
}

/**
 * The {@link HttpTransport} of WHATWG `fetch`: streamed response bodies, `AbortSignal`,
 * `Authorization: Bearer` from `config.token`, cookies by `config.credentials`. What a browser
 * cannot do — client certificates, exec plugins, token files — is the job of the proxy or backend
 * at `baseUrl`.
 *
 * @throws {TypeError} when `baseUrl` is not a URL (relative ones need a page to resolve against) or no `fetch` exists.
 */
export function fetchTransport(config: FetchTransportConfig): HttpTransport {
  if (config === null || typeof config !== 'object') throw argumentError('fetchTransport', 'config must be an object with a baseUrl');
  const base = resolveBase(config.baseUrl);
  const send = config.fetch ?? globalThis.fetch;
  if (typeof send !== 'function') throw argumentError('fetchTransport', 'no fetch in this environment; pass config.fetch');
  const { token } = config;
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'function') {
    throw argumentError('fetchTransport', `token must be a string or a function, got ${typeof token}`);
  }
  const basePath = base.pathname.replace(/\/$/, '');
  return {
    request: async (init, signal) => {
      const headers: Record<string, string> = { ...config.headers, Accept: init.accept };
      if (token !== undefined) {
        let value: string;
        try {
          value = typeof token === 'string' ? token : await token();
        } catch (error) {
          throw credentialsFailure(error);
        }
        headers['Authorization'] = `Bearer ${value}`;
      }
      if (init.body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json';
      const response = await send(new URL(basePath + init.pathAndQuery, base.origin), {
        method: init.method,
        headers,
        credentials: config.credentials ?? 'same-origin',
        signal,
        ...(init.body !== undefined ? { body: init.body } : {}),
      });
      return {
        status: response.status,
        header: (name) => response.headers.get(name) ?? undefined,
        body: chunksOf(response.body),
      } satisfies TransportResponse;
    },
  };
}

function resolveBase(baseUrl: string | URL): URL {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  try {
    return new URL(baseUrl, page);
  } catch {
    throw argumentError('fetchTransport', `baseUrl must be a URL${page === undefined ? ' (an absolute one outside a page)' : ''}, got ${JSON.stringify(String(baseUrl))}`);
  }
}

/** A response body's chunks, read with a reader (every browser has one; not every one iterates a stream). */
async function* chunksOf(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!ended) reader.cancel().catch(() => undefined);
  }
}
