/*
 * Soak (issue 7 §4): `npm run test:soak` (default 300 s) or `SOAK_SECONDS=60 npm run test:soak`
 * (the CI variant). Continuous churn at ~2,000 writes/s over 10,000 ConfigMaps with a fault every
 * few seconds, against an informer over listWatch. Checks, and prints:
 * - heap after GC at checkpoints: after warm-up it does not grow beyond a small bound;
 * - convergence at the end (snapshot = server, indexes = rebuilt);
 * - after unsubscribing and closing the server, no socket, server or timer is left
 *   (`process.getActiveResourcesInfo()` back to what it was before).
 * Exits 1 on a failed check. Needs `--expose-gc` (the npm script passes it).
 *
 * Knobs: SOAK_SECONDS (300), SOAK_OBJECTS (10000), SOAK_RATE writes/s (2000), SOAK_FAULT_EVERY_MS
 * (4000), SOAK_CHECKPOINT_MS (10000), SOAK_HEAP_BOUND_MB (10).
 */
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import { byNamespace, byLabel } from '../../src/store/indexFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { checkIndexes } from './convergenceCase.js';

const seconds = Number(process.env['SOAK_SECONDS'] ?? 300);
const objects = Number(process.env['SOAK_OBJECTS'] ?? 10_000);
const rate = Number(process.env['SOAK_RATE'] ?? 2_000);
const faultEveryMs = Number(process.env['SOAK_FAULT_EVERY_MS'] ?? 4_000);
const checkpointMs = Number(process.env['SOAK_CHECKPOINT_MS'] ?? Math.min(10_000, (seconds * 1000) / 6));
const heapBoundMb = Number(process.env['SOAK_HEAP_BOUND_MB'] ?? 10);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('soak: run with --expose-gc (npm run test:soak does)');
  process.exit(2);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
const failures: string[] = [];
const check = (ok: boolean, what: string): void => {
  if (!ok) failures.push(what);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};
function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc!();
  return process.memoryUsage().heapUsed;
}
const resourceCounts = (): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
};

const baselineResources = resourceCounts();
const started = Date.now();
const server = await createTestApiServer({ bookmarkIntervalMs: 1_000, changeLogSize: 10_000 });
const namespaces = Array.from({ length: 20 }, (_, i) => `ns-${i}`);
const body = (i: number, gen: number) => ({
  metadata: { name: `cm-${i}`, namespace: namespaces[i % namespaces.length]!, labels: { shard: String(i % 7), gen: String(gen % 3) } },
  data: { value: String(gen), payload: 'x'.repeat(64 + (i % 128)) },
});
server.seed('configmaps', Array.from({ length: objects }, (_, i) => body(i, 0)));
const live = new Set<number>(Array.from({ length: objects }, (_, i) => i));
const dead: number[] = [];

const statuses = { total: 0, errors: 0, relists: 0, byError: new Map<string, number>() };
let lastStatus: ListWatchStatus | undefined;
const indexers = { namespace: byNamespace, shard: byLabel('shard') };
const inf = informer(
  listWatch(server.kubeConfig, { version: 'v1', plural: 'configmaps' }, {
    pageSize: 500,
    backoff: { initialDelay: 20, maxDelay: 500 },
    idleTimeout: 10_000,
    onStatus: (s) => {
      statuses.total++;
      lastStatus = s;
      if (s.type === 'ERROR') {
        statuses.errors++;
        statuses.byError.set(s.error.name, (statuses.byError.get(s.error.name) ?? 0) + 1);
      }
      if (s.type === 'RELISTING') statuses.relists++;
    },
  }),
  { indexers },
);
let notifications = 0;
let informerErrors = 0;
let streamError: unknown;
inf.errors$.subscribe(() => informerErrors++);
const subscription = inf.changes$.subscribe({ next: () => notifications++, error: (e) => (streamError = e) });
await inf.whenSynced();
console.log(`soak: ${objects} objects synced in ${Date.now() - started} ms; churn ${rate} writes/s for ${seconds} s, a fault every ${faultEveryMs} ms`);

// Churn: every 10 ms, rate/100 writes: mostly patches, some deletes and re-creates.
let writes = 0;
let generation = 0;
let churning = true;
const perTick = Math.max(1, Math.round(rate / 100));
const churn = async (): Promise<void> => {
  let next = Date.now();
  while (churning) {
    for (let k = 0; k < perTick; k++) {
      const roll = Math.random();
      generation++;
      if (roll < 0.1 && live.size > objects * 0.9) {
        const i = [...pick(live)][0]!;
        server.delete('configmaps', namespaces[i % namespaces.length], `cm-${i}`);
        live.delete(i);
        dead.push(i);
      } else if (roll < 0.2 && dead.length > 0) {
        const i = dead.shift()!;
        server.create('configmaps', body(i, generation));
        live.add(i);
      } else {
        const i = [...pick(live)][0]!;
        server.patch('configmaps', namespaces[i % namespaces.length], `cm-${i}`, { metadata: { labels: { gen: String(generation % 3) } }, data: { value: String(generation) } });
      }
      writes++;
    }
    next += 10;
    await sleep(Math.max(0, next - Date.now()));
  }
};
const liveArray = (): number[] => [...live];
let cached: number[] = [];
let cachedAt = -1;
function* pick(set: Set<number>): Generator<number> {
  if (writes - cachedAt > 500 || cached.length === 0) {
    cached = liveArray();
    cachedAt = writes;
  }
  for (;;) {
    const i = cached[Math.floor(Math.random() * cached.length)]!;
    if (set.has(i)) {
      yield i;
      return;
    }
  }
}

// Faults, in turn.
const faultKinds = ['close', 'reset', 'watch410', 'compact', '429', '500', 'refuse', 'malformed', 'split', 'slow'] as const;
let faults = 0;
const faultCounts = new Map<string, number>();
const inject = async (): Promise<void> => {
  const kind = faultKinds[faults % faultKinds.length]!;
  faults++;
  faultCounts.set(kind, (faultCounts.get(kind) ?? 0) + 1);
  switch (kind) {
    case 'close':
      server.closeWatches();
      break;
    case 'reset':
      server.breakWatches({ reset: true });
      break;
    case 'watch410':
      server.failWatches({ status: 410 });
      break;
    case 'compact':
      server.compact();
      server.closeWatches();
      break;
    case '429':
      server.failNext({ status: 429, verbs: ['watch'], count: 3, retryAfterSeconds: 0 });
      server.closeWatches();
      break;
    case '500':
      server.failNext({ status: 500, verbs: ['list', 'watch'], count: 2 });
      server.failWatches({ status: 410 });
      break;
    case 'refuse':
      await server.refuseConnections(300);
      break;
    case 'malformed':
      server.emitMalformedLine();
      break;
    case 'split':
      server.splitWatchLines(7);
      await sleep(1_000);
      server.splitWatchLines(undefined);
      break;
    case 'slow':
      server.delayResponses({ ms: 200, count: 3, verbs: ['list', 'watch'] });
      server.closeWatches();
      break;
  }
};

const churning$ = churn();
const heap: { at: number; mb: number }[] = [];
let listRequests = 0;
let watchRequests = 0;
const drainRequests = (): void => {
  for (const r of server.requests) {
    if (r.verb === 'list' && r.query['continue'] === undefined) listRequests++;
    if (r.verb === 'watch') watchRequests++;
  }
  server.clearRequests();
};
const end = started + seconds * 1000;
let nextFault = Date.now() + faultEveryMs;
let nextCheckpoint = Date.now() + checkpointMs;
while (Date.now() < end && streamError === undefined) {
  await sleep(50);
  drainRequests();
  if (Date.now() >= nextFault) {
    await inject();
    nextFault = Date.now() + faultEveryMs;
  }
  if (Date.now() >= nextCheckpoint) {
    const h = heapAfterGc();
    heap.push({ at: Math.round((Date.now() - started) / 1000), mb: mb(h) });
    const elapsed = (Date.now() - started) / 1000;
    console.log(
      `t=${elapsed.toFixed(0)}s heap ${mb(h)} MB, ${writes} writes (${(writes / elapsed).toFixed(0)}/s), ${notifications} notifications, ${faults} faults, ${listRequests} LISTs, ${watchRequests} WATCHes, ${statuses.errors} errors, cache ${inf.snapshot.size}`,
    );
    nextCheckpoint = Date.now() + checkpointMs;
  }
}
churning = false;
await churning$;
server.clearFaults();
const churnSeconds = (Date.now() - started) / 1000;

// Convergence.
const convergeStarted = Date.now();
const same = (): boolean => {
  const want = server.list('configmaps') as KubeObject[];
  const snapshot = inf.snapshot;
  if (snapshot.size !== want.length) return false;
  return want.every((o) => snapshot.get(o.metadata!.namespace!, o.metadata!.name!)?.metadata?.resourceVersion === o.metadata?.resourceVersion);
};
while (!(same() && lastStatus?.type === 'WATCHING') && Date.now() - convergeStarted < 30_000 && streamError === undefined) await sleep(20);
drainRequests();
const converged = same();
console.log(`\nsoak figures (${churnSeconds.toFixed(0)} s of churn):`);
console.log(`  writes ${writes} (${(writes / churnSeconds).toFixed(0)}/s), notifications ${notifications}, cache ${inf.snapshot.size} objects`);
console.log(`  faults ${faults}: ${[...faultCounts].map(([k, v]) => `${k}×${v}`).join(', ')}`);
console.log(`  LIST cycles ${listRequests}, WATCH requests ${watchRequests}, relists ${statuses.relists}, ERROR statuses ${statuses.errors} (${[...statuses.byError].map(([k, v]) => `${k}×${v}`).join(', ')})`);
console.log(`  heap after GC (MB) at checkpoints: ${heap.map((h) => `${h.at}s:${h.mb}`).join(' ')}`);
check(streamError === undefined, `the informer's streams did not error (${String(streamError ?? 'none')})`);
check(informerErrors === 0, `errors$ reported nothing (${informerErrors})`);
check(converged, `converged to the server's ${server.list('configmaps').length} objects in ${Date.now() - convergeStarted} ms after the churn stopped`);
try {
  checkIndexes(inf.snapshot, true, indexers);
  check(true, 'indexes equal indexes rebuilt from scratch');
} catch (error) {
  check(false, `indexes equal indexes rebuilt from scratch: ${(error as Error).message}`);
}
// Heap: from the second checkpoint (warm-up done) to the last; least-squares slope for the record.
const steady = heap.slice(1);
if (steady.length >= 2) {
  const growth = steady.at(-1)!.mb - Math.min(...steady.map((h) => h.mb));
  const n = steady.length;
  const mx = steady.reduce((s, h) => s + h.at, 0) / n;
  const my = steady.reduce((s, h) => s + h.mb, 0) / n;
  const slope = steady.reduce((s, h) => s + (h.at - mx) * (h.mb - my), 0) / (steady.reduce((s, h) => s + (h.at - mx) ** 2, 0) || 1);
  console.log(`  heap slope after warm-up: ${(slope * 60).toFixed(2)} MB/min; growth from the lowest checkpoint to the last: ${growth.toFixed(1)} MB`);
  check(growth <= heapBoundMb, `heap after GC grew ${growth.toFixed(1)} MB between checkpoints (bound ${heapBoundMb} MB)`);
} else {
  check(false, `enough heap checkpoints (${heap.length}; run longer or lower SOAK_CHECKPOINT_MS)`);
}
// Bounded requests: no hot loop.
check(listRequests <= 2 + 3 * faults, `LIST cycles ${listRequests} ≤ 2 + 3 × ${faults} faults`);

// Leaks: unsubscribe, close, then nothing of ours is left.
// SOAK_SKIP_UNSUBSCRIBE=1 shows that this check can fail (the reflector's timers stay).
if (process.env['SOAK_SKIP_UNSUBSCRIBE'] !== '1') subscription.unsubscribe();
await server.close();
// Sockets and timers close on later turns: wait (up to 5 s) until nothing is left above the baseline.
const leakedNow = (): [string, number][] => [...resourceCounts()].filter(([kind, count]) => count > (baselineResources.get(kind) ?? 0));
const leakDeadline = Date.now() + 5_000;
while (leakedNow().length > 0 && Date.now() < leakDeadline) await sleep(10);
const after = resourceCounts();
const leaked = leakedNow();
console.log(`  active resources before: ${JSON.stringify(Object.fromEntries(baselineResources))}, after: ${JSON.stringify(Object.fromEntries(after))}`);
check(leaked.length === 0, `no socket, server or timer left after unsubscribe and close (${leaked.map(([k, v]) => `${k}×${v}`).join(', ') || 'none'})`);
console.log(`soak: ${failures.length === 0 ? 'PASSED' : `FAILED (${failures.length})`} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failures.length === 0 ? 0 : 1);
