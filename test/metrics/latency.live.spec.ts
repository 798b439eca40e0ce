/**
 * Latency metrics against the in-process API server, over real HTTP on loopback: every watch event
 * is stamped on arrival and measured at delivery; watch lag from the managedFields time the writer
 * set. (Figures are not asserted: speed is measured in benchmarks, bench/latency.ts.)
 */
import test from 'ava';
import { informerFactory } from '../../src/informer/informerFactory.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

test('a factory informer over HTTP: one eventLatency sample per watch event, cumulative buckets, and watch lag where managedFields tell the write time', async (t) => {
  const server = await createTestApiServer();
  const factory = informerFactory(server.kubeConfig);
  try {
    server.create('configmaps', { metadata: { name: 'seed', namespace: 'default' } });
    const cms = factory.informer({ version: 'v1', plural: 'configmaps', namespace: 'default' }, { objective: { targetMs: 200, alertMs: 5000 } });
    await cms.whenSynced({ timeoutMs: 30_000 });
    const written = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z'); // seconds, as the API server writes them
    for (let i = 0; i < 20; i++) {
      server.create('configmaps', { metadata: { name: `c${i}`, namespace: 'default', managedFields: [{ manager: 'test', operation: 'Apply', time: written }] } });
    }
    await until(() => cms.snapshot.size === 21 && cms.metrics().eventLatency.count === 20, 'the 20 adds delivered and measured');
    const { eventLatency, watchLag, objective } = cms.metrics();
    t.is(eventLatency.count, 20);
    t.true(eventLatency.sum > 0);
    const counts = eventLatency.buckets.map((b) => b.count);
    t.deepEqual(counts, [...counts].sort((a, b) => a - b), 'cumulative');
    t.is(counts.at(-1), 20);
    t.true(eventLatency.p50! <= eventLatency.p95! && eventLatency.p95! <= eventLatency.p99!);
    t.is(watchLag.count, 20, 'each add carried a managedFields time');
    t.true(watchLag.sum >= 0);
    t.is(objective?.samples, 20);
    t.true(objective?.state === 'met' || objective?.state === 'breached' || objective?.state === 'alert');
  } finally {
    factory.dispose();
    await server.close();
  }
});
