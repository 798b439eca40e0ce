/**
 * `npm run bench:cluster`: rx-informer, @kubernetes/client-node and client-go against a real
 * kube-apiserver v1.36.3 + etcd (test/cluster/env.sh run starts them and stops them after), in one
 * run. Not in CI: minutes of loading and a few GB of memory.
 *
 * For each N (10k, 50k, 100k; loaded cumulatively through the apiserver with concurrent creates of
 * the loopback benchmark's ~1.5 KB ConfigMaps, 50 namespaces), each contender runs RUNS times in its
 * own fresh process, rotating order: it syncs every ConfigMap of the cluster (time from its first
 * request to synced, heap retained after GC, peak RSS at sync); then, for the contenders that
 * watch, garbage is collected (settled RSS), UPDATES merge patches are written through the
 * apiserver as fast as it takes them (BURST_CONCURRENCY in flight), and the CPU time the contender
 * spent until it had seen every one gives the CPU per event, the write-to-callback times the burst
 * latency; at the smallest N, RATE_UPDATES more at RATE writes/s give the latency at a steady rate.
 * Each contender starts once the apiserver and etcd have been idle for a second (waitForIdle.ts),
 * so none pays for what the control plane still does for the one before it.
 * After every contender run, the apiserver's log is searched for watchers it force-closed as
 * unresponsive, and its request counters say how many LISTs and WATCHes the contender sent.
 * The GET floors read the whole list once (JSON and protobuf) and decode nothing.
 *
 * Environment: BENCH_SIZES=10000,50000 BENCH_RUNS=3 BENCH_UPDATES=5000 BENCH_CONTENDERS=rx,client-go
 * BENCH_PROFILE=1 (as in bench/loopback/run.ts). Results: bench/results/cluster-<time>.json and the cluster
 * part of BENCHMARKS.md (rewritten when neither BENCH_SIZES nor BENCH_CONTENDERS is set, or with BENCH_WRITE=1).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { writeBenchmarks } from '../core/assemble.js';
import { buildClientGo, exited, machineInfo, goContender, lines, log, nodeContender, percentile, root, tell, type Contender } from '../core/child.js';
import { nowMs, type ArmedMessage, type MeasuredMessage, type SyncedMessage } from '../core/protocol.js';
import { nameOf, namespaceOf } from '../core/workload.js';
import { buildLibrary } from '../core/library.js';
import { apiClient, createNamespaces, expectStatus, loadConfigMaps, pool, requestCounts, updatePatch } from './apiClient.js';
import { renderCluster, type ClusterResults, type ClusterSample, type Measured } from './report.js';
import { waitForIdle } from './waitForIdle.js';

const env = process.env;
const kubeconfig = env.KUBECONFIG;
if (!kubeconfig || !env.CLUSTER_API_URL) throw new Error('run through `npm run bench:cluster` (test/cluster/env.sh run -- …)');
const sizes = (env.BENCH_SIZES ?? '10000,50000,100000').split(',').map(Number);
const runs = Number(env.BENCH_RUNS ?? 3);
// ≥ 10,000: CPU per event over fewer updates moved by ±15 % between runs at load 3.
const updates = Number(env.BENCH_UPDATES ?? 10_000);
const rate = 200;
const rateUpdates = Number(env.BENCH_RATE_UPDATES ?? 1_000);
const burstConcurrency = 32;
const profile = env.BENCH_PROFILE === '1';
if (profile) mkdirSync(join(root, '.scratch', 'profiles'), { recursive: true });
const apiserverLog = join(dirname(kubeconfig), 'kube-apiserver.log');
/** The control plane's processes, whose quiet each contender waits for (test/cluster/env.sh writes their PIDs beside the kubeconfig). */
const controlPlane = ['apiserver.pid', 'etcd.pid'].map((file) => Number(readFileSync(join(dirname(kubeconfig), file), 'utf8').trim()));
const NAMESPACES = 50;

const node = (id: string, label: string, file: string, ...args: string[]): Contender => nodeContender(profile, id, label, file, ...args);
const noWatchList = { KUBE_FEATURE_WatchListClient: 'false' };
/** A young generation of 4 MiB semi-spaces instead of the tens V8 grows it to while a list is read. */
const smallYoungGeneration = { NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --max-semi-space-size=4`.trim() };
/** Contenders that only GET: no watch, no burst. */
const getOnly = new Set(['get-json', 'get-protobuf']);
const allContenders: Contender[] = [
  node('rx', 'rx-informer, default options (LIST resourceVersion=0&limit=500, R1)', 'rxInformer.ts'),
  node('rx-strip', 'rx-informer + stripManagedFields', 'rxInformer.ts', '--strip'),
  node('rx-stream', 'rx-informer, streamingList: true (WATCH sendInitialEvents=true, R11)', 'rxInformer.ts', '--streaming'),
  node('rx-paged', "rx-informer, listSemantic: 'mostRecent' (LIST resourceVersion=\"\"&limit=500: pages)", 'rxInformer.ts', '--paged'),
  node('client-node', '@kubernetes/client-node 2.x makeInformer (one unpaged LIST)', 'clientNode.ts'),
  // Opt-in: rx with each LIST page handed over whole, as before large pages came in parts (bench/NOTES.md, issue 24's sixth round).
  { ...node('rx-whole', 'rx-informer, default options, each LIST page handed to the store whole (as before pages in parts)', 'rxInformer.ts', '--whole'), optIn: true },
  // Opt-in: the same two with V8's young generation capped (bench/NOTES.md, issue 24's fourth round).
  { ...node('rx-semi4', 'rx-informer, default options, Node run with --max-semi-space-size=4', 'rxInformer.ts'), env: smallYoungGeneration, optIn: true },
  { ...node('client-node-semi4', 'client-node, Node run with --max-semi-space-size=4', 'clientNode.ts'), env: smallYoungGeneration, optIn: true },
  goContender(profile, 'client-go', 'client-go v0.37 SharedInformer, JSON, its default initial list (streaming, WatchListClient)'),
  goContender(profile, 'client-go-proto', 'client-go, protobuf, streaming list', ['-protobuf']),
  goContender(profile, 'client-go-list', 'client-go, JSON, WatchListClient=false (LIST)', [], noWatchList),
  goContender(profile, 'client-go-proto-list', 'client-go, protobuf, WatchListClient=false (LIST)', ['-protobuf'], noWatchList),
  node('floor-parse', 'floor: the LIST rx sends, JSON.parse, then WATCH; nothing kept', 'floor.ts'),
  node('floor-map', 'floor: the same + Map.set by namespace/name', 'floor.ts', '--map'),
  goContender(profile, 'get-json', 'GET floor: one GET /api/v1/configmaps?resourceVersion=0 as JSON, read and dropped (Go)', ['-get=/api/v1/configmaps?resourceVersion=0']),
  goContender(profile, 'get-protobuf', 'GET floor: the same as protobuf', ['-get=/api/v1/configmaps?resourceVersion=0', '-protobuf']),
];
const contenders = env.BENCH_CONTENDERS ? allContenders.filter((c) => env.BENCH_CONTENDERS!.split(',').includes(c.id)) : allContenders.filter((c) => !c.optIn);

// The library as users get it (tsc's output), not src/ through tsx.
const rxLib = buildLibrary();
const client = apiClient(kubeconfig);
let seq = 0;

/** Writes updates `first..first+count-1` (round-robin over the N objects): a burst, or at `perSecond`. */
async function write(n: number, count: number, perSecond?: number): Promise<{ first: number; sent: number; done: number }> {
  const first = seq + 1;
  seq += count;
  const patch = (k: number): Promise<void> => {
    const i = (first + k) % n;
    return expectStatus(client, [200], 'PATCH', `/api/v1/namespaces/${namespaceOf(i)}/configmaps/${nameOf(i)}`, updatePatch(first + k), 'application/merge-patch+json');
  };
  const sent = nowMs();
  if (perSecond === undefined) await pool(0, count, burstConcurrency, patch);
  else {
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let k = 0; k < count; k++) {
      const due = start + (k * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      inFlight.push(patch(k));
    }
    await Promise.all(inFlight);
  }
  return { first, sent, done: nowMs() };
}

const logSize = (): number => statSync(apiserverLog).size;
/** Watchers the apiserver closed as unresponsive since `offset` (its log, --v=1). */
function forceClosedSince(offset: number): number {
  const text = readFileSync(apiserverLog).subarray(offset).toString('utf8');
  return text.split('\n').filter((line) => line.includes('watcher close due to unresponsiveness')).length;
}

async function measure(child: ReturnType<typeof spawn>, out: ReturnType<typeof lines>, n: number, count: number, perSecond?: number): Promise<Measured & { rss: number }> {
  const first = seq + 1;
  tell(child, { type: 'measure', first, last: first + count - 1, record: true });
  const armed = await out.next<ArmedMessage>('armed', 60_000);
  const measuredP = out.next<MeasuredMessage>('measured', 120_000 + count * 20);
  const written = await write(n, count, perSecond);
  const measured = await measuredP;
  const sorted = [...measured.latencies].sort((a, b) => a - b);
  return {
    rss: armed.rss,
    eventsPerSecond: count / ((measured.lastSeen - written.sent) / 1000),
    writesPerSecond: count / ((written.done - written.sent) / 1000),
    cpuMsPer1000: (measured.cpuMs / count) * 1000,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1)!,
    maxRSS: measured.maxRSS,
    ...(typeof measured.instruments?.['watchesReopened'] === 'number' ? { watchesReopened: measured.instruments['watchesReopened'] } : {}),
  };
}

async function runContender(contender: Contender, n: number, run: number): Promise<ClusterSample> {
  const tag = `cluster-${contender.id}-n${n}-r${run}`;
  const [command, args] = contender.command(kubeconfig!, tag);
  const settle = await waitForIdle(controlPlane);
  if (!settle.idle) log(`${tag}: the apiserver and etcd were still busy after ${(settle.waitedMs / 1000).toFixed(0)} s; starting anyway`);
  const logOffset = logSize();
  const before = await requestCounts(client);
  const child = spawn(command, args, { cwd: root, env: { ...env, BENCH_RX_LIB: rxLib, ...contender.env, BENCH_KUBECONFIG: kubeconfig, BENCH_TAG: tag }, stdio: ['pipe', 'pipe', 'inherit'] });
  const out = lines(child, tag);
  try {
    const synced = await out.next<SyncedMessage & { bytes?: number }>('synced', 120_000 + n * 3);
    if (!getOnly.has(contender.id) && synced.count < n) throw new Error(`${tag}: synced with ${synced.count} objects, expected at least ${n}`);
    const sample: ClusterSample = {
      contender: contender.id,
      n,
      run,
      syncMs: synced.synced - synced.start,
      heapRetained: synced.heapAfterGC - synced.heapBaseline,
      maxRSSAtSync: synced.maxRSS,
      ...(synced.bytes !== undefined ? { bytes: synced.bytes } : {}),
      forceClosed: 0,
      requests: {},
      settle: { waitedMs: Math.round(settle.waitedMs), idle: settle.idle },
    };
    if (!getOnly.has(contender.id)) {
      const burst = await measure(child, out, n, updates);
      sample.settledRSS = burst.rss;
      sample.burst = burst;
      if (n === Math.min(...sizes)) sample.steady = await measure(child, out, n, rateUpdates, rate);
    }
    tell(child, { type: 'exit' });
    await exited(child);
    sample.forceClosed = forceClosedSince(logOffset);
    const after = await requestCounts(client);
    // The contender's own requests (the PATCHes are the loader's).
    for (const verb of ['LIST', 'WATCH', 'GET']) if ((after[verb] ?? 0) - (before[verb] ?? 0) > 0) sample.requests[verb] = after[verb]! - (before[verb] ?? 0);
    return sample;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

const started = new Date();
let loadMax = loadavg()[0]!;
const loadSampler = setInterval(() => (loadMax = Math.max(loadMax, loadavg()[0]!)), 5_000);
loadSampler.unref();
const version = JSON.parse((await client.call('GET', '/version')).text) as { gitVersion: string };
const results: ClusterResults = {
  kind: 'cluster',
  command: 'npm run bench:cluster',
  startedAt: started.toISOString(),
  machine: { ...machineInfo(), apiserver: version.gitVersion, etcd: 'v3.6.16' },
  config: { sizes, runs, updates, burstConcurrency, rate, rateUpdates },
  contenders: contenders.map(({ id, label }) => ({ id, label })),
  loads: [],
  samples: [],
  failures: [],
};
if (contenders.some((c) => c.command('', '')[0].endsWith('client-go-bench'))) results.machine.go = buildClientGo();

await createNamespaces(client, NAMESPACES);
let loaded = 0;
for (const n of sizes) {
  log(`N = ${n}: creating ConfigMaps ${loaded}..${n - 1} through the apiserver`);
  const perSecond = await loadConfigMaps(client, loaded, n);
  results.loads.push({ from: loaded, to: n, createsPerSecond: perSecond });
  log(`N = ${n}: loaded at ${perSecond.toFixed(0)} creates/s`);
  loaded = n;
  for (let run = 0; run < runs; run++) {
    const order = contenders.map((_, i) => contenders[(i + run) % contenders.length]!);
    for (const contender of order) {
      try {
        const s = await runContender(contender, n, run);
        results.samples.push(s);
        log(
          `N = ${n} run ${run + 1}/${runs} ${contender.id}: sync ${s.syncMs.toFixed(0)} ms, heap ${(s.heapRetained / 2 ** 20).toFixed(1)} MiB, peak RSS ${(s.maxRSSAtSync / 2 ** 20).toFixed(0)} MiB` +
            (s.burst ? `, settled RSS ${(s.settledRSS! / 2 ** 20).toFixed(0)} MiB, ${s.burst.cpuMsPer1000.toFixed(1)} ms CPU/1000 events, burst ${s.burst.writesPerSecond.toFixed(0)} writes/s p99 ${s.burst.p99.toFixed(1)} ms` : '') +
            (s.burst?.watchesReopened !== undefined ? `, watches opened again in the burst ${s.burst.watchesReopened}` : '') +
            (s.steady ? `, ${rate}/s p50 ${s.steady.p50.toFixed(2)} p99 ${s.steady.p99.toFixed(2)} ms` : '') +
            `, requests ${JSON.stringify(s.requests)}, force-closed ${s.forceClosed}, waited ${s.settle!.waitedMs} ms for an idle control plane`,
        );
      } catch (error) {
        results.failures.push({ contender: contender.id, n, run, error: String((error as Error).message ?? error) });
        log(`N = ${n} run ${run + 1}/${runs} ${contender.id}: FAILED ${(error as Error).message}`);
      }
    }
    // The updates pile up revisions in etcd (--etcd-compaction-interval=0 here): compact after each round.
    execFileSync('bash', [join(root, 'test', 'cluster', 'env.sh'), 'compact'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

results.finishedAt = new Date().toISOString();
results.machine.loadavgAtEnd = loadavg().map((l) => l.toFixed(2)).join(' ');
results.machine.loadavgMax = Math.max(loadMax, loadavg()[0]!).toFixed(2);
clearInterval(loadSampler);
client.close();
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const jsonPath = join(root, 'bench', 'results', `cluster-${started.toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
log(`raw results: ${jsonPath}`);
if ((env.BENCH_SIZES === undefined && env.BENCH_CONTENDERS === undefined) || env.BENCH_WRITE === '1') log(`wrote ${writeBenchmarks('cluster', renderCluster(results))}`);
else process.stdout.write(renderCluster(results));
if (results.failures.length > 0) {
  log(`${results.failures.length} contender run(s) failed`);
  process.exitCode = 1;
}
