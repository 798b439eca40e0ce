import test from 'ava';
import { KubeApiError, TransportError } from '../../src/errors.js';
import type { FetchTransportConfig } from '../../src/client/transport/fetchTransport.js';
import type { ListWatchConfig } from '../../src/sources/listWatchConfig.js';
import { fetchListWatch } from '../../src/sources/fetchListWatch.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { summarize } from './collect.js';
import { fastBackoff, until } from './httpHarness.js';

// The fetch source is the same ListerWatcher as listWatch() over another transport (Node's own
// fetch, undici, here): these check the transport's part (URL, token, streamed bodies, aborts,
// cut connections) and that the shared protocol rules run over it.

const configmaps = { version: 'v1', plural: 'configmaps' } as const;
const cm = (name: string, data?: Record<string, string>) => ({ metadata: { name, namespace: 'default' }, ...(data ? { data } : {}) });

function run(server: TestApiServer, connection: Partial<FetchTransportConfig> = {}, config: ListWatchConfig<KubeObject> = {}) {
  const events: RawEvent<KubeObject>[] = [];
  const statuses: ListWatchStatus[] = [];
  const subscription = fetchListWatch<KubeObject>({ baseUrl: server.url, ...connection }, configmaps, {
    backoff: fastBackoff,
    ...config,
    onStatus: (s) => statuses.push(s),
  }).subscribe((e) => e.type !== 'STATUS' && events.push(e));
  return { events, statuses, subscription, summary: () => events.map(summarize), errors: () => statuses.flatMap((s) => (s.type === 'ERROR' ? [s.error] : [])) };
}

async function withServer(body: (server: TestApiServer) => Promise<void>, config: Parameters<typeof createTestApiServer>[0] = {}): Promise<void> {
  const server = await createTestApiServer(config);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

test('paged list, then watch events, over fetch with a bearer token; unsubscribing aborts the watch', (t) =>
  withServer(
    async (server) => {
      for (const name of ['a', 'b', 'c']) server.create('configmaps', cm(name));
      const r = run(server, { token: 'sesame' }, { pageSize: 2 });
      await until(() => r.events.some((e) => e.type === 'LIST_DONE'), 'LIST_DONE');
      await server.waitForWatches(1);
      server.create('configmaps', cm('d'));
      server.update('configmaps', cm('a', { v: '2' }));
      server.delete('configmaps', 'default', 'b');
      await until(() => r.events.some((e) => e.type === 'DELETED'), 'DELETED');
      t.deepEqual(r.summary().slice(0, 4), ['LIST_START', 'PAGE1(a,b)', 'PAGE2(c)', `DONE(${r.events.find((e) => e.type === 'LIST_DONE')!.resourceVersion})`]);
      t.deepEqual(
        r.events.filter((e) => e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED').map((e) => `${e.type} ${'object' in e ? e.object.metadata?.name : ''}`),
        ['ADDED d', 'MODIFIED a', 'DELETED b'],
      );
      const added = r.events.find((e) => e.type === 'ADDED');
      t.is(typeof (added as { receivedAt?: unknown }).receivedAt, 'number', 'events are stamped with their arrival');
      t.true(server.requests.every((request) => request.status !== 401), 'every request carried the token');
      r.subscription.unsubscribe();
      await until(() => server.openWatchCount === 0, 'the watch closed');
      t.pass();
    },
    { token: 'sesame' },
  ));

test('a 401 without the token is a KubeApiError; a wrong baseUrl is refused at the call', async (t) => {
  await withServer(
    async (server) => {
      const r = run(server);
      await until(() => r.errors().length > 0, 'an error');
      r.subscription.unsubscribe();
      t.true(r.errors()[0] instanceof KubeApiError);
      t.is((r.errors()[0] as KubeApiError).code, 401);
    },
    { token: 'sesame' },
  );
  t.throws(() => fetchListWatch({ baseUrl: 'not a url' }, configmaps), { instanceOf: TypeError, message: /baseUrl must be a URL/ });
  t.throws(() => fetchListWatch({ baseUrl: 'http://127.0.0.1:1', token: 42 as unknown as string }, configmaps), { instanceOf: TypeError, message: /token must be a string or a function/ });
});

test('a 410 on the watch relists; a dropped connection mid-line resumes the watch from the last resourceVersion without a relist', (t) =>
  withServer(async (server) => {
    server.create('configmaps', cm('a'));
    const r = run(server);
    await server.waitForWatches(1);
    server.create('configmaps', cm('b'));
    await until(() => r.events.some((e) => e.type === 'ADDED'), 'ADDED b');
    const listsBefore = r.events.filter((e) => e.type === 'LIST_START').length;
    t.is(server.breakWatches({ reset: true }), 1);
    await until(() => r.errors().some((e) => e instanceof TransportError), 'the cut reported');
    await until(() => server.openWatchCount === 1 && server.requests.filter((q) => q.verb === 'watch').length === 2, 'a second watch');
    t.is(r.events.filter((e) => e.type === 'LIST_START').length, listsBefore, 'no relist after a cut');
    t.is(server.failWatches({ status: 410 }), 1);
    await until(() => r.events.filter((e) => e.type === 'LIST_DONE').length === 2, 'a relist');
    server.create('configmaps', cm('c'));
    await until(() => r.events.some((e) => e.type === 'ADDED' && e.object.metadata?.name === 'c'), 'ADDED c after the relist');
    r.subscription.unsubscribe();
    t.pass();
  }));

test('CORS: a preflight from an allowed origin is answered, a request gets the origin back; other origins get no CORS headers', (t) =>
  withServer(
    async (server) => {
      const preflight = await fetch(`${server.url}/api/v1/configmaps`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://127.0.0.1:9', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
      });
      t.is(preflight.status, 204);
      t.is(preflight.headers.get('access-control-allow-origin'), 'http://127.0.0.1:9');
      t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
      const list = await fetch(`${server.url}/api/v1/configmaps`, { headers: { Origin: 'http://127.0.0.1:9' } });
      t.is(list.status, 200);
      t.is(list.headers.get('access-control-allow-origin'), 'http://127.0.0.1:9');
      t.is(list.headers.get('access-control-allow-credentials'), 'true');
      const other = await fetch(`${server.url}/api/v1/configmaps`, { headers: { Origin: 'http://elsewhere.example' } });
      t.is(other.headers.get('access-control-allow-origin'), null);
      t.false(server.requests.some((q) => q.method === 'OPTIONS'), 'preflights are not API requests');
    },
    { cors: { origins: ['http://127.0.0.1:9'] } },
  ));
