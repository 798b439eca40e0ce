/**
 * `npm run bench:controller`: rx-informer's `controller()` against controller-runtime v0.24.1
 * (bench/controller/controller-runtime, built from Go modules into .bench-build/) on a real kube-apiserver
 * v1.36.3 + etcd (test/cluster/env.sh run starts them and stops them after). Not in CI.
 *
 * One invocation loads the ConfigMaps once (cumulatively: 10,000, then 100,000) and runs ROUNDS
 * rounds at each size, every contender in its own fresh process, the order rotated by round (and by
 * the results already in bench/results, so that rounds of separate invocations rotate too). Parts:
 *
 * - `backlog`: a no-op controller (it reads its object from the cache and returns) starts over N
 *   objects: time from its start to every object reconciled once, and the process's CPU time over
 *   the same span divided by the reconciles.
 * - `fresh`: each reconcile sleeps COST ms (2 at 10,000, 1 at 100,000), concurrency 1 (both
 *   defaults), so the initial list is a backlog; once N/10 objects have been reconciled, the object
 *   listed last is changed: its latency to a reconcile that reads the change, with the priority
 *   queue on and off (controller-runtime `UsePriorityQueue`; rx `priority`), and the backlog's drain
 *   time (first reconcile to every object reconciled). At 100,000 only with priority (without, the
 *   change waits for the drain, as at 10,000), unless BENCH_FRESH_OFF=1.
 * - `failover` (smallest N only): two replicas under leader election (2 s lease, 1.5 s renew
 *   deadline, 0.5 s retry); once the leader has reconciled everything and the follower stands by
 *   (warm: its informer synced), the leader is killed (SIGKILL) and the object listed last is
 *   changed; the follower's time from the kill and from its election to reconciling that change,
 *   with warm replicas on and off (controller-runtime `EnableWarmup`; rx `warmReplicas`).
 *
 * Environment: BENCH_SIZES=10000,100000 BENCH_ROUNDS=1 BENCH_PARTS=backlog,fresh,failover
 * BENCH_CONTENDERS=rx,controller-runtime BENCH_BUDGET_MIN=11 (no job starts after that many minutes) BENCH_STOP_AT=HH:MM (UTC; nor after then). Results: bench/results/controller-<time>.json (ignored),
 * then bench/results/controller.md and BENCHMARKS.md rendered from every controller-*.json there
 * (BENCH_RENDER_ONLY=1: render only, without a cluster).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildGoContender, exited, lines, log, machineInfo, root } from '../core/child.js';
import { buildLibrary } from '../core/library.js';
import { nowMs } from '../core/protocol.js';
import { nameOf, namespaceOf } from '../core/workload.js';
import { apiClient, createNamespaces, expectStatus, loadConfigMaps, type ApiClient } from '../cluster/apiClient.js';
import { freshAnnotation, type ControllerEvent } from './protocol.js';
import { renderControllerBench, resultFiles, type ControllerResults, type ControllerSample } from './report.js';

const env = process.env;
const resultsDir = join(root, 'bench', 'results');
if (env.BENCH_RENDER_ONLY === '1') {
  log(`wrote ${renderControllerBench(resultsDir)}`);
  process.exit(0);
}
const kubeconfig = env.KUBECONFIG;
if (!kubeconfig || !env.CLUSTER_API_URL) throw new Error('run through `npm run bench:controller` (test/cluster/env.sh run -- …)');
const sizes = (env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const rounds = Number(env.BENCH_ROUNDS ?? 1);
const parts = (env.BENCH_PARTS ?? 'backlog,fresh,failover').split(',');
const freshOffAtLargest = env.BENCH_FRESH_OFF === '1';
// The heavy lock is held at most 15 minutes a turn: no job starts after this many minutes of the run.
const budgetMs = Number(env.BENCH_BUDGET_MIN ?? 11) * 60_000;
// Or no job starts after this wall-clock time (BENCH_STOP_AT=HH:MM, UTC), whichever comes first.
const stopAt = env.BENCH_STOP_AT ? Date.parse(`${new Date().toISOString().slice(0, 11)}${env.BENCH_STOP_AT}:00Z`) : Infinity;
const NAMESPACES = 50;
const costMsAt = (n: number): number => (n <= 10_000 ? 2 : 1);
const lease = { durationMs: 2_000, renewMs: 1_500, retryMs: 500 };

interface ControllerContender {
  readonly id: string;
  readonly label: string;
  command(args: readonly string[]): [string, string[]];
}
const crBinary = join(root, '.bench-build', 'controller-runtime-bench');
const allContenders: ControllerContender[] = [
  {
    id: 'rx',
    label: 'rx-informer controller() over informerFactory ConfigMaps, default options (concurrency 1, priority on, read-your-own-writes on)',
    command: (args) => [process.execPath, ['--import=tsx', join(root, 'bench', 'controller', 'rxController.ts'), ...args]],
  },
  {
    id: 'controller-runtime',
    label: 'controller-runtime v0.24.1 builder For(ConfigMap), default options (MaxConcurrentReconciles 1, priority queue on), cached Get in the reconciler',
    command: (args) => [crBinary, [...args]],
  },
];
const contenders = env.BENCH_CONTENDERS ? allContenders.filter((c) => env.BENCH_CONTENDERS!.split(',').includes(c.id)) : allContenders;

const client = apiClient(kubeconfig);
const rxLib = buildLibrary();
const go = buildGoContender('controller/controller-runtime', crBinary);
/** Rotation of the first round: the rounds already on file, so separate invocations rotate too. */
const offset = resultFiles(resultsDir).length;

interface Running {
  readonly child: ChildProcess;
  next<E extends ControllerEvent['type']>(type: E, timeoutMs: number): Promise<Extract<ControllerEvent, { type: E }>>;
}

function start(contender: ControllerContender, tag: string, args: readonly string[]): Running {
  const [command, argv] = contender.command([`--kubeconfig=${kubeconfig}`, ...args]);
  const child = spawn(command, argv, { cwd: root, env: { ...env, BENCH_RX_LIB: rxLib }, stdio: ['pipe', 'pipe', 'inherit'] });
  const out = lines(child, tag);
  return { child, next: (type, timeoutMs) => out.next(type, timeoutMs) };
}

async function stop(running: Running): Promise<void> {
  running.child.kill('SIGKILL');
  await exited(running.child);
}

/** The object listed last (etcd's key order: namespace, then name), which a first-come-first-served queue reaches last. */
function listedLast(n: number): { namespace: string; name: string } {
  let last = { namespace: namespaceOf(0), name: nameOf(0) };
  for (let i = 1; i < n; i++) {
    const ref = { namespace: namespaceOf(i), name: nameOf(i) };
    if (`${ref.namespace}/${ref.name}` > `${last.namespace}/${last.name}`) last = ref;
  }
  return last;
}

/** Sets (or with `undefined` removes) the fresh annotation of `ref`; resolves with the time it was sent. */
async function markFresh(ref: { namespace: string; name: string }, value: string | null): Promise<number> {
  const sent = nowMs();
  await expectStatus(client, [200], 'PATCH', `/api/v1/namespaces/${ref.namespace}/configmaps/${ref.name}`, { metadata: { annotations: { [freshAnnotation]: value } } }, 'application/merge-patch+json');
  return sent;
}

const allTimeout = (n: number): number => 120_000 + n * 5;

async function backlog(contender: ControllerContender, n: number, tag: string): Promise<Record<string, number>> {
  const run = start(contender, tag, [`--n=${n}`]);
  try {
    const started = await run.next('start', 30_000);
    const all = await run.next('all', allTimeout(n));
    return { allMs: all.t - started.t, cpuMs: all.cpuMs, reconciles: all.reconciles, cpuUsPerReconcile: (all.cpuMs / all.reconciles) * 1000 };
  } finally {
    await stop(run);
  }
}

async function fresh(contender: ControllerContender, n: number, priority: boolean, tag: string): Promise<Record<string, number>> {
  const target = listedLast(n);
  await markFresh(target, null);
  const costMs = costMsAt(n);
  const run = start(contender, tag, [`--n=${n}`, `--mark=${n / 10}`, `--cost-ms=${costMs}`, `--priority=${priority}`, `--fresh=${target.namespace}/${target.name}`]);
  try {
    await run.next('mark', allTimeout(n));
    const sent = await markFresh(target, String(nowMs()));
    const first = await run.next('first', 1_000);
    const seen = await run.next('fresh', allTimeout(n) + n * costMs * 2);
    const all = await run.next('all', allTimeout(n) + n * costMs * 2);
    return { costMs, freshMs: seen.t - sent, drainMs: all.t - first.t, freshPctOfDrain: ((seen.t - sent) / (all.t - first.t)) * 100, backlogAfterChangeMs: all.t - sent, reconcilesBeforeFresh: seen.reconciles };
  } finally {
    await stop(run);
  }
}

/** Resolves once the Lease `name` has been renewed `times` more times. */
async function renewals(api: ApiClient, name: string, times: number): Promise<void> {
  const renewTime = async (): Promise<string | undefined> => {
    const { status, text } = await api.call('GET', `/apis/coordination.k8s.io/v1/namespaces/default/leases/${name}`);
    return status === 200 ? (JSON.parse(text) as { spec?: { renewTime?: string } }).spec?.renewTime : undefined;
  };
  let last = await renewTime();
  for (let seen = 0; seen < times; ) {
    await new Promise((resolve) => setTimeout(resolve, lease.retryMs / 5));
    const now = await renewTime();
    if (now !== last && now !== undefined) seen++;
    last = now;
  }
}

async function failover(contender: ControllerContender, n: number, warm: boolean, tag: string): Promise<Record<string, number>> {
  const target = listedLast(n);
  await markFresh(target, null);
  const leaseName = `bench-${tag}-${Date.now()}`;
  const args = [`--n=${n}`, `--lease=${leaseName}`, `--fresh=${target.namespace}/${target.name}`, ...(warm ? ['--warm'] : [])];
  const leader = start(contender, `${tag}-a`, args);
  let follower: Running | undefined;
  try {
    await leader.next('leader', 30_000);
    await leader.next('all', allTimeout(n));
    follower = start(contender, `${tag}-b`, args);
    await follower.next('standby', allTimeout(n));
    // The follower has seen the lease held (it campaigns from its start, every retry period).
    await renewals(client, leaseName, 2);
    const killed = nowMs();
    await stop(leader);
    await markFresh(target, String(nowMs()));
    const elected = await follower.next('leader', 30_000);
    const first = await follower.next('first', allTimeout(n));
    const seen = await follower.next('fresh', allTimeout(n));
    return { killToLeaderMs: elected.t - killed, leaderToFirstMs: first.t - elected.t, leaderToFreshMs: seen.t - elected.t, killToFreshMs: seen.t - killed, reconcilesBeforeFresh: seen.reconciles };
  } finally {
    await stop(leader);
    if (follower) await stop(follower);
  }
}

const started = new Date();
let loadMax = loadavg()[0]!;
const loadSampler = setInterval(() => (loadMax = Math.max(loadMax, loadavg()[0]!)), 5_000);
loadSampler.unref();
const version = JSON.parse((await client.call('GET', '/version')).text) as { gitVersion: string };
const results: ControllerResults = {
  kind: 'controller',
  command: 'npm run bench:controller',
  env: Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('BENCH_'))) as Record<string, string>,
  startedAt: started.toISOString(),
  machine: { ...machineInfo(), go, apiserver: version.gitVersion, etcd: 'v3.6.16' },
  config: { sizes, rounds, parts, costMs: Object.fromEntries(sizes.map((n) => [n, costMsAt(n)])), lease },
  contenders: contenders.map(({ id, label }) => ({ id, label })),
  loads: [],
  samples: [],
  failures: [],
};

await createNamespaces(client, NAMESPACES);
let loaded = 0;
for (const n of sizes) {
  log(`N = ${n}: creating ConfigMaps ${loaded}..${n - 1} through the apiserver`);
  results.loads.push({ from: loaded, to: n, createsPerSecond: await loadConfigMaps(client, loaded, n) });
  loaded = n;
  for (let r = 0; r < rounds; r++) {
    const round = offset + r;
    const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
    const jobs: [string, string, (c: ControllerContender, tag: string) => Promise<Record<string, number>>][] = [];
    if (parts.includes('backlog')) jobs.push(['backlog', 'no-op', (c, tag) => backlog(c, n, tag)]);
    if (parts.includes('fresh')) {
      jobs.push(['fresh', 'priority', (c, tag) => fresh(c, n, true, tag)]);
      if (n === Math.min(...sizes) || freshOffAtLargest) jobs.push(['fresh', 'no priority', (c, tag) => fresh(c, n, false, tag)]);
    }
    if (parts.includes('failover') && n === Math.min(...sizes)) {
      jobs.push(['failover', 'warm', (c, tag) => failover(c, n, true, tag)]);
      jobs.push(['failover', 'cold', (c, tag) => failover(c, n, false, tag)]);
    }
    for (const [part, variant, job] of jobs) {
      for (const contender of order) {
        const tag = `${contender.id}-${part}-${variant.replace(' ', '')}-n${n}-r${round}`;
        if (Date.now() - started.getTime() > budgetMs || Date.now() > stopAt) {
          results.failures.push({ part, variant, contender: contender.id, n, round, error: 'not run: the time budget (BENCH_BUDGET_MIN) was spent' });
          continue;
        }
        log(`${tag}: load ${loadavg()[0]!.toFixed(2)}`);
        const load1 = loadavg()[0]!;
        try {
          const figures = await job(contender, tag);
          const sample: ControllerSample = { part, variant, contender: contender.id, n, round, load1, figures };
          results.samples.push(sample);
          log(`${tag}: ${JSON.stringify(figures)}`);
        } catch (error) {
          results.failures.push({ part, variant, contender: contender.id, n, round, error: String(error) });
          log(`${tag}: FAILED ${String(error)}`);
        }
      }
    }
  }
}
client.close();
results.finishedAt = new Date().toISOString();
results.loadMax = Math.max(loadMax, loadavg()[0]!);
results.loadavgAtEnd = loadavg().map((l) => l.toFixed(2)).join(' ');
const file = join(resultsDir, `controller-${started.toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
log(`wrote ${file}; ${readdirSync(resultsDir).length} files in bench/results`);
log(`wrote ${renderControllerBench(resultsDir)}`);
