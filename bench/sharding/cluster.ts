/**
 * `npm run bench:sharding`: the two sharding modes and one unsharded informer against a real
 * kube-apiserver v1.36.3 with `ShardedListAndWatch` on (test/cluster/env.sh run starts it). Not in
 * CI: minutes of loading. Asserts nothing; prints Markdown and writes bench/results/sharding-<time>.json.
 *
 * - sync: for each configuration (unsharded ×1; server ×1, ×2, ×4; label ×2, ×4), RUNS rounds in
 *   rotated order, each replica a fresh process (bench/sharding/shardingReplica.ts): per replica, the
 *   time from its start to the last object of its share reconciled for the first time, its heap
 *   after a full GC and its peak RSS once all objects are covered;
 * - membership change (label and server, 2 → 3 replicas): write requests the apiserver served
 *   while the third joined, by resource (its request counters), beside the Lease renewals the
 *   window holds anyway;
 * - handover: `kill -9` of one of the three; the time from the kill to the first and the last of
 *   its objects reconciled by another replica.
 *
 * Each replica runs without a TypeScript loader: bench/sharding/shardingReplica.ts bundled by esbuild
 * as the CLI is (client-node tree-shaken; bench/probes/replicaFloor.ts measures what that takes off
 * a replica's heap), loading the library under test from the build this run compiles
 * (bench/core/library.ts, `BENCH_RX_LIB`), as every benchmark does. BENCH_REPLICA=tsx runs the
 * replica's source under tsx instead (the library still compiled).
 *
 * Environment: BENCH_OBJECTS (20000), BENCH_RUNS (2), BENCH_CONFIGS
 * (unsharded:1,server:1,server:2,server:4,label:2,label:4), BENCH_CHANGES (server,label),
 * LEASE_MS / RENEW_MS / RETRY_MS (15000 / 10000 / 2000), BENCH_LOADER (`etcd`: put the objects
 * into etcd directly, bench/sharding/etcdLoad.ts; otherwise creates through the apiserver).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleNodeProgram } from '../../packages/cli/bundleCli.js';
import { apiClient, expectStatus, pool } from '../cluster/apiClient.js';
import { loadThroughEtcd } from './etcdLoad.js';
import { buildLibrary } from '../core/library.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const env = process.env;
if (!env.KUBECONFIG || !env.CLUSTER_API_URL) throw new Error('run through `npm run bench:sharding` (test/cluster/env.sh run -- …)');
const objects = Number(env.BENCH_OBJECTS ?? 20_000);
const rounds = Number(env.BENCH_RUNS ?? 2);
const configs = (env.BENCH_CONFIGS ?? 'unsharded:1,server:1,server:2,server:4,label:2,label:4').split(',').map((c) => ({ mode: c.split(':')[0]!, replicas: Number(c.split(':')[1]) }));
const timing = { LEASE_MS: env.LEASE_MS ?? '15000', RENEW_MS: env.RENEW_MS ?? '10000', RETRY_MS: env.RETRY_MS ?? '2000' };
const namespace = 'bench-sharding';
const api = apiClient(env.KUBECONFIG);
const scratch = join(root, '.cluster', 'work', `bench-sharding-${process.pid}`);
mkdirSync(scratch, { recursive: true });
const underTsx = env.BENCH_REPLICA === 'tsx';
// The library under test, compiled once for every replica (bench/core/library.ts).
const rxLib = buildLibrary();
const replicaProgram = underTsx ? ['--import=tsx', join(root, 'bench/sharding/shardingReplica.ts')] : [join(scratch, 'replica', 'shardingReplica.js')];
if (!underTsx) await bundleNodeProgram({ shardingReplica: 'bench/sharding/shardingReplica.ts' }, join(scratch, 'replica'), root);
const now = (): number => performance.timeOrigin + performance.now();
const log = (text: string): void => console.error(`[bench:sharding ${new Date().toISOString().slice(11, 19)}] ${text}`);

interface Replica { readonly name: string; readonly child: ChildProcess; readonly out: string; distinct: number; lastNewAt: number; startedAt: number; memory?: { heapUsed: number; rss: number; maxRss: number; cached: number }; failed?: string }
let ringCount = 0;

function spawnReplica(mode: string, ring: string, name: string): Replica {
  const out = join(scratch, `${ring}-${name}`);
  const child = spawn(process.execPath, ['--expose-gc', ...replicaProgram], {
    cwd: root,
    env: { ...env, MODE: mode, NS: namespace, RING: ring, NAME: name, OUT: out, BENCH_RX_LIB: rxLib, ...timing },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const replica: Replica = { name, child, out, distinct: 0, lastNewAt: 0, startedAt: now() };
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, nl)) as { event: string; distinct?: number; lastNewAt?: number; startedAt?: number; heapUsed?: number; rss?: number; maxRss?: number; cached?: number; message?: string };
      buffer = buffer.slice(nl + 1);
      if (message.event === 'progress') Object.assign(replica, { distinct: message.distinct, lastNewAt: message.lastNewAt, startedAt: message.startedAt });
      else if (message.event === 'memory') replica.memory = { heapUsed: message.heapUsed!, rss: message.rss!, maxRss: message.maxRss!, cached: message.cached! };
      else if (message.event === 'error') replica.failed = message.message!;
    }
  });
  return replica;
}

async function until(condition: () => boolean, what: string, timeoutMs = 600_000, poll?: () => Promise<void>): Promise<void> {
  const deadline = now() + timeoutMs;
  for (await poll?.(); !condition(); await poll?.()) {
    if (now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, poll ? 1_000 : 100));
  }
}

/** Until every replica's count of distinct keys has stayed put for `quietMs` and they cover at least `expected`. */
async function settled(group: readonly Replica[], expected: number, quietMs = 3_000): Promise<void> {
  let last = '';
  let since = now();
  await until(() => {
    const failed = group.find((r) => r.failed);
    if (failed) throw new Error(`${failed.name} failed: ${failed.failed}`);
    const state = group.map((r) => r.distinct).join(',');
    if (state !== last) [last, since] = [state, now()];
    return group.reduce((sum, r) => sum + r.distinct, 0) >= expected && group.every((r) => r.distinct > 0) && now() - since >= quietMs;
  }, `${group.length} replicas to settle`);
}

async function memoryOf(group: readonly Replica[]): Promise<void> {
  for (const r of group) r.memory = undefined;
  for (const r of group) r.child.kill('SIGUSR2');
  await until(() => group.every((r) => r.memory !== undefined), 'memory reports', 60_000);
}

function stop(group: readonly Replica[]): Promise<unknown> {
  return Promise.all(group.map((r) => new Promise((resolve) => (r.child.exitCode !== null || r.child.signalCode !== null ? resolve(undefined) : (r.child.once('exit', resolve), r.child.kill('SIGKILL'))))));
}

/** Write requests served so far, by resource (apiserver_request_total). */
async function writes(): Promise<Record<string, number>> {
  const { text } = await api.call('GET', '/metrics');
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const verb = /verb="([A-Z]+)"/.exec(line)?.[1];
    const resource = /resource="([a-z]+)"/.exec(line)?.[1];
    if (verb === undefined || resource === undefined || !['POST', 'PUT', 'PATCH', 'DELETE'].includes(verb)) continue;
    out[resource] = (out[resource] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return out;
}
const diff = (after: Record<string, number>, before: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]).filter(([, v]) => (v as number) > 0));

interface SyncSample { mode: string; replicas: number; round: number; perReplica: Array<{ syncMs: number; heapMiB: number; peakRssMiB: number; cached: number }> }
const samples: SyncSample[] = [];
const changes: Array<Record<string, unknown>> = [];

async function load(): Promise<void> {
  await expectStatus(api, [201, 409], 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const body = (i: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace, labels: { app: 'bench' } }, data: { payload: 'x'.repeat(1_000), index: String(i) } });
  const began = now();
  if (env.BENCH_LOADER === 'etcd') {
    await loadThroughEtcd(env.CLUSTER_ETCD_URL!, namespace, 0, objects, body);
    // Until the apiserver serves them all: from etcd (a consistent LIST of one, counting the rest),
    // and from its watch cache (resourceVersion=0, what the replicas' informers list).
    await until(() => served === objects, 'the apiserver to serve every object', 300_000, async () => {
      const { text } = await api.call('GET', `/api/v1/namespaces/${namespace}/configmaps?limit=1`);
      const list = JSON.parse(text) as { items: unknown[]; metadata: { remainingItemCount?: number } };
      served = list.items.length + (list.metadata.remainingItemCount ?? 0);
    });
    await until(() => cached === objects, "the apiserver's watch cache to serve every object", 60_000, async () => {
      const { text } = await api.call('GET', `/api/v1/namespaces/${namespace}/configmaps?resourceVersion=0`);
      cached = (JSON.parse(text) as { items: unknown[] }).items.length;
    }).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}: a resourceVersion=0 LIST serves ${cached} of ${objects}`);
    });
  } else await pool(0, objects, 32, (i) => expectStatus(api, [201, 409], 'POST', `/api/v1/namespaces/${namespace}/configmaps`, body(i)));
  log(`loaded ${objects} ConfigMaps in ${Math.round((now() - began) / 1000)} s (${env.BENCH_LOADER === 'etcd' ? 'through etcd' : 'creates through the apiserver'})`);
}
let served = 0;
let cached = 0;

async function syncRound(mode: string, replicas: number, round: number): Promise<void> {
  const ring = `r${++ringCount}`;
  const group = Array.from({ length: replicas }, (_, i) => spawnReplica(mode, ring, `${mode}-${i}`));
  try {
    // Settled, and every replica's current informer holds its share (a server-side member that is
    // between two stretches of ranges holds nothing for a moment): the caches add up to all.
    for (let tries = 0; ; tries++) {
      await settled(group, objects);
      await memoryOf(group);
      if (group.reduce((sum, r) => sum + r.memory!.cached, 0) === objects && group.every((r) => r.memory!.cached > 0)) break;
      if (tries === 60) throw new Error(`${mode} ×${replicas}: the caches never added up to ${objects}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const perReplica = group.map((r) => ({ syncMs: Math.round(r.lastNewAt - r.startedAt), heapMiB: +(r.memory!.heapUsed / 2 ** 20).toFixed(1), peakRssMiB: +(r.memory!.maxRss / 2 ** 20).toFixed(1), cached: r.memory!.cached }));
    samples.push({ mode, replicas, round, perReplica });
    log(`${mode} ×${replicas} round ${round}: ${JSON.stringify(perReplica)}`);
  } finally {
    await stop(group);
  }
}

async function membershipChange(mode: string): Promise<void> {
  const ring = `r${++ringCount}`;
  const group = [spawnReplica(mode, ring, `${mode}-a`), spawnReplica(mode, ring, `${mode}-b`)];
  try {
    await settled(group, objects);
    const before = await writes();
    const joinedAt = now();
    const third = spawnReplica(mode, ring, `${mode}-c`);
    group.push(third);
    await until(() => third.distinct > objects / 6, 'the third replica to take a share');
    await settled(group, objects);
    const joinMs = now() - joinedAt;
    const joinWrites = diff(await writes(), before);
    // Handover: mark, then kill -9 the first replica; its cached keys must be reconciled by the others.
    for (const r of group) r.child.kill('SIGUSR1');
    await until(() => group.every((r) => existsSync(`${r.out}.keys`)), 'the marks');
    await new Promise((resolve) => setTimeout(resolve, 200)); // the mark is a signal: let the files be written
    const victim = group[0]!;
    const victimKeys = readFileSync(`${victim.out}.keys`, 'utf8').split('\n').filter(Boolean);
    victim.child.kill('SIGKILL');
    const killedAt = now();
    const firstSeen = new Map<string, number>();
    await until(() => {
      for (const r of group.slice(1)) {
        if (!existsSync(`${r.out}.after`)) continue;
        for (const line of readFileSync(`${r.out}.after`, 'utf8').split('\n')) {
          const [key, at] = line.split(' ');
          if (key && at && Number(at) > killedAt && !firstSeen.has(key)) firstSeen.set(key, Number(at));
        }
      }
      return victimKeys.every((key) => firstSeen.has(key));
    }, 'the victim’s keys to be reconciled elsewhere');
    const times = victimKeys.map((key) => firstSeen.get(key)! - killedAt);
    const record = { mode, joinMs: Math.round(joinMs), joinWrites, renewalsInWindow: Math.round((joinMs / Number(timing.RETRY_MS)) * (group.length + (mode === 'label' ? 1 : 0))), victimKeys: victimKeys.length, handoverFirstMs: Math.round(Math.min(...times)), handoverLastMs: Math.round(Math.max(...times)) };
    changes.push(record);
    log(JSON.stringify(record));
  } finally {
    await stop(group);
  }
}

await load();
for (let round = 0; round < rounds; round++) {
  const order = configs.map((_, i) => configs[(i + round) % configs.length]!);
  for (const { mode, replicas } of order) await syncRound(mode, replicas, round);
}
for (const mode of (env.BENCH_CHANGES ?? 'server,label').split(',').filter(Boolean)) await membershipChange(mode);
api.close();

const results = { at: new Date().toISOString(), objects, rounds, timing, replica: underTsx ? 'tsx' : 'esbuild bundle', machine: { cpus: cpus().length, load: loadavg() }, samples, changes };
mkdirSync(join(root, 'bench/results'), { recursive: true });
const file = join(root, `bench/results/sharding-${results.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
const unsharded = samples.filter((s) => s.mode === 'unsharded').flatMap((s) => s.perReplica.map((p) => p.heapMiB));
const base = unsharded.reduce((a, b) => a + b, 0) / Math.max(1, unsharded.length);
const rows = ['| mode | replicas | sync per replica, s (min–max) | heap per replica, MiB (min–max) | largest heap × N / unsharded (target ≤ 1.15) | peak RSS per replica, MiB (min–max) |', '|---|---|---|---|---|---|'];
for (const { mode, replicas } of configs) {
  const per = samples.filter((s) => s.mode === mode && s.replicas === replicas).flatMap((s) => s.perReplica);
  const range = (values: number[], scale = 1) => `${(Math.min(...values) / scale).toFixed(1)}–${(Math.max(...values) / scale).toFixed(1)}`;
  rows.push(`| ${mode} | ${replicas} | ${range(per.map((p) => p.syncMs), 1000)} | ${range(per.map((p) => p.heapMiB))} | ${((Math.max(...per.map((p) => p.heapMiB)) * replicas) / base).toFixed(2)} | ${range(per.map((p) => p.peakRssMiB))} |`);
}
console.log(rows.join('\n'));
console.log('\n| mode | join 2 → 3: write requests by resource | Lease renewals in that window | join settled, s | kill -9: first / last of its objects reconciled elsewhere, s |\n|---|---|---|---|---|');
for (const c of changes) console.log(`| ${c['mode']} | ${JSON.stringify(c['joinWrites'])} | ~${c['renewalsInWindow']} | ${((c['joinMs'] as number) / 1000).toFixed(1)} | ${((c['handoverFirstMs'] as number) / 1000).toFixed(1)} / ${((c['handoverLastMs'] as number) / 1000).toFixed(1)} |`);
console.log(`\n${file}`);
