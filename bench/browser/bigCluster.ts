/**
 * `npm run bench:browser`: a tab that holds a big cluster (issue 41). The in-process API server
 * with 30,000 pods and 1,300 nodes; the page (bench/browser/bigClusterPage.ts) in headless
 * Chromium holds both through the relay and draws the pods in a windowed table at most ten times a
 * second; then a steady stream of updates (nodes' heartbeats and pods' status, each stamped with
 * the server's clock) for BENCH_SECONDS (default 60). Prints the tab's JS heap after a GC (synced,
 * then every 10 s), the MB/s the relay carried, the renders per second and the lag of the DOM
 * behind the server (p50 / p99 / max).
 *
 *   BENCH_PODS=30000 BENCH_NODES=1300 BENCH_SECONDS=60 BENCH_RATE=2000 npm run bench:browser
 */
import { build } from 'esbuild';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createRelay } from '../../src/relay/index.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { launchChromium } from '../../test/browser/chromium.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const podCount = env('BENCH_PODS', 30_000);
const nodeCount = env('BENCH_NODES', 1_300);
const seconds = env('BENCH_SECONDS', 60);
const rate = env('BENCH_RATE', 2_000); // updates a second, as many as the server keeps up with

const here = fileURLToPath(new URL('.', import.meta.url));
const script = (await build({ entryPoints: [`${here}bigClusterPage.ts`], bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, logLevel: 'silent' })).outputFiles[0]!.text;
const api = await createTestApiServer();
const stamp = () => ({ 'bench/at': String(Date.now()) });
const node = (i: number) => ({
  metadata: { name: `node-${i}`, labels: { 'kubernetes.io/hostname': `node-${i}`, 'topology.kubernetes.io/zone': `zone-${i % 3}` }, annotations: stamp() },
  status: {
    conditions: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({ type, status: type === 'Ready' ? 'True' : 'False', reason: `Kubelet${type}`, message: `kubelet reports ${type}`, lastHeartbeatTime: new Date().toISOString() })),
    capacity: { cpu: '16', memory: '65838792Ki', pods: '110' },
    images: Array.from({ length: 12 }, (_, k) => ({ names: [`registry.example/team-${k}/service@sha256:${'0'.repeat(64)}`], sizeBytes: 100_000_000 + k })),
  },
});
const pod = (i: number) => ({
  metadata: { name: `pod-${i}`, namespace: `ns-${i % 50}`, labels: { app: `app-${i % 300}` }, annotations: stamp() },
  spec: { nodeName: `node-${i % nodeCount}`, containers: [{ name: 'main', image: `registry.example/app-${i % 300}:1.0`, resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
  status: { phase: 'Running', podIP: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
});
const seeding = Date.now();
for (let i = 0; i < nodeCount; i++) api.create('nodes', node(i));
for (let i = 0; i < podCount; i++) api.create('pods', pod(i));
console.log(`seeded ${podCount} pods and ${nodeCount} nodes in ${Date.now() - seeding} ms`);

const relay = createRelay({ upstream: api.url });
const page = createServer((req, res) => {
  if (req.url === '/') res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><meta charset="utf-8"><body><script type="module" src="/page.js"></script>');
  else if (req.url === '/page.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
  else res.writeHead(404).end();
});
page.on('upgrade', (request, socket, head) => {
  if (!relay.handleUpgrade(request, socket, head)) socket.destroy();
});
await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
const browser = await launchChromium();
try {
  const tab = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(tab);
  const heapMb = async (): Promise<number> => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return Math.round(usedSize / 1e5) / 10;
  };
  type Stats = { renders: number; lags: number[]; synced: boolean; pods: number; nodes: number };
  const read = () => tab.evaluate(() => (globalThis as unknown as { benchStats: Stats }).benchStats);
  const opened = Date.now();
  await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
  await tab.waitForFunction((counts) => {
    const stats = (globalThis as unknown as { benchStats?: Stats }).benchStats;
    return stats?.synced === true && stats.pods === counts[0] && stats.nodes === counts[1];
  }, [podCount, nodeCount] as const, { timeout: 300_000, polling: 200 });
  console.log(`synced in the tab ${Date.now() - opened} ms after it opened; JS heap ${await heapMb()} MB after a GC`);

  // The steady stream: updates spread over each 10 ms, nodes first (heartbeats), pods after.
  const before = await read();
  const relayedBefore = relay.stats().relayedBytes;
  let sent = 0;
  const started = Date.now();
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - started) / 1000) * rate) - sent;
    for (let k = 0; k < due; k++, sent++) {
      if (sent % 4 === 0) api.update('nodes', node((sent / 4) % nodeCount));
      else api.update('pods', pod(sent % podCount));
    }
  }, 10);
  const heaps: number[] = [];
  for (let s = 10; s <= seconds; s += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    heaps.push(await heapMb());
    console.log(`t=${s}s: JS heap ${heaps.at(-1)} MB after a GC; ${sent} updates sent`);
  }
  clearInterval(timer);
  const elapsed = (Date.now() - started) / 1000;
  const after = await read();
  const lags = after.lags.slice(before.lags.length).sort((a, b) => a - b);
  const pct = (p: number) => lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))] ?? NaN;
  const mbPerSecond = (relay.stats().relayedBytes - relayedBefore) / 1e6 / elapsed;
  console.log(
    [
      `${podCount} pods + ${nodeCount} nodes, ${elapsed.toFixed(0)} s of ${(sent / elapsed).toFixed(0)} updates/s (${mbPerSecond.toFixed(1)} MB/s through the relay)`,
      `JS heap after a GC: ${heaps.join(' → ')} MB (first to last: ${(heaps.at(-1)! - heaps[0]!).toFixed(1)} MB)`,
      `screen updates: ${((after.renders - before.renders) / elapsed).toFixed(1)}/s`,
      `DOM behind the server: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${lags.at(-1)} ms (${lags.length} renders)`,
    ].join('\n'),
  );
} finally {
  await browser.close();
  await relay.close();
  page.closeAllConnections();
  page.close();
  await api.close();
}
