/**
 * The relay (rx-informer/relay) and its page half (relayConnection), in Node against the test API
 * server: the reflector's semantics over the relay (paging, watch, 410 relist, resume after the
 * relay's connection drops, streaming list), flow control (a stream the page does not read holds
 * at most its window in the relay, and the other streams go on), and the guards (only GETs below
 * /api and /apis; the page origin).
 */
import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, filter, map, take, toArray, type Observable } from 'rxjs';
import { WebSocket as WsSocket } from 'ws';
import { informer, type KubeObject, type RawEvent } from '../../src/index.js';
import { relayConnection, type RelayConnection } from '../../src/web/index.js';
import { createRelay, type Relay, type RelayOptions } from '../../src/relay/index.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

interface Setup {
  readonly api: TestApiServer;
  readonly relay: Relay;
  readonly server: Server;
  readonly url: string;
  connect(): RelayConnection;
  close(): Promise<void>;
}

async function setup(options: Partial<RelayOptions> = {}, api?: TestApiServer): Promise<Setup> {
  const apiServer = api ?? (await createTestApiServer());
  const relay = createRelay({ upstream: apiServer.url, origins: '*', ...options });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    if (!relay.handleUpgrade(request, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/k8s-relay`;
  const connections: RelayConnection[] = [];
  return {
    api: apiServer,
    relay,
    server,
    url,
    connect: () => {
      const connection = relayConnection({ url });
      connections.push(connection);
      return connection;
    },
    close: async () => {
      for (const connection of connections) connection.close();
      await relay.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await apiServer.close();
    },
  };
}

const cm = (name: string, namespace = 'default', v = '0') => ({ metadata: { name, namespace }, data: { v } });
const types = (source: Observable<RawEvent<KubeObject>>, count: number) =>
  firstValueFrom(source.pipe(filter((e) => e.type !== 'STATUS'), map((e) => (e.type === 'LIST_PAGE' ? `LIST_PAGE(${e.items.length})` : e.type)), take(count), toArray()));

test('a LIST in pages and a WATCH over the relay: the reflector reads them as over fetch', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  for (let i = 0; i < 5; i++) s.api.create('configmaps', cm(`c${i}`));
  const source = s.connect().listWatch<KubeObject>({ version: 'v1', plural: 'configmaps' }, { pageSize: 2, listSemantic: 'mostRecent' });
  const seen = types(source, 6);
  await until(() => s.api.openWatchCount === 1, 'the watch through the relay');
  s.api.create('configmaps', cm('late'));
  t.deepEqual(await seen, ['LIST_START', 'LIST_PAGE(2)', 'LIST_PAGE(2)', 'LIST_PAGE(1)', 'LIST_DONE', 'ADDED']);
  t.deepEqual(
    s.api.requests.filter((r) => r.verb === 'list').map((r) => r.query['limit']),
    ['2', '2', '2'],
  );
});

test('many informers share one relay connection; a 410 relists, a dropped relay connection resumes from the resourceVersion', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  const connection = s.connect();
  const informers = Array.from({ length: 10 }, (_, i) => {
    s.api.create('configmaps', cm('cm', `ns-${i}`));
    const inf = informer(connection.listWatch<KubeObject>({ version: 'v1', plural: 'configmaps', namespace: `ns-${i}` }));
    return inf;
  });
  const subscriptions = informers.map((inf) => inf.connect());
  t.teardown(() => subscriptions.forEach((sub) => sub.unsubscribe()));
  await until(() => s.api.openWatchCount === 10, 'ten watches');
  t.is(s.relay.stats().connections, 1);
  const valueOf = (i: number) => (informers[i]!.snapshot.get(`ns-${i}/cm`) as { data?: { v?: string } } | undefined)?.data?.v;

  s.api.update('configmaps', cm('cm', 'ns-3', '1'));
  await until(() => valueOf(3) === '1', 'the change through the relay');

  const lists = () => s.api.requests.filter((r) => r.verb === 'list').length;
  const listsBefore = lists();
  t.is(s.api.failWatches({ status: 410 }), 10);
  s.api.update('configmaps', cm('cm', 'ns-4', '2'));
  await until(() => valueOf(4) === '2' && s.api.openWatchCount === 10, 'relisted after the 410');
  t.true(lists() >= listsBefore + 10);

  // The relay's connection drops (the backend restarts its relay): every watch resumes, no relist.
  const listsBeforeDrop = lists();
  const watches = () => s.api.requests.filter((r) => r.verb === 'watch').length;
  const watchesBefore = watches();
  // A watch dropped before its first event and within a second is 'very short' and relists (R8): each carries one first.
  for (let i = 0; i < 10; i++) s.api.update('configmaps', cm('cm', `ns-${i}`, 'before-drop'));
  await until(() => informers.every((_, i) => valueOf(i) === 'before-drop'), 'an event on every watch');
  connection.close();
  await until(() => watches() >= watchesBefore + 10 && s.api.openWatchCount === 10, 'every watch again, on a new connection');
  s.api.update('configmaps', cm('cm', 'ns-7', '3'));
  await until(() => valueOf(7) === '3', 'a change after the drop');
  t.is(lists(), listsBeforeDrop, 'resumed from the resourceVersion: no relist');
});

test('a streaming list (sendInitialEvents) over the relay', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  for (let i = 0; i < 3; i++) s.api.create('configmaps', cm(`c${i}`));
  const source = s.connect().listWatch<KubeObject>({ version: 'v1', plural: 'configmaps' }, { streamingList: true });
  t.deepEqual(await types(source, 3), ['LIST_START', 'LIST_PAGE(3)', 'LIST_DONE']);
  t.is(s.api.requests.filter((r) => r.verb === 'list').length, 0);
});

test('flow control: a stream the page does not read holds at most its window in the relay, and the other streams go on', async (t) => {
  const window = 64 * 1024;
  const s = await setup({ streamWindowBytes: window });
  t.teardown(s.close);
  const big = 'x'.repeat(4000);
  for (let i = 0; i < 500; i++) s.api.create('configmaps', { metadata: { name: `big-${i}`, namespace: 'big' }, data: { big } });
  // A raw client that opens a 2 MB list and never gives credit, beside a watch it reads.
  const ws = new WsSocket(s.url);
  await new Promise((resolve) => ws.once('open', resolve));
  t.teardown(() => ws.terminate());
  const received = new Map<number, number>();
  const texts: string[] = [];
  ws.on('message', (data: Buffer, isBinary) => {
    if (!isBinary) return void texts.push(String(data));
    const id = data.readUInt32BE(0);
    received.set(id, (received.get(id) ?? 0) + data.length - 4);
    if (id === 2) ws.send(JSON.stringify({ op: 'credit', id, bytes: data.length - 4 }));
  });
  ws.send(JSON.stringify({ op: 'open', id: 1, path: '/api/v1/namespaces/big/configmaps', accept: 'application/json' }));
  ws.send(JSON.stringify({ op: 'open', id: 2, path: '/api/v1/namespaces/small/configmaps?watch=true&allowWatchBookmarks=true', accept: 'application/json' }));
  await until(() => (received.get(1) ?? 0) >= window && s.api.openWatchCount === 1, 'the list up to its window, and the watch open');
  for (let i = 0; i < 20; i++) s.api.create('configmaps', cm(`small-${i}`, 'small'));
  await until(() => (received.get(2) ?? 0) > 20 * 100, 'the watch events while the list waits');
  const stats = s.relay.stats();
  t.log(`list: ${received.get(1)} bytes received of about 2.1 MB; relay holds ${stats.unackedBytes} unacknowledged bytes`);
  t.is(received.get(1), window, 'the list stopped at its window');
  t.true(stats.unackedBytes <= 2 * window, `${stats.unackedBytes} bytes unacknowledged over two streams`);
  // Credit lets it go on to the end.
  ws.on('message', (data: Buffer, isBinary) => {
    if (isBinary && data.readUInt32BE(0) === 1) ws.send(JSON.stringify({ op: 'credit', id: 1, bytes: data.length - 4 }));
  });
  ws.send(JSON.stringify({ op: 'credit', id: 1, bytes: received.get(1) }));
  await until(() => texts.some((text) => text === JSON.stringify({ op: 'end', id: 1 })), 'the list to its end');
  t.true((received.get(1) ?? 0) > 2_000_000);
});

test('flow control: a page whose network does not drain holds at most connectionBufferBytes queued in the relay, whatever credit it gave', async (t) => {
  const buffer = 256 * 1024;
  const s = await setup({ streamWindowBytes: 64 * 1024 * 1024, connectionBufferBytes: buffer });
  t.teardown(s.close);
  const big = 'x'.repeat(4000);
  for (let i = 0; i < 5000; i++) s.api.create('configmaps', { metadata: { name: `big-${i}`, namespace: 'big' }, data: { big } });
  const ws = new WsSocket(s.url);
  await new Promise((resolve) => ws.once('open', resolve));
  t.teardown(() => ws.terminate());
  let received = 0;
  let ended = false;
  ws.on('message', (data: Buffer, isBinary) => {
    if (isBinary) received += data.length - 4;
    else if (String(data).includes('"end"')) ended = true;
  });
  // A window far beyond the list, and a socket the page stops reading: only the network holds it back.
  ws.send(JSON.stringify({ op: 'open', id: 1, path: '/api/v1/namespaces/big/configmaps', accept: 'application/json' }));
  const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  socket.pause();
  let peak = 0;
  await until(() => {
    peak = Math.max(peak, s.relay.stats().queuedBytes);
    return s.relay.stats().relayedBytes > 0 && s.relay.stats().queuedBytes > buffer / 2;
  }, 'the relay queueing');
  // The kernel's loopback buffers take a few MB; then the relay must stop reading the API server.
  let last = -1;
  let still = 0;
  await until(() => {
    const { relayedBytes, queuedBytes } = s.relay.stats();
    peak = Math.max(peak, queuedBytes);
    still = relayedBytes === last ? still + 1 : 0;
    last = relayedBytes;
    return still >= 40; // 200 ms without a byte more
  }, 'the relay to stop reading');
  const before = s.relay.stats().relayedBytes;
  t.log(`queued at most ${peak} bytes (bound ${buffer} + one frame); relayed ${before} of about 20 MB while the page did not read`);
  t.true(peak <= buffer + 70_000, `${peak} bytes queued`);
  t.true(before < 15_000_000, 'the relay stopped reading the API server');
  socket.resume();
  await until(() => ended, 'the list to its end once the page reads again');
  t.true(received > 20_000_000);
});

test('the relay carries GETs below /api and /apis only, and refuses page origins it does not know', async (t) => {
  const s = await setup({ origins: ['http://app.example'] });
  t.teardown(s.close);
  const refused = await new Promise<number>((resolve) => {
    const ws = new WsSocket(s.url, { origin: 'http://evil.example' });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => resolve(101));
  });
  t.is(refused, 403);
  const ws = new WsSocket(s.url, { origin: 'http://app.example' });
  await new Promise((resolve) => ws.once('open', resolve));
  t.teardown(() => ws.terminate());
  const replies: Array<{ id: number; op: string; message?: string }> = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) replies.push(JSON.parse(String(data)));
  });
  const paths = ['/healthz', '/api/../healthz', '/api/v1/%2e%2e/x', '//evil.example/api'];
  paths.forEach((path, i) => ws.send(JSON.stringify({ op: 'open', id: i + 1, path, accept: 'application/json' })));
  await until(() => replies.length === paths.length, 'every refusal');
  t.deepEqual(replies.map((r) => r.op), paths.map(() => 'error'));
  t.true(replies.every((r) => /only reads below \/api and \/apis/.test(r.message ?? '')));
  t.is(s.api.requests.length, 0, 'nothing reached the API server');
});

test('createRelay checks its options', (t) => {
  t.throws(() => createRelay({ upstream: 'not a url' }), { instanceOf: TypeError, message: /upstream must be a URL/ });
  t.throws(() => createRelay({ upstream: 'http://127.0.0.1:1', streamWindowBytes: -1 }), { instanceOf: TypeError, message: /streamWindowBytes/ });
});
