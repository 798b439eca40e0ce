import type { IncomingHttpHeaders } from 'node:http';
import type { Verb } from './route.js';

/**
 * One request the test server received, for tests to assert on ("one LIST and five WATCHes").
 * `status` is filled when the response head is sent; `endedAt` when the response is over (for a
 * watch, when the stream closed).
 */
export interface RequestLogEntry {
  /** 1-based arrival order. */
  readonly id: number;
  /** The HTTP method, e.g. `GET`. */
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** Query parameters (the last value of a repeated one). */
  readonly query: Readonly<Record<string, string>>;
  /** API verb for resource requests; `undefined` for discovery and unknown paths. */
  readonly verb: Verb | undefined;
  /** Collection id (`configmaps`, `widgets.example.com`) for resource requests. */
  readonly resource: string | undefined;
  /** The namespace in the URL of a resource request; `undefined` for all namespaces and cluster-scoped resources. */
  readonly namespace: string | undefined;
  /** The object's name in the URL of a request on one object (get, update, patch, delete); `undefined` for a collection. */
  readonly name: string | undefined;
  /** The request headers tests assert on most, when sent. */
  readonly headers: {
    /** `Accept`. */
    readonly accept?: string;
    /** `Content-Type`. */
    readonly contentType?: string;
    /** `Authorization` (the bearer token as sent). */
    readonly authorization?: string;
    /** `User-Agent`. */
    readonly userAgent?: string;
  };
  /** HTTP status of the response (200 for a watch, even one that carries an ERROR event). */
  readonly status: number | undefined;
  /** What answered instead of the normal handler: `fail`, `unauthorized`, `forbidden`. */
  readonly injected: string | undefined;
  /** How long a {@link TestApiServer.delayResponses} rule held the response (`undefined`: none did). */
  readonly delayedMs: number | undefined;
  /** `Date.now()` when the request arrived. */
  readonly startedAt: number;
  /** `Date.now()` when the response head was sent; `undefined` before. */
  readonly respondedAt: number | undefined;
  /** `Date.now()` when the response was over (a watch: its stream closed); `undefined` before. */
  readonly endedAt: number | undefined;
}

/** The mutable view the server fills in. @internal */
export type MutableRequestLogEntry = { -readonly [K in keyof RequestLogEntry]: RequestLogEntry[K] };

/** A fresh log entry for `req`, the `id`-th request. @internal */
export function logEntryFor(id: number, method: string | undefined, rawUrl: string | undefined, headers: IncomingHttpHeaders): MutableRequestLogEntry {
  const url = new URL(rawUrl ?? '/', 'http://localhost');
  return {
    id,
    method: method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    verb: undefined,
    resource: undefined,
    namespace: undefined,
    name: undefined,
    headers: {
      ...(headers.accept !== undefined ? { accept: headers.accept } : {}),
      ...(headers['content-type'] !== undefined ? { contentType: headers['content-type'] } : {}),
      ...(headers.authorization !== undefined ? { authorization: headers.authorization } : {}),
      ...(headers['user-agent'] !== undefined ? { userAgent: headers['user-agent'] } : {}),
    },
    status: undefined,
    injected: undefined,
    delayedMs: undefined,
    startedAt: Date.now(),
    respondedAt: undefined,
    endedAt: undefined,
  };
}
