import type { Observable } from 'rxjs';
import { credentialsFailure, type HttpTransport, type TransportResponse } from '../client/transport/httpTransport.js';
import type { ListWatchResource } from '../client/listWatchResource.js';
import type { KubeObject } from '../store/kubeObject.js';
import { transportListerWatcher } from '../sources/http/transportListerWatcher.js';
import type { ListWatchConfig } from '../sources/listWatchConfig.js';
import type { RawEvent } from '../sources/rawEvent.js';
import { reflector } from '../sources/reflector/reflector.js';
import type { RelayRequestMessage, RelayResponseMessage } from './relayProtocol.js';
import { argumentError } from '../options/optionChecks.js';

/** Where the page's relay is and which credentials its streams carry. */
export interface RelayConnectionConfig {
  /** The relay's WebSocket URL: `ws(s)://…`, or a path (`/k8s-relay`) resolved against the page's URL. */
  readonly url: string | URL;
  /**
   * The bearer token each stream carries to the API server (a string, or a function called for
   * every request, so a refreshed token applies). Without one the relay sends none: a `kubectl
   * proxy` behind it authenticates with its own kubeconfig.
   */
  readonly token?: string | (() => string | Promise<string>);
  /** The `WebSocket` class to use; default the global one. */
  readonly WebSocket?: typeof WebSocket;
}

/** One WebSocket to a relay, shared by every source made from it. */
export interface RelayConnection {
  /**
   * `fetchListWatch()` over the relay: the same Reflector and protocol rules, every source of
   * the page on this one connection.
   */
  listWatch<T = KubeObject>(resource: ListWatchResource, config?: ListWatchConfig<T>): Observable<RawEvent<T>>;
  /** Closes the WebSocket: every open stream ends as a dropped connection would (sources resume on a new one). */
  close(): void;
}

interface Stream {
  head?: [(response: TransportResponse) => void, (error: unknown) => void];
  readonly chunks: Uint8Array[];
  wake?: () => void;
  done?: true;
  error?: Error;
  unacked: number;
}

const ackBytes = 32_768;

/**
 * Every List+Watch of a page over ONE WebSocket to `rx-informer/relay` in the app's backend,
 * instead of one HTTP request each: past the browser's 6 connections per host on HTTP/1.1 (`kubectl
 * proxy`), a seventh watch would wait for a connection that never frees. The relay sends each
 * stream to the API server with this page's token, and sends its bytes back under per-stream flow
 * control; the page's reflectors read them as they read a fetch body, so paging, bookmarks, 410,
 * resume and streaming lists are unchanged. The socket opens with the first request; when it
 * drops, the open watches end as a dropped connection ends them (they resume from their
 * resourceVersion on a new socket).
 *
 * ```ts
 * import { informer } from 'rx-informer';
 * import { relayConnection } from 'rx-informer/web';
 *
 * const relay = relayConnection({ url: '/k8s-relay', token: () => sessionStorage.getItem('token') ?? '' });
 * const pods = informer(relay.listWatch({ version: 'v1', plural: 'pods' }));
 * const nodes = informer(relay.listWatch({ version: 'v1', plural: 'nodes' }));
 * ```
 *
 * @throws {TypeError} when no `WebSocket` exists (pass `config.WebSocket`).
 */
export function relayConnection(config: RelayConnectionConfig): RelayConnection {
  const Socket = config.WebSocket ?? globalThis.WebSocket;
  if (typeof Socket !== 'function') throw argumentError('relayConnection', 'no WebSocket in this environment; pass config.WebSocket');
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  const url = new URL(config.url, page);
  if (url.protocol === 'http:' || url.protocol === 'https:') url.protocol = url.protocol.replace('http', 'ws');
  const { token } = config;
  const streams = new Map<number, Stream>();
  let socket: WebSocket | undefined;
  let opened: Promise<WebSocket> | undefined;
  let nextId = 1;

  const send = (message: RelayRequestMessage): void => {
    if (socket?.readyState === 1) socket.send(JSON.stringify(message));
  };
  const wake = (stream: Stream): void => {
    const wakeUp = stream.wake;
    stream.wake = undefined;
    wakeUp?.();
  };
  const fail = (stream: Stream, error: Error): void => {
    if (stream.head) stream.head[1](error);
    stream.head = undefined;
    stream.error = error;
    wake(stream);
  };
  const connect = (): Promise<WebSocket> =>
    (opened ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new Socket(url);
      ws.binaryType = 'arraybuffer';
      socket = ws;
      ws.onopen = () => resolve(ws);
      ws.onclose = () => {
        if (socket === ws) socket = opened = undefined;
        const error = Object.assign(new Error('the relay connection closed'), { code: 'ECONNRESET' });
        reject(Object.assign(new Error(`cannot connect to the relay at ${url.href}`), { code: 'ECONNREFUSED' }));
        for (const stream of streams.values()) fail(stream, error);
        streams.clear();
      };
      ws.onmessage = ({ data }) => {
        if (typeof data !== 'string') {
          const bytes = new Uint8Array(data as ArrayBuffer);
          const stream = streams.get(new DataView(bytes.buffer).getUint32(0));
          if (stream) {
            stream.chunks.push(bytes.subarray(4));
            wake(stream);
          }
          return;
        }
        const message = JSON.parse(data) as RelayResponseMessage;
        const stream = streams.get(message.id);
        if (!stream) return;
        if (message.op === 'head') {
          const { headers } = message;
          stream.head?.[0]({ status: message.status, header: (name) => headers[name.toLowerCase()], body: body(message.id, stream) });
          stream.head = undefined;
        } else if (message.op === 'end') {
          stream.done = true;
          streams.delete(message.id);
          wake(stream);
        } else {
          streams.delete(message.id);
          fail(stream, Object.assign(new Error(message.message), message.code === undefined ? {} : { code: message.code }));
        }
      };
    }));

  async function* body(id: number, stream: Stream): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const chunk = stream.chunks.shift();
        if (chunk) {
          stream.unacked += chunk.length;
          if (stream.unacked >= ackBytes || stream.chunks.length === 0) {
            send({ op: 'credit', id, bytes: stream.unacked });
            stream.unacked = 0;
          }
          yield chunk;
        } else if (stream.error) throw stream.error;
        else if (stream.done) return;
        else await new Promise<void>((resolve) => (stream.wake = resolve));
      }
    } finally {
      if (streams.delete(id)) send({ op: 'cancel', id });
    }
  }

  const transport: HttpTransport = {
    request: async (init, signal) => {
      if (init.method !== 'GET') throw argumentError('relayConnection', `the relay carries GET requests only, not ${init.method}`);
      let bearer: string | undefined;
      try {
        bearer = typeof token === 'function' ? await token() : token;
      } catch (error) {
        throw credentialsFailure(error);
      }
      const ws = await connect();
      const id = nextId++;
      return new Promise<TransportResponse>((resolve, reject) => {
        const stream: Stream = { head: [resolve, reject], chunks: [], unacked: 0 };
        streams.set(id, stream);
        const abort = (): void => {
          if (streams.delete(id)) send({ op: 'cancel', id });
          fail(stream, Object.assign(new Error('aborted'), { name: 'AbortError' }));
        };
        if (signal.aborted) return abort();
        signal.addEventListener('abort', abort, { once: true });
        ws.send(JSON.stringify({ op: 'open', id, path: init.pathAndQuery, accept: init.accept, ...(bearer === undefined ? {} : { token: bearer }) } satisfies RelayRequestMessage));
      });
    },
  };

  return {
    listWatch: (resource, listWatchConfig = {}) => reflector(transportListerWatcher(transport, resource, listWatchConfig, {}, 'relayConnection'), listWatchConfig),
    close: () => socket?.close(),
  };
}
