/**
 * `npm run bench:fleet`: what an engaged cluster costs a fleet, in one process, against in-process
 * test servers (one per cluster, all started before the baseline). For N = 10, 100 and 500
 * clusters (BENCH_FLEET_SIZES), each with one informer (ConfigMaps) and no objects:
 * - the heap per engaged cluster: after full GCs, engaged and synced, minus the baseline, over N
 *   (the servers' request logs cleared first; the servers' own state for the watch is counted in,
 *   so this is an upper bound of the client's share);
 * - engage → synced: from the first engagement to `whenAllSynced()`;
 * - release: from the first release to 0 open watches on the servers, then the process's handles
 *   (sockets, timers) against the baseline and the heap after full GCs against it.
 * A measurement, not a test: it prints a table and asserts nothing.
 */
import { createTestServerFleet } from '../../src/testServer/index.js';
import { loadLibrary } from '../core/library.js';

// The library under test, compiled (bench/core/library.ts); the test servers are the workload.
const library = await loadLibrary();
const { clusterList, fleetFactory } = await library.module<typeof import('../../src/fleet/index.js')>('fleet/index.js');

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const sizes = (process.env['BENCH_FLEET_SIZES'] ?? '10,100,500').split(',').map(Number);
const MiB = 1024 * 1024;

const settle = async (): Promise<number> => {
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
};
const handles = (): Map<string, number> => {
  const m = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
};
const extra = (base: Map<string, number>): string[] => [...handles()].filter(([k, v]) => v > (base.get(k) ?? 0)).map(([k, v]) => `${k}×${v - (base.get(k) ?? 0)}`);
const until = async (condition: () => boolean, what: string, timeoutMs = 120_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const servers = await createTestServerFleet(Math.max(...sizes));
const names = [...servers.servers.keys()];
for (const name of names) servers.release(name); // the servers' own provider is not used here
const openWatches = (n: number) => names.slice(0, n).reduce((sum, name) => sum + servers.servers.get(name)!.openWatchCount, 0);
const clearLogs = () => {
  for (const server of servers.servers.values()) server.clearRequests();
};

async function round(n: number): Promise<{ perClusterMiB: number; syncMs: number; releaseMs: number; heapAfterPct: number; leftHandles: string[] }> {
  const list = clusterList();
  const fleet = fleetFactory(list.provider);
  fleet.informer({ version: 'v1', plural: 'configmaps' });
  clearLogs();
  const base = handles();
  const heap0 = await settle();
  const t0 = performance.now();
  for (const name of names.slice(0, n)) list.engage(name, servers.servers.get(name)!.kubeConfig);
  await fleet.whenAllSynced({ timeoutMs: 120_000 });
  const syncMs = performance.now() - t0;
  await until(() => openWatches(n) === n, `${n} watches`);
  clearLogs();
  const heap1 = await settle();
  const t1 = performance.now();
  for (const name of names.slice(0, n)) list.release(name);
  await until(() => openWatches(n) === 0, 'every watch to end');
  const releaseMs = performance.now() - t1;
  fleet.dispose();
  await until(() => extra(base).length === 0, 'the handles back to the baseline', 10_000).catch(() => undefined);
  clearLogs();
  const heap2 = await settle();
  return { perClusterMiB: (heap1 - heap0) / n / MiB, syncMs, releaseMs, heapAfterPct: ((heap2 - heap0) / heap0) * 100, leftHandles: extra(base) };
}

await round(10); // warm-up: the code paths and the servers
console.log(`node ${process.version}; ${names.length} test servers in the process`);
console.log('| clusters | heap per engaged cluster | engage → synced | release → 0 watches | heap after release vs before | handles left |');
console.log('|---:|---:|---:|---:|---:|---|');
for (const n of sizes) {
  const r = await round(n);
  console.log(`| ${n} | ${r.perClusterMiB.toFixed(3)} MiB | ${r.syncMs.toFixed(0)} ms | ${r.releaseMs.toFixed(0)} ms | ${r.heapAfterPct >= 0 ? '+' : ''}${r.heapAfterPct.toFixed(1)} % | ${r.leftHandles.length === 0 ? 'none' : r.leftHandles.join(', ')} |`);
}
await servers.close();
