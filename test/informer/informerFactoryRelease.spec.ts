import test from 'ava';
import { informerFactory } from '../../src/informer/informerFactory.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

/** Active handles and requests by type (`Timeout`, `TCPSocketWrap`, …), as Node counts them. */
function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

test("lifetime 'held': 1,000 informers created and released leave no informer, request, watch, timer or socket behind", async (t) => {
  const server = await createTestApiServer();
  const factory = informerFactory(server.kubeConfig, { lifetime: 'held' });
  try {
    server.create('configmaps', { metadata: { name: 'a', namespace: 'demo', labels: { app: 'x' } } });
    const before = activeResources();
    const total = 1_000;
    for (let batch = 0; batch < total; batch += 50) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          // Each a collection of its own: a selector chosen at run time.
          const informer = factory.informer({ version: 'v1', plural: 'configmaps', namespace: 'demo' }, { labelSelector: `app=x,n!=${batch + i}` });
          const connection = informer.connect();
          t.is((await informer.whenSynced({ timeoutMs: 60_000 })).size, 1);
          connection.unsubscribe();
        }),
      );
    }
    t.is(server.requests.filter((r) => r.verb === 'list').length, total, 'each informer listed once');
    t.deepEqual(factory.informers, [], 'the factory forgot every one');
    await until(() => server.openWatchCount === 0, 'no watch open');
    await until(() => server.requests.every((r) => r.endedAt !== undefined), 'every request ended');
    await until(() => server.connections.open === 0, 'every connection closed by the client');
    const after = activeResources();
    t.deepEqual({ timers: after['Timeout'] ?? 0, sockets: after['TCPSocketWrap'] ?? 0 }, { timers: before['Timeout'] ?? 0, sockets: before['TCPSocketWrap'] ?? 0 }, 'no timer or socket left');

    // Asked again, it is a new informer that runs.
    const again = factory.informer({ version: 'v1', plural: 'configmaps', namespace: 'demo' }, { labelSelector: 'app=x,n!=0' });
    const connection = again.connect();
    t.is((await again.whenSynced({ timeoutMs: 60_000 })).size, 1);
    t.deepEqual(factory.informers, [again]);
    connection.unsubscribe();
  } finally {
    factory.dispose();
    await server.close();
  }
});

test("lifetime 'held' keeps an informer during its grace period: a holder back in time gets the same one, running", async (t) => {
  const server = await createTestApiServer();
  const factory = informerFactory(server.kubeConfig, { lifetime: 'held', graceMs: 60_000 });
  try {
    const informer = factory.informer({ version: 'v1', plural: 'configmaps' });
    informer.connect().unsubscribe();
    t.is(factory.informer({ version: 'v1', plural: 'configmaps' }), informer);
    t.deepEqual(factory.informers, [informer]);
    const connection = informer.connect();
    await informer.whenSynced({ timeoutMs: 60_000 });
    t.is(server.requests.filter((r) => r.verb === 'list').length, 1, 'not restarted');
    connection.unsubscribe();
  } finally {
    factory.dispose();
    await server.close();
  }
});

test('factory.metrics(): the informers, their objects and estimated bytes together, each informer its own in metrics()', async (t) => {
  const server = await createTestApiServer();
  const factory = informerFactory(server.kubeConfig);
  try {
    for (let i = 0; i < 3; i++) server.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'demo' }, data: { value: 'x'.repeat(100) } });
    const configMaps = factory.informer({ version: 'v1', plural: 'configmaps' });
    const pods = factory.informer({ version: 'v1', plural: 'pods' });
    await factory.whenAllSynced({ timeoutMs: 60_000 });
    const total = factory.metrics();
    t.is(total.informers, 2);
    t.is(total.objects, 3);
    t.true(configMaps.metrics().estimatedBytes > 3 * 100, 'at least the data it holds');
    t.is(pods.metrics().estimatedBytes, 0);
    t.is(total.estimatedBytes, configMaps.metrics().estimatedBytes);
  } finally {
    factory.dispose();
    await server.close();
  }
});

test('lifetime must be factory or held', async (t) => {
  const server = await createTestApiServer();
  const factory = informerFactory(server.kubeConfig);
  try {
    // @ts-expect-error not a lifetime
    t.throws(() => factory.informer({ version: 'v1', plural: 'pods' }, { lifetime: 'forever' }), { instanceOf: TypeError, message: "[informerFactory] lifetime must be 'factory' or 'held', got \"forever\"" });
  } finally {
    factory.dispose();
    await server.close();
  }
});
