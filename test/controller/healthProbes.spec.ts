/** /healthz and /readyz over HTTP on 127.0.0.1, and the informers readiness check. */
import test from 'ava';
import { request } from 'node:http';
import { connectable, firstValueFrom, ReplaySubject, Subject, type Subscription } from 'rxjs';
import { serveHealthProbes, type HealthProbeServer, type HealthProbesConfig } from '../../src/controller/healthProbes.js';
import { informersReady } from '../../src/controller/informersReady.js';
import { informer } from '../../src/informer/informer.js';
import { fakeListWatch } from '../../src/testing/fakeListWatch.js';
import { configMap } from '../../src/testing/objects.js';
import { listEvents } from '../../src/testing/events.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';

function get(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function serve(config: Omit<HealthProbesConfig, 'port' | 'host'>): Promise<{ server: HealthProbeServer; subscription: Subscription }> {
  let subscription!: Subscription;
  const server = await new Promise<HealthProbeServer>((resolve, reject) => {
    subscription = serveHealthProbes({ port: 0, host: '127.0.0.1', ...config }).subscribe({ next: resolve, error: reject });
  });
  return { server, subscription };
}

test('all checks pass: 200 ok; ?verbose lists them; a failing check: 500 with reason withheld, naming it', async (t) => {
  let ready = false;
  const { server, subscription } = await serve({ readiness: { informers: () => ready, cache: () => undefined } });
  try {
    t.deepEqual(await get(`${server.url}/healthz`), { status: 200, text: 'ok' });
    t.deepEqual(await get(`${server.url}/readyz`), { status: 500, text: '[+]ping ok\n[-]informers failed: reason withheld\n[+]cache ok\nreadyz check failed\n' });
    ready = true;
    t.deepEqual(await get(`${server.url}/readyz`), { status: 200, text: 'ok' });
    t.deepEqual(await get(`${server.url}/readyz?verbose`), { status: 200, text: '[+]ping ok\n[+]informers ok\n[+]cache ok\nreadyz check passed\n' });
  } finally {
    subscription.unsubscribe();
  }
});

test('one check by name shows its reason; ?exclude skips one and warns about unknown names; other paths are 404', async (t) => {
  const { server, subscription } = await serve({
    liveness: { loop: () => Promise.reject(new Error('event loop lag 3 s')) },
    readiness: { informers: () => false },
  });
  try {
    t.deepEqual(await get(`${server.url}/healthz/loop`), { status: 500, text: 'internal server error: event loop lag 3 s\n' });
    t.deepEqual(await get(`${server.url}/healthz/ping`), { status: 200, text: 'ok' });
    t.deepEqual(await get(`${server.url}/healthz?exclude=loop`), { status: 200, text: 'ok' });
    t.deepEqual(await get(`${server.url}/readyz?exclude=informers&exclude=nope&verbose`), { status: 200, text: '[+]ping ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n' });
    for (const path of ['/', '/metrics', '/healthz/none', '/readyz/informers/x']) t.is((await get(`${server.url}${path}`)).status, 404, path);
  } finally {
    subscription.unsubscribe();
  }
});

test('unsubscribing closes the server; a taken port is the error; bad config throws', async (t) => {
  const { server, subscription } = await serve({});
  const busy = serveHealthProbes({ port: server.port, host: '127.0.0.1' });
  await t.throwsAsync(firstValueFrom(busy), { code: 'EADDRINUSE' } as never);
  subscription.unsubscribe();
  await t.throwsAsync(get(`${server.url}/healthz`), { code: 'ECONNREFUSED' } as never);
  t.throws(() => serveHealthProbes({ port: -1 }), { instanceOf: TypeError, message: /port/ });
  t.throws(() => serveHealthProbes({ port: 0, readiness: { x: 'no' as never } }), { instanceOf: TypeError, message: /readiness check x/ });
  t.throws(() => serveHealthProbes({ port: 0, readiness: { 'a/b': () => true } }), { instanceOf: TypeError, message: /cannot be empty or contain/ });
});

test('as documented: firstValueFrom closes the server at once; held through connectable, it serves until unsubscribed', async (t) => {
  const { url } = await firstValueFrom(serveHealthProbes({ port: 0, host: '127.0.0.1' }));
  await t.throwsAsync(get(`${url}/healthz`), { code: 'ECONNREFUSED' } as never, 'closed as the first value was taken');
  // The TSDoc example's way: a replay of one held subscription.
  const probes = connectable(serveHealthProbes({ port: 0, host: '127.0.0.1', readiness: { informers: () => true } }), { connector: () => new ReplaySubject<HealthProbeServer>(1) });
  const listening = probes.connect();
  const held = await firstValueFrom(probes);
  t.deepEqual(await get(`${held.url}/readyz`), { status: 200, text: 'ok' });
  t.is((await firstValueFrom(probes)).url, held.url, 'read again: the same server');
  t.deepEqual(await get(`${held.url}/healthz`), { status: 200, text: 'ok' });
  listening.unsubscribe();
  await t.throwsAsync(get(`${held.url}/healthz`), { code: 'ECONNREFUSED' } as never);
});

test('informersReady: not ready until every informer has synced, and while a watch backs off (statuses in band, as listWatch() sends them)', async (t) => {
  const api = fakeListWatch([configMap('a')]);
  const cms = informer(api.events$);
  const events = new Subject<RawEvent<KubeObject>>();
  const sets = informer(events);
  const check = informersReady([Object.assign(sets, { name: 'sets' }), cms]);
  const connections = [sets.connect(), cms.connect()];
  try {
    t.throws(() => check(), { message: 'sets has not synced' });
    for (const event of listEvents([], '1')) events.next(event);
    await Promise.all([sets.whenSynced(), cms.whenSynced()]);
    t.notThrows(() => check());
    const cause = new Error('watch refused');
    events.next({ type: 'STATUS', status: { type: 'ERROR', error: cause, permanent: false } });
    events.next({ type: 'STATUS', status: { type: 'BACKING_OFF', attempt: 1, delay: 800, cause, next: 'rewatch' } });
    t.throws(() => check(), { message: 'sets is not watching (BACKING_OFF)' });
    events.next({ type: 'STATUS', status: { type: 'WATCHING', resourceVersion: '1' } });
    t.notThrows(() => check());
  } finally {
    for (const connection of connections) connection.unsubscribe();
  }
  t.throws(() => check(), { message: 'sets has not synced' }, 'a stopped informer is not ready');
  t.throws(() => informersReady([{}] as never), { instanceOf: TypeError });
});
