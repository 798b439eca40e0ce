import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { fetchTransport } from '../client/transport/fetchTransport.js';
import type { TransportResponse } from '../client/transport/httpTransport.js';
import { argumentError, optionChecks } from '../options/optionChecks.js';
import { relayedHeaders, type RelayRequestMessage, type RelayResponseMessage } from './relayProtocol.js';

/** Options of {@link createRelay}. */
export interface RelayOptions {
  /**
   * The API server as the backend reaches it: a `kubectl proxy` (`http://127.0.0.1:8001`) or the
   * API server itself (`https://…`: then every page sends its own token).
   */
  readonly upstream: string | URL;
  /** The WebSocket path the relay answers (default `/k8s-relay`); other upgrades are left alone. */
  readonly path?: string;
  /**
   * The page origins allowed to connect (a WebSocket is not subject to CORS, so this is the relay's
   * guard against other sites using a visitor's cookies). Default: the origin of the request's own
   * `Host` (the page is served by the same backend); `'*'`: any.
   */
  readonly origins?: '*' | readonly string[];
  /** Bytes of one stream the relay sends ahead of the page's credit (default 262 144). */
  readonly streamWindowBytes?: number;
  /**
   * Bytes one connection may have queued for the network, all streams together (default 4 194 304):
   * past it every stream of the connection waits until the socket drains, whatever credit the page gave.
   */
  readonly connectionBufferBytes?: number;
  /** Streams one connection may hold open at once (default 1 000). */
  readonly maxStreamsPerConnection?: number;
  /** The `fetch` for upstream requests (default the global one); pass one with a TLS dispatcher for a private CA. */
  readonly fetch?: typeof fetch;
}

/** What a relay holds now: for a health endpoint or a gauge. */
export interface RelayStats {
  /** Page WebSocket connections open now. */
  readonly connections: number;
  /** Upstream streams (GETs) open now, all connections together. */
  readonly streams: number;
  /** Bytes sent to pages and not yet credited back: bounded by `streamWindowBytes` per stream. */
  readonly unackedBytes: number;
  /** Bytes queued for the network, all connections together: bounded by `connectionBufferBytes` per connection. */
  readonly queuedBytes: number;
  /** Body bytes relayed since the relay started. */
  readonly relayedBytes: number;
}

/** A relay: mount {@link Relay.handleUpgrade} on the backend's HTTP server's `upgrade` event. */
export interface Relay {
  /**
   * Takes an HTTP upgrade request for the relay's path (returns `true`), or leaves it alone
   * (`false`: another handler's). A request from a page origin that is not allowed is answered 403.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** What the relay holds now: connections, streams and bytes in flight. */
  stats(): RelayStats;
  /** Closes every connection and aborts every upstream request. */
  close(): Promise<void>;
}

interface Upstream {
  readonly abort: AbortController;
  unacked: number;
  resume?: (() => void) | undefined;
}

/**
 * The backend half of `relayConnection()` (`rx-informer/web`): a WebSocket endpoint that carries every List+Watch
 * of a page over one connection, whatever the browser's per-host connection limit. Each stream
 * goes to `upstream` as a GET of its own, **with the page's bearer token and nothing else**: the
 * relay adds no credentials, so a page can watch exactly what its token (or, behind a `kubectl
 * proxy`, the proxy's identity, which the page could reach directly anyway) may watch. Only GETs
 * below `/api` and `/apis` are relayed. The body bytes go back unparsed, under per-stream flow
 * control (see {@link RelayRequestMessage}), so one busy stream neither starves the others nor
 * grows the relay's memory: at most `streamWindowBytes` per open stream that the page has not
 * credited, and at most `connectionBufferBytes` per connection queued for a slow network.
 *
 * ```ts
 * import { createServer } from 'node:http';
 * import { createRelay } from 'rx-informer/relay';
 *
 * const relay = createRelay({ upstream: 'http://127.0.0.1:8001' }); // kubectl proxy
 * const server = createServer((_request, response) => response.writeHead(404).end()); // the app's own handler
 * server.on('upgrade', (request, socket, head) => {
 *   if (!relay.handleUpgrade(request, socket, head)) socket.destroy();
 * });
 * server.listen(8080);
 * ```
 *
 * @throws {TypeError} for an option that is not valid, or when `upstream` is not a URL.
 */
export function createRelay(options: RelayOptions): Relay {
  const check = optionChecks('createRelay', options);
  const window = check.positiveInteger('streamWindowBytes', options.streamWindowBytes) ?? 262_144;
  const maxStreams = check.positiveInteger('maxStreamsPerConnection', options.maxStreamsPerConnection) ?? 1_000;
  const connectionBuffer = check.positiveInteger('connectionBufferBytes', options.connectionBufferBytes) ?? 4_194_304;
  const path = options.path ?? '/k8s-relay';
  let upstream: URL;
  try {
    upstream = new URL(options.upstream);
  } catch {
    throw argumentError('createRelay', `upstream must be a URL, got ${JSON.stringify(String(options.upstream))}`);
  }
  const server = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  const connections = new Map<WebSocket, { queued: number }>();
  const open = new Set<Upstream>();
  let relayedBytes = 0;

  const allowed = (request: IncomingMessage): boolean => {
    const origin = request.headers.origin;
    if (options.origins === '*') return true;
    if (origin === undefined) return false;
    if (options.origins !== undefined) return options.origins.includes(origin);
    try {
      return new URL(origin).host === request.headers.host;
    } catch {
      return false;
    }
  };

  const serve = (ws: WebSocket): void => {
    const connection = { queued: 0 };
    connections.set(ws, connection);
    const streams = new Map<number, Upstream>();
    const wake = (stream: Upstream): void => {
      const resume = stream.resume;
      stream.resume = undefined;
      resume?.();
    };
    // A frame left the process: the streams that waited on the connection's buffer may go on.
    const written = (bytes: number) => (): void => {
      connection.queued -= bytes;
      if (connection.queued < connectionBuffer) for (const stream of streams.values()) if (stream.unacked < window) wake(stream);
    };
    const reply = (message: RelayResponseMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const finish = (id: number, stream: Upstream): void => {
      streams.delete(id);
      open.delete(stream);
    };

    const relay = async (id: number, stream: Upstream, message: Extract<RelayRequestMessage, { op: 'open' }>): Promise<void> => {
      const transport = fetchTransport({ baseUrl: upstream, ...(message.token === undefined ? {} : { token: message.token }), ...(options.fetch ? { fetch: options.fetch } : {}) });
      let response: TransportResponse;
      try {
        response = await transport.request({ method: 'GET', pathAndQuery: message.path, accept: message.accept }, stream.abort.signal);
      } catch (error) {
        const cause = (error as { cause?: { code?: unknown } })?.cause;
        const code = (error as { code?: unknown })?.code ?? cause?.code;
        if (!stream.abort.signal.aborted) reply({ op: 'error', id, message: `the relay could not reach the API server: ${(error as Error)?.message ?? error}`, ...(typeof code === 'string' ? { code } : {}) });
        return finish(id, stream);
      }
      const headers: Record<string, string> = {};
      for (const name of relayedHeaders) {
        const value = response.header(name);
        if (value !== undefined) headers[name] = value;
      }
      reply({ op: 'head', id, status: response.status, headers });
      try {
        for await (const chunk of response.body) {
          // Send what the page has room for, wait for its credit, send on; read the next chunk
          // only then: the API server's TCP window takes the pressure.
          for (let at = 0; at < chunk.length; ) {
            while ((stream.unacked >= window || connection.queued >= connectionBuffer) && !stream.abort.signal.aborted) await new Promise<void>((resolve) => (stream.resume = resolve));
            if (stream.abort.signal.aborted || ws.readyState !== ws.OPEN) return;
            const part = chunk.subarray(at, at + window - stream.unacked);
            const frame = Buffer.allocUnsafe(4 + part.length);
            frame.writeUInt32BE(id, 0);
            frame.set(part, 4);
            connection.queued += frame.length;
            ws.send(frame, written(frame.length));
            at += part.length;
            stream.unacked += part.length;
            relayedBytes += part.length;
          }
        }
        if (!stream.abort.signal.aborted) reply({ op: 'end', id });
      } catch (error) {
        if (!stream.abort.signal.aborted) reply({ op: 'error', id, message: `the API server's response was cut short: ${(error as Error)?.message ?? error}`, code: 'ECONNRESET' });
      } finally {
        finish(id, stream);
      }
    };

    const onMessage = (data: RawData, isBinary: boolean): void => {
      let message: RelayRequestMessage;
      try {
        if (isBinary) throw new Error('binary');
        message = JSON.parse(String(data)) as RelayRequestMessage;
        if (typeof message?.id !== 'number') throw new Error('no id');
      } catch {
        ws.close(1008, 'not a relay message');
        return;
      }
      const stream = streams.get(message.id);
      if (message.op === 'credit') {
        if (stream === undefined || typeof message.bytes !== 'number') return;
        stream.unacked = Math.max(0, stream.unacked - message.bytes);
        if (connection.queued < connectionBuffer) wake(stream);
      } else if (message.op === 'cancel') {
        if (stream === undefined) return;
        stream.abort.abort();
        wake(stream);
        finish(message.id, stream);
      } else if (message.op === 'open') {
        const refused = stream !== undefined ? 'the stream id is in use' : streams.size >= maxStreams ? `more than ${maxStreams} open streams on one connection` : refusedPath(message);
        if (refused !== undefined) return reply({ op: 'error', id: message.id, message: `the relay refused the request: ${refused}` });
        const created: Upstream = { abort: new AbortController(), unacked: 0 };
        streams.set(message.id, created);
        open.add(created);
        void relay(message.id, created, message);
      }
    };
    ws.on('message', onMessage);
    ws.on('close', () => {
      connections.delete(ws);
      for (const [id, stream] of streams) {
        stream.abort.abort();
        wake(stream);
        finish(id, stream);
      }
    });
    ws.on('error', () => ws.terminate());
  };

  return {
    handleUpgrade(request, socket, head) {
      if (new URL(request.url ?? '/', 'http://relay').pathname !== path) return false;
      if (!allowed(request)) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return true;
      }
      server.handleUpgrade(request, socket, head, serve);
      return true;
    },
    stats: () => {
      let unackedBytes = 0;
      for (const stream of open) unackedBytes += stream.unacked;
      let queuedBytes = 0;
      for (const connection of connections.values()) queuedBytes += connection.queued;
      return { connections: connections.size, streams: open.size, unackedBytes, queuedBytes, relayedBytes };
    },
    close: async () => {
      for (const ws of connections.keys()) ws.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Why an `open` is refused: not a GET path below `/api` or `/apis`, or one that climbs out of it. */
function refusedPath(message: Extract<RelayRequestMessage, { op: 'open' }>): string | undefined {
  const { path, accept, token } = message;
  if (typeof path !== 'string' || typeof accept !== 'string' || (token !== undefined && typeof token !== 'string')) return 'the request is malformed';
  const pathname = path.split('?')[0]!;
  if (!/^\/apis?(\/|$)/.test(pathname) || /(^|\/)\.\.?(\/|$)|\/\/|\\|%2e|%2f|%5c/i.test(pathname)) return `only reads below /api and /apis are relayed, not ${JSON.stringify(path.slice(0, 200))}`;
  return undefined;
}
