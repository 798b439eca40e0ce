/* Minimal loopback HTTP client for the test API server's tests: plain requests and watch streams. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createTestApiServer, type TestApiServer, type TestApiServerConfig } from '../../src/testServer/index.js';

export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly json: any;
}

export interface RequestOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

/** One HTTP request; resolves with status, headers and body (parsed when it is JSON). */
export function call(url: string, options: RequestOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const headers: Record<string, string> = {
      ...(body !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}),
      ...options.headers,
    };
    const req = httpRequest(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface WatchEventLine {
  readonly type: string;
  readonly object: any;
}

/** An open watch: events as they arrive, the raw chunks, and how the stream ended. */
export interface WatchClient {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly events: WatchEventLine[];
  /** Lines that were not valid JSON. */
  readonly badLines: string[];
  /** Raw body chunks as received. */
  readonly chunks: string[];
  /** Resolves when the body ends: `end` (clean) or `error` (aborted/reset). */
  readonly ended: Promise<'end' | 'error'>;
  /** Resolves once `count` events have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<WatchEventLine[]>;
  close(): void;
}

/** Opens a watch (`url` must carry `watch=true`) and collects its lines. */
export function openWatch(url: string, headers: Record<string, string> = {}): Promise<WatchClient> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      const events: WatchEventLine[] = [];
      const badLines: string[] = [];
      const chunks: string[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        chunks.push(chunk);
        buffer += chunk;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim() === '') continue;
          try {
            events.push(JSON.parse(line) as WatchEventLine);
          } catch {
            badLines.push(line);
          }
        }
        for (const w of [...waiters]) w();
      });
      const ended = new Promise<'end' | 'error'>((done) => {
        res.on('end', () => done('end'));
        res.on('error', () => done('error'));
        res.on('aborted', () => done('error'));
        req.on('error', () => done('error'));
      });
      void ended.then(() => {
        for (const w of [...waiters]) w();
      });
      let isEnded = false;
      void ended.then(() => (isEnded = true));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        badLines,
        chunks,
        ended,
        waitFor(count, timeoutMs = 3000) {
          return new Promise((ok, fail) => {
            const check = (): void => {
              if (events.length >= count) {
                waiters.delete(check);
                clearTimeout(timer);
                ok(events);
              } else if (isEnded) {
                waiters.delete(check);
                clearTimeout(timer);
                fail(new Error(`watch ended with ${events.length} events, wanted ${count}: ${JSON.stringify(events.map((e) => e.type))}`));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`timed out with ${events.length} events, wanted ${count}: ${JSON.stringify(events.map((e) => e.type))}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        close() {
          req.destroy();
        },
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A ConfigMap body. */
export function configMap(namespace: string, name: string, labels?: Record<string, string>, data: Record<string, string> = { k: 'v' }) {
  return { metadata: { name, namespace, ...(labels ? { labels } : {}) }, data };
}


/** Runs `run` against a fresh test API server, closing it afterwards whatever happens. */
export async function withServer(run: (server: TestApiServer) => Promise<void>, config: TestApiServerConfig = {}): Promise<void> {
  const server = await createTestApiServer(config);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}
