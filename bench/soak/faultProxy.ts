/**
 * A fault-injecting HTTP proxy in front of the real kube-apiserver, one per process under test, so a
 * fault can hit one replica alone. The process talks plain HTTP to 127.0.0.1:<port> with no
 * credentials; the proxy forwards each request over HTTPS with the admin client certificate and
 * streams the answer back. Modes:
 *
 * - `pass`: forward.
 * - `blackhole`: a network cut — new requests get no answer, and streams in flight stop
 *   delivering (their sockets stay open, as a dead route leaves them), until the mode changes;
 *   then those sockets are destroyed, as a route coming back finds them reset.
 * - `throttle`: every new request is answered `429 Too Many Requests` with `Retry-After: 1`, the way
 *   API Priority and Fairness rejects; streams in flight go on.
 * - `cutMidLine()`: the next chunk of every open watch stream is cut in the middle of a line and
 *   the connection destroyed (a watch closed mid-line); the mode stays `pass`.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent, request } from 'node:https';
import type { Socket } from 'node:net';

export type ProxyMode = 'pass' | 'blackhole' | 'throttle';

export interface FaultProxy {
  readonly url: string;
  mode: ProxyMode;
  /** Cuts every open watch stream mid-line; resolves with how many were cut. */
  cutMidLine(): number;
  /** Requests forwarded, answered 429, held by a cut. */
  readonly counts: { forwarded: number; throttled: number; held: number; cut: number };
  close(): Promise<void>;
}

export interface Upstream {
  readonly url: string;
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

export async function faultProxy(upstream: Upstream): Promise<FaultProxy> {
  const target = new URL(upstream.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 64, ca: readFileSync(upstream.ca), cert: readFileSync(upstream.cert), key: readFileSync(upstream.key) });
  const watches = new Set<{ cut: () => void }>();
  const held = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const counts = { forwarded: 0, throttled: 0, held: 0, cut: 0 };
  let mode: ProxyMode = 'pass';

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    counts.forwarded++;
    const upstreamReq = request(
      { agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        const isWatch = /[?&]watch=(true|1)/.test(req.url ?? '');
        let cutNext = false;
        const entry = { cut: () => (cutNext = true) };
        if (isWatch) watches.add(entry);
        upstreamRes.on('data', (chunk: Buffer) => {
          if (mode === 'blackhole') return; // a dead route delivers nothing
          if (cutNext) {
            const newline = chunk.indexOf(10);
            const half = Math.max(1, Math.floor((newline > 0 ? newline : chunk.length) / 2));
            res.write(chunk.subarray(0, half));
            counts.cut++;
            watches.delete(entry);
            upstreamRes.destroy();
            res.socket?.destroy();
            return;
          }
          res.write(chunk);
        });
        upstreamRes.on('end', () => {
          watches.delete(entry);
          if (mode !== 'blackhole') res.end();
        });
        upstreamRes.on('error', () => res.socket?.destroy());
        res.on('close', () => {
          watches.delete(entry);
          upstreamRes.destroy();
        });
      },
    );
    upstreamReq.on('error', () => res.socket?.destroy());
    req.pipe(upstreamReq);
  };

  const server: Server = createServer((req, res) => {
    if (mode === 'blackhole') {
      counts.held++;
      held.add(res);
      req.resume();
      res.on('close', () => held.delete(res));
      return;
    }
    if (mode === 'throttle') {
      counts.throttled++;
      req.resume();
      const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Too many requests, please try again later.', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 1 } });
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    forward(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('[soak] proxy: no port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    counts,
    get mode() {
      return mode;
    },
    set mode(next: ProxyMode) {
      const wasCut = mode === 'blackhole';
      mode = next;
      // The route is back: whatever was in flight across the cut finds its connection reset.
      if (wasCut && next !== 'blackhole') for (const socket of sockets) socket.destroy();
    },
    cutMidLine: () => {
      const open = [...watches];
      for (const watch of open) watch.cut();
      return open.length;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
