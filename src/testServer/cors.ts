import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Which web pages may call the test server from a browser (CORS): `'*'` for any origin, or a list
 * of origins (`'http://127.0.0.1:5173'`). Credentials (cookies, `Authorization`) are allowed; the
 * page's origin is echoed rather than `*`, as a credentialed request needs.
 */
export interface CorsConfig {
  /** `'*'` for any origin, or the origins allowed, e.g. `['http://127.0.0.1:5173']`. */
  readonly origins: '*' | readonly string[];
}

const allowHeaders = 'Authorization, Accept, Content-Type';
const allowMethods = 'GET, POST, PUT, PATCH, DELETE';

/**
 * Adds the CORS headers to a response for an allowed `Origin`, and answers a preflight (`OPTIONS`
 * with `Access-Control-Request-Method`) itself: `true` when it did (the request needs nothing more).
 */
export function answerCors(config: CorsConfig, req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || (config.origins !== '*' && !config.origins.includes(origin))) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
  res.setHeader('Vary', 'Origin');
  if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
  res.writeHead(204, { 'Access-Control-Allow-Methods': allowMethods, 'Access-Control-Allow-Headers': allowHeaders, 'Access-Control-Max-Age': '600' });
  res.end();
  return true;
}
