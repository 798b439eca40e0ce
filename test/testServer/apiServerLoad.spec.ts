/*
 * The test API server is also the demo and benchmark workload: 100k objects, thousands of events per
 * second. What it holds and delivers is asserted here; how fast is logged only (speed is measured by
 * the benchmarks, never asserted in a test).
 */
import test from 'ava';
import { createTestApiServer } from '../../src/testServer/index.js';
import { call, configMap, openWatch } from './apiServerClient.js';

test('holds 100k objects: seeds, pages through them in key order, and streams 10k updates to two watches', async (t) => {
  const server = await createTestApiServer();
  try {
    let started = Date.now();
    server.seed('configmaps', Array.from({ length: 100_000 }, (_, i) => configMap(`ns-${i % 100}`, `cm-${String(i).padStart(6, '0')}`)));
    const seedMs = Date.now() - started;

    started = Date.now();
    let token: string | undefined;
    let count = 0;
    let pages = 0;
    let previous = '';
    let ordered = true;
    do {
      const reply = await call(`${server.url}/api/v1/configmaps?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      for (const item of reply.json.items) {
        const key = `${item.metadata.namespace}/${item.metadata.name}`;
        if (key <= previous) ordered = false;
        previous = key;
      }
      count += reply.json.items.length;
      if (pages === 0) t.is(reply.json.metadata.remainingItemCount, 99_500);
      pages++;
      token = reply.json.metadata.continue;
    } while (token);
    const listMs = Date.now() - started;
    t.is(count, 100_000);
    t.is(pages, 200);
    t.true(ordered, 'items come in namespace/name order');

    const watches = await Promise.all([0, 1].map(() => openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${server.resourceVersion}`)));
    started = Date.now();
    for (let i = 0; i < 10_000; i++) server.patch('configmaps', `ns-${i % 100}`, `cm-${String(i).padStart(6, '0')}`, { data: { k: String(i) } });
    const writeMs = Date.now() - started;
    await Promise.all(watches.map((w) => w.waitFor(10_000, 20_000)));
    const streamMs = Date.now() - started;
    for (const w of watches) {
      t.is(w.events.at(-1)!.object.data.k, '9999');
      w.close();
    }
    t.log(`seed 100k: ${seedMs} ms; list 200 pages: ${listMs} ms; 10k patches: ${writeMs} ms; delivered to 2 watches: ${streamMs} ms`);
  } finally {
    await server.close();
  }
});
