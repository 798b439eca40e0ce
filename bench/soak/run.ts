/**
 * `npm run soak:cluster`: a chaos soak on the real control plane (test/cluster). A bench, not a
 * test: it runs for SOAK_SECONDS, injects faults on a seeded schedule, checks at the end that
 * nothing was lost, prints its figures and exits non-zero when a check fails.
 *
 * Processes: a writer (writer.ts, straight to the API server), SOAK_REPLICAS replicas of the
 * ConfigMapSet operator under leader election (replica.ts) and one process of plain informers with
 * an index (informers.ts), each of the last two kinds behind its own fault proxy (faultProxy.ts).
 * After each fault the orchestrator writes a probe (a ConfigMap and a ConfigMapSet's spec) and
 * times how long until the informers see it and the operator has reconciled it: the recovery time.
 *
 * Environment (defaults: the CI variant): SOAK_SECONDS 180, SOAK_SEED random (printed), SOAK_OBJECTS
 * 10000, SOAK_RATE 200 writes/s, SOAK_SETS 100, SOAK_REPLICAS 3, SOAK_HOLD_MS 8000 (how long a cut,
 * a pause or a throttle lasts), SOAK_GAP_MS 4000–9000 between faults, SOAK_OUT (the results file),
 * SOAK_SVG (write the memory picture there).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { installCrd } from '../../examples/configMapSet/configMapSet.js';
import { apiClient, pool } from '../cluster/apiClient.js';
import { cleanupCounts, heapCheck, memorySamples, overlappingRuns, spread } from './checks.js';
import { faultProxy, type FaultProxy, type Upstream } from './faultProxy.js';
import { faultKinds, inject, schedule, type FaultKind } from './faults.js';
import { readLog } from './logs.js';
import { memoryPicture } from './memoryPicture.js';
import { compareCaches, specMismatches, type ListedObject } from './truth.js';
import { rng } from './rng.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const seed = Number(process.env.SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31));
const seconds = Number(process.env.SOAK_SECONDS ?? 180);
const objects = Number(process.env.SOAK_OBJECTS ?? 10_000);
const replicaCount = Number(process.env.SOAK_REPLICAS ?? 3);
const holdMs = Number(process.env.SOAK_HOLD_MS ?? 8_000);
const [gapMin, gapMax] = (process.env.SOAK_GAP_MS ?? '4000-9000').split('-').map(Number) as [number, number];
const namespace = 'soak';
const random = rng(seed);
const work = join(root, '.soak', String(seed));
mkdirSync(work, { recursive: true });
const logPath = join(work, 'soak.log');
writeFileSync(logPath, '');
const say = (line: string): void => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);
say(`seed ${seed} (replay: SOAK_SEED=${seed}), ${seconds} s, ${objects} ConfigMaps, ${replicaCount} replicas, logs in ${work}`);

// ---------------------------------------------------------------- the cluster and its load
const adminPath = process.env.KUBECONFIG ?? '';
if (!adminPath) throw new Error('[soak] no KUBECONFIG: run through `bash test/cluster/env.sh run -- …` (npm run soak:cluster does)');
const admin = new KubeConfig();
admin.loadFromFile(adminPath);
const upstream: Upstream = { url: admin.getCurrentCluster()!.server, ca: admin.getCurrentCluster()!.caFile!, cert: admin.getCurrentUser()!.certFile!, key: admin.getCurrentUser()!.keyFile! };
const api = apiClient(adminPath, 64);
const call = async (method: string, path: string, body?: unknown, type?: string): Promise<{ status: number; json: any }> => {
  const { status, text } = await api.call(method, path, body, type);
  return { status, json: text ? JSON.parse(text) : undefined };
};
const cmPath = `/api/v1/namespaces/${namespace}/configmaps`;
const setPath = `/apis/demo.rx-informer.dev/v1/namespaces/${namespace}/configmapsets`;

await call('POST', '/api/v1/namespaces', { metadata: { name: namespace } });
await installCrd(admin);
const loadStart = Date.now();
await pool(0, objects, 48, async (i) => {
  const { status } = await api.call('POST', cmPath, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { 'soak/group': `g${i % 10}` } }, data: { v: String(i) } });
  if (status !== 201 && status !== 409) throw new Error(`[soak] loading cm-${i}: ${status}`);
});
say(`loaded ${objects} ConfigMaps in ${((Date.now() - loadStart) / 1000).toFixed(1)} s`);
await call('POST', cmPath, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe' }, data: { n: '0' } });
await call('POST', setPath, { apiVersion: 'demo.rx-informer.dev/v1', kind: 'ConfigMapSet', metadata: { name: 'probe-set' }, spec: { configMaps: { p: { n: '0' } } } });

// ---------------------------------------------------------------- the processes under test
const proxies = new Map<string, FaultProxy>();
const children = new Map<string, ChildProcess>();
const deaths = new Map<string, number>();
let replicaNumber = 0;

async function start(name: string, script: string, extraEnv: Record<string, string>, stdio: 'pipe' | 'inherit'): Promise<ChildProcess> {
  const proxy = await faultProxy(upstream);
  proxies.set(name, proxy);
  const kubeconfig = join(work, `${name}.kubeconfig`);
  writeFileSync(kubeconfig, JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'soak', cluster: { server: proxy.url } }], users: [{ name: 'soak', user: {} }], contexts: [{ name: 'soak', context: { cluster: 'soak', user: 'soak' } }], 'current-context': 'soak' }));
  const child = spawn(process.execPath, ['--expose-gc', '--import=tsx', join('bench/soak', script)], {
    cwd: root,
    env: { ...process.env, SOAK_KUBECONFIG: kubeconfig, SOAK_LOG: logPath, SOAK_NAMESPACE: namespace, SOAK_NAME: name, ...extraEnv },
    stdio: ['pipe', stdio, 'inherit'],
  });
  children.set(name, child);
  return child;
}
const startReplica = (): Promise<ChildProcess> => start(`replica-${++replicaNumber}`, 'replica.ts', {}, 'inherit');
for (let i = 0; i < replicaCount; i++) await startReplica();
const informers = await start('informers', 'informers.ts', {}, 'pipe');
const probeSeen = new Map<number, number>();
const dumps: Array<(events: number) => void> = [];
createInterface({ input: informers.stdout! }).on('line', (line) => {
  const message = JSON.parse(line) as { event: string; n?: number; at?: number; events?: number };
  if (message.event === 'probe') probeSeen.set(message.n!, message.at!);
  else if (message.event === 'dumped') dumps.shift()?.(message.events!);
});
const writer = spawn(process.execPath, ['--import=tsx', 'bench/soak/writer.ts'], {
  cwd: root,
  env: { ...process.env, SOAK_LOG: logPath, SOAK_NAMESPACE: namespace, SOAK_SEED: String(seed), SOAK_OBJECTS: String(objects), SOAK_FIRST_CM: String(objects) },
  stdio: ['ignore', 'inherit', 'inherit'],
});

const leader = async (): Promise<string | undefined> => {
  const { status, json } = await call('GET', `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/soak-operator`).catch(() => ({ status: 0, json: undefined }));
  return status === 200 ? (json?.spec?.holderIdentity as string | undefined) : undefined;
};
const killReplica = async (name: string): Promise<void> => {
  const child = children.get(name);
  if (child === undefined || child.exitCode !== null) return;
  child.kill('SIGKILL');
  deaths.set(name, Date.now());
  children.delete(name);
  await proxies.get(name)?.close();
  proxies.delete(name);
  await startReplica(); // as a restarted pod would come back, under a new identity
};

// ---------------------------------------------------------------- probes: recovery after a fault
let probeNumber = 0;
/** When the last fault injected so far ended: a probe's window runs from the end of its burst. */
let lastFaultEnd = 0;
/** What one probe saw: ms from its start until the informers saw it and until the operator reconciled it. */
interface ProbeResult {
  readonly informersMs: number | undefined;
  readonly operatorMs: number | undefined;
  /** ms from the end of the last fault that landed before the probe was through (its burst). */
  readonly afterBurstMs: number | undefined;
}
/**
 * Writes probe n and waits, each on its own, for the informers to see it and for the operator to
 * reconcile it. Its window is `windowMs` after the end of the last fault injected while it waits:
 * faults are dealt 2–5 s apart whether or not the previous one was recovered from, so they stack
 * into bursts, and a probe is judged from the end of its burst (its time is still counted from its
 * own fault's end).
 */
async function probe(windowMs = 120_000): Promise<ProbeResult> {
  const n = ++probeNumber;
  const from = Date.now();
  const open = (): boolean => Date.now() < Math.max(from, lastFaultEnd) + windowMs;
  const until = async (check: () => Promise<boolean> | boolean): Promise<number | undefined> => {
    while (open()) {
      if (await check()) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return undefined;
  };
  const written = await until(async () => (await call('PATCH', `${cmPath}/probe`, { data: { n: String(n) } }, 'application/merge-patch+json').catch(() => ({ status: 0 }))).status === 200);
  let generation = 0;
  const specWritten = await until(async () => {
    const { status, json } = await call('PATCH', `${setPath}/probe-set`, { spec: { configMaps: { p: { n: String(n) } } } }, 'application/merge-patch+json').catch(() => ({ status: 0, json: undefined }));
    generation = json?.metadata?.generation ?? 0;
    return status === 200;
  });
  if (written === undefined || specWritten === undefined) return { informersMs: undefined, operatorMs: undefined, afterBurstMs: undefined };
  const [seen, reconciled] = await Promise.all([
    until(() => [...probeSeen.keys()].some((k) => k >= n)),
    until(async () => {
      const { status, json } = await call('GET', `${setPath}/probe-set`).catch(() => ({ status: 0, json: undefined }));
      return status === 200 && (json?.status?.observedGeneration ?? 0) >= generation;
    }),
  ]);
  const through = seen !== undefined && reconciled !== undefined ? Math.max(seen, reconciled) : undefined;
  return {
    informersMs: seen === undefined ? undefined : seen - from,
    operatorMs: reconciled === undefined ? undefined : reconciled - from,
    afterBurstMs: through === undefined ? undefined : through - Math.max(from, lastFaultEnd),
  };
}

// ---------------------------------------------------------------- the fault schedule
say(`waiting for the first probe (informers synced, operator leading)`);
const first = await probe(180_000);
const firstProbe = first.afterBurstMs;
if (firstProbe === undefined) throw new Error('[soak] the informers and the operator did not come up within 180 s');
say(`up in ${firstProbe} ms; faults every ${gapMin}–${gapMax} ms after the last one ends`);
const next = schedule(random);
interface Fault {
  readonly kind: FaultKind;
  readonly at: number;
  readonly endedAt: number;
  readonly what: string;
  /** ms from the fault's end until both the informers and the operator were through its probe. */
  recoveryMs: number | undefined;
  informersMs: number | undefined;
  operatorMs: number | undefined;
  /** ms from the end of the last fault of its burst until its probe was through. */
  afterBurstMs: number | undefined;
}
const faults: Fault[] = [];
const recoveries: Promise<void>[] = [];
const soakStart = Date.now();
// The machine's load while the soak runs (1-minute load average every 10 s): the figures depend on it.
const loads: number[] = [loadavg()[0]!];
const loadSampler = setInterval(() => loads.push(loadavg()[0]!), 10_000);
const targets = { root, proxies: () => proxies, leader, killReplica, holdMs };
while (Date.now() - soakStart < seconds * 1000) {
  const kind = next();
  const at = Date.now();
  const what = await inject(kind, targets, random).catch((error: unknown) => `failed to inject: ${String(error)}`);
  const fault: Fault = { kind, at, endedAt: Date.now(), what, recoveryMs: undefined, informersMs: undefined, operatorMs: undefined, afterBurstMs: undefined };
  lastFaultEnd = fault.endedAt;
  faults.push(fault);
  say(`fault ${faults.length}: ${kind}: ${what}`);
  recoveries.push(
    probe().then((result) => {
      Object.assign(fault, result);
      if (result.informersMs !== undefined && result.operatorMs !== undefined) fault.recoveryMs = Math.max(result.informersMs, result.operatorMs);
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, gapMin + random.int(gapMax - gapMin + 1)));
}
const churnEnd = Date.now();
clearInterval(loadSampler);
say(`${faults.length} faults in ${((churnEnd - soakStart) / 1000).toFixed(0)} s; stopping the writer`);
await Promise.all(recoveries);
writer.kill('SIGTERM');
await new Promise((resolve) => writer.once('exit', resolve));

// ---------------------------------------------------------------- the end checks
const listAll = async (path: string): Promise<ListedObject[]> => (await call('GET', path)).json.items as ListedObject[];
const dumpInformers = (): Promise<{ configmaps: Record<string, string>; sets: Record<string, string>; groups: Record<string, number>; events: number }> =>
  new Promise((resolve) => {
    const path = join(work, 'dump.json');
    dumps.push((events) => resolve({ ...JSON.parse(readFileSync(path, 'utf8')), events }));
    informers.stdin!.write(`${JSON.stringify({ cmd: 'dump', path })}\n`);
  });
let caches = { divergences: -1, details: [] as string[] };
let events = 0;
const convergeFrom = Date.now();
while (Date.now() - convergeFrom < 180_000) {
  const [configmaps, sets] = await Promise.all([listAll(cmPath), listAll(setPath)]);
  const dump = await dumpInformers();
  events = dump.events;
  caches = compareCaches(dump, configmaps, sets);
  if (caches.divergences === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}
say(`caches: ${caches.divergences} divergences from a fresh LIST after ${Date.now() - convergeFrom} ms ${caches.details.slice(0, 5).join('; ')}`);
let children_ = { mismatches: -1, details: [] as string[] };
const specFrom = Date.now();
while (Date.now() - specFrom < 180_000) {
  children_ = specMismatches(await listAll(setPath), await listAll(cmPath));
  if (children_.mismatches === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}
say(`children: ${children_.mismatches} sets whose ConfigMaps differ from the spec ${children_.details.slice(0, 5).join('; ')}`);

informers.stdin!.write(`${JSON.stringify({ cmd: 'stop' })}\n`);
for (const [, child] of children) if (child !== informers) child.kill('SIGTERM');
await Promise.all([...children.values()].map((child) => (child.exitCode !== null ? undefined : new Promise((resolve) => child.once('exit', resolve)))));
for (const proxy of proxies.values()) await proxy.close();
api.close();

const lines = readLog(logPath);
const overlaps = overlappingRuns(lines, deaths, Date.now());
const cleanups = cleanupCounts(lines);
const leaks = lines.filter((l) => l.event === 'leaks').map((l) => ({ process: l.replica, open: l['open'] as string[] }));
const writes = lines.filter((l) => l.event === 'writes' && l['final']).at(-1) as unknown as { sent: number; ok: number; failed: number; skipped: number; byOp: Record<string, number> };
const memory = memorySamples(lines, soakStart);
const warmUp = Math.min(120_000, (churnEnd - soakStart) / 3);
const checkpointMs = Math.max(30_000, (churnEnd - soakStart - warmUp) / 6);
const heap = heapCheck(memory, { warmUp, checkpointMs, end: churnEnd - soakStart });
const relists = lines.filter((l) => l.event === 'status' && l['status'] === 'RELISTING').reduce<Record<string, number>>((acc, l) => ((acc[String(l['reason'])] = (acc[String(l['reason'])] ?? 0) + 1), acc), {});
const runs = lines.filter((l) => l.event === 'start').length;
const spreadOf = (own: Fault[], figure: (f: Fault) => number | undefined) => spread(own.map(figure).filter((ms): ms is number => ms !== undefined));
const byKind = Object.fromEntries(
  faultKinds.map((kind) => {
    const own = faults.filter((f) => f.kind === kind);
    return [
      kind,
      {
        count: own.length,
        recovery: spreadOf(own, (f) => f.recoveryMs),
        informers: spreadOf(own, (f) => f.informersMs),
        operator: spreadOf(own, (f) => f.operatorMs),
        afterBurst: spreadOf(own, (f) => f.afterBurstMs),
        // Its probe still waited when the next fault landed: recovered from within a burst.
        stacked: own.filter((f) => faults.some((g) => g.at > f.at && g.at < f.endedAt + (f.recoveryMs ?? Infinity))).length,
        unrecovered: own.filter((f) => f.recoveryMs === undefined).length,
      },
    ];
  }),
);

const results = {
  seed,
  seconds: Math.round((churnEnd - soakStart) / 1000),
  objects,
  replicas: replicaCount,
  writes,
  load: { samples: loads.length, min: Math.min(...loads), median: [...loads].sort((a, b) => a - b)[Math.floor(loads.length / 2)], max: Math.max(...loads) },
  eventsDelivered: events,
  reconcileRuns: runs,
  faults: faults.length,
  byKind,
  relists,
  divergences: caches.divergences,
  childMismatches: children_.mismatches,
  overlaps: overlaps.length,
  cleanups: { guardedDeletions: cleanups.once + cleanups.missing.length + cleanups.repeatedInTerm.length + cleanups.repeatedAfterHandover.length, ...cleanups },
  heap: { flat: heap.flat, worstDrift: heap.worst, checkpointMs, unjudged: heap.unjudged, byProcess: Object.fromEntries(Object.entries(heap.byProcess).map(([name, f]) => [name, { flat: f.flat, worstDrift: +f.worst.toFixed(3), windowsMiB: Object.fromEntries(Object.entries(f.windows).map(([role, medians]) => [role, medians.map((b) => +(b / 2 ** 20).toFixed(1))])) }])) },
  leaks,
  faultLog: faults.map((f) => ({ kind: f.kind, at: f.at - soakStart, what: f.what, recoveryMs: f.recoveryMs ?? null, informersMs: f.informersMs ?? null, operatorMs: f.operatorMs ?? null, afterBurstMs: f.afterBurstMs ?? null })),
  memory,
};
const out = process.env.SOAK_OUT ?? join(work, 'results.json');
writeFileSync(out, JSON.stringify(results, null, 1));
if (process.env.SOAK_SVG) writeFileSync(process.env.SOAK_SVG, memoryPicture(memory, faults.map((f) => ({ at: f.at - soakStart, kind: f.kind }))));

const failures = [
  caches.divergences !== 0 && `${caches.divergences} cache divergences`,
  children_.mismatches !== 0 && `${children_.mismatches} sets with children unlike their spec`,
  overlaps.length !== 0 && `${overlaps.length} overlapping runs (${overlaps.slice(0, 3).map((o) => `${o.key}: ${o.a}/${o.b}`).join(', ')})`,
  cleanups.missing.length + cleanups.repeatedInTerm.length + cleanups.unexpected.length !== 0 && `cleanups: ${cleanups.missing.length} missing, ${cleanups.repeatedInTerm.length} repeated within a term, ${cleanups.unexpected.length} unexpected`,
  !heap.flat && `heap drifted beyond ±10 % between checkpoints: ${Object.entries(heap.byProcess).filter(([, f]) => !f.flat).map(([name, f]) => `${name} ${(f.worst * 100).toFixed(1)} %`).join(', ') || 'the informers lived not through the run'}`,
  leaks.some((l) => l.open.length > 0) && `handles left open: ${JSON.stringify(leaks.filter((l) => l.open.length > 0))}`,
  leaks.length < 2 && `only ${leaks.length} processes reported their handles at the end`,
  faults.some((f) => f.recoveryMs === undefined) && `${faults.filter((f) => f.recoveryMs === undefined).length} faults without recovery within 120 s of the end of their burst`,
].filter((f): f is string => typeof f === 'string');
console.log(JSON.stringify({ ...results, faultLog: undefined, memory: undefined }, null, 1));
say(failures.length === 0 ? `PASS: ${faults.length} faults, 0 divergences, 0 overlapping runs, ${cleanups.once} cleanups once and ${cleanups.repeatedAfterHandover.length} again after a handover, heap flat (±${(heap.worst * 100).toFixed(1)} %${heap.unjudged.length > 0 ? `; not judged, no role held for a window: ${heap.unjudged.join(', ')}` : ''}); results in ${out}` : `FAIL: ${failures.join('; ')}`);
process.exit(failures.length === 0 ? 0 : 1);
