/**
 * `node --expose-gc --import=tsx bench/probes/releaseHeap.ts`: what 1,000 informers created and released
 * through a factory with `lifetime: 'held'` leave on the heap. Against the in-process test server
 * (its request log cleared before each reading): 200 informers first (warming up the code and the
 * connection pool), then the heap after full GCs; BENCH_ROUNDS (3) times 1,000 more, each with the
 * heap after; the growth per round is what a long-running service would keep per 1,000 informers.
 * (test/informer/informerFactoryRelease.spec.ts checks requests, watches, timers and sockets.)
 */
import { createTestApiServer } from '../../src/testServer/index.js';
import { loadLibrary } from '../core/library.js';

// The library under test, compiled; the test API server is the workload.
const { informerFactory } = (await loadLibrary()).main;

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const server = await createTestApiServer();
server.create('configmaps', { metadata: { name: 'a', namespace: 'demo', labels: { app: 'x' } } });
const factory = informerFactory(server.kubeConfig, { lifetime: 'held' });
let next = 0;

async function createAndRelease(count: number): Promise<void> {
  for (let batch = 0; batch < count; batch += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - batch) }, async () => {
        const informer = factory.informer({ version: 'v1', plural: 'configmaps', namespace: 'demo' }, { labelSelector: `app=x,n!=${next++}` });
        const connection = informer.connect();
        await informer.whenSynced({ timeoutMs: 60_000 });
        connection.unsubscribe();
      }),
    );
  }
}

async function heap(): Promise<number> {
  while (server.openWatchCount > 0 || factory.informers.length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  server.clearRequests();
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc!();
  }
  return process.memoryUsage().heapUsed;
}

await createAndRelease(200);
const readings = [await heap()];
for (let round = 0; round < rounds; round++) {
  await createAndRelease(1_000);
  readings.push(await heap());
}
const growth = readings.slice(1).map((after, i) => (after - readings[i]!) / 1024);
console.log(`heap after 200 informers: ${(readings[0]! / 1024 / 1024).toFixed(1)} MB; growth per 1,000 more created and released: ${growth.map((kb) => `${kb.toFixed(0)} KB`).join(', ')}`);
factory.dispose();
await server.close();
