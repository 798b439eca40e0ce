/**
 * Server-side sharding across processes against the real kube-apiserver, started with
 * `--feature-gates=ShardedListAndWatch=true` (issue 26 §4): three replicas of a sharded controller
 * in `mode: 'server'` (test/cluster/e2e/shardReplica.ts with SHARD_MODE=server, each its own Node
 * process) over 10,000 ConfigMaps under churn; `kill -9` of a member, a fourth joining, `kill -9`
 * of another (there is no leader in this mode: no sharder runs). The replicas log every reconcile
 * run and every change of their hash ranges; the checks read those logs and fresh LISTs: no instant
 * where two members reconciled one object, every object's newest version reconciled by the member
 * whose ranges hold its uid, no label on any object, each replica's cache holding exactly its ranges.
 *
 * SHARD_OBJECTS (default 10000) and SHARD_LEASE_MS / SHARD_RENEW_MS / SHARD_RETRY_MS (defaults
 * 15000 / 10000 / 2000) change the size and the timing.
 */
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resourceClient } from '../../../src/client/resourceClient.js';
import { hashField } from '../../../src/sources/hashField.js';
import { httpListerWatcher } from '../../../src/sources/http/httpListerWatcher.js';
import type { ListerWatcher } from '../../../src/sources/listerWatcher.js';
import { inShardRanges, type ShardRange } from '../../../src/sources/shardSelector.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';
import { api, churnConfigMaps, configMapBody, freshNamespace, kubeConfig, listAllPages, pool } from './helpers.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const objectCount = Number(process.env.SHARD_OBJECTS ?? 10_000);
const timing = { lease: Number(process.env.SHARD_LEASE_MS ?? 15_000), renew: Number(process.env.SHARD_RENEW_MS ?? 10_000), retry: Number(process.env.SHARD_RETRY_MS ?? 2_000) };
const writer = resourceClient(kubeConfig());
const clock = (): number => performance.timeOrigin + performance.now();
const logDir = join(root, '.cluster', 'work', `server-sharding-${process.pid}`);

interface Member { readonly name: string; readonly child: ChildProcess; readonly log: string; read: number; killedAt?: number; exited: boolean }
interface Run { readonly key: string; readonly member: string; readonly rv: string | null; readonly start: number; end?: number; readonly replica: string }
const members = new Map<string, Member>();
const runs = new Map<string, Run>();
const reconciled = new Map<string, Set<string>>(); // key → member@rv
const identityOf = new Map<string, string>(); // identity → replica
const ended = new Set<string>();
const rangesOf = new Map<string, { ranges: ShardRange[]; at: number }>(); // identity → newest ranges
const rangeChanges: Array<{ identity: string; at: number }> = []; // every change of ranges, in order
const cached = new Map<string, { size: number; heapUsed: number; at: number }>(); // replica → newest report
const failures: string[] = [];
let namespace = '';
let lister: ListerWatcher<KubeObject>;

function start(name: string): void {
  const log = join(logDir, `${name}.jsonl`);
  writeFileSync(log, '');
  const child = spawn(process.execPath, ['--import=tsx', join(root, 'test/cluster/e2e/shardReplica.ts')], {
    cwd: root,
    env: { ...process.env, KUBECONFIG: process.env.KUBECONFIG_E2E ?? process.env.KUBECONFIG, SHARD_MODE: 'server', SHARD_NAMESPACE: namespace, SHARD_LOG: log, SHARD_NAME: name, SHARD_LEASE_MS: String(timing.lease), SHARD_RENEW_MS: String(timing.renew), SHARD_RETRY_MS: String(timing.retry) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const member: Member = { name, child, log, read: 0, exited: false };
  child.on('exit', () => (member.exited = true));
  members.set(name, member);
}

/** Takes in the lines each replica appended since the last call (whole lines only). */
function ingest(): void {
  for (const member of members.values()) {
    const size = statSync(member.log).size;
    if (size <= member.read) continue;
    const buffer = Buffer.alloc(size - member.read);
    const fd = openSync(member.log, 'r');
    readSync(fd, buffer, 0, buffer.length, member.read);
    closeSync(fd);
    const upTo = buffer.lastIndexOf(10) + 1;
    member.read += upTo;
    for (const line of buffer.subarray(0, upTo).toString('utf8').split('\n')) {
      if (line === '') continue;
      const e = JSON.parse(line) as { at: number; event: string; id?: string; key?: string; member?: string; rv?: string | null; identity?: string; ranges?: Array<[string, string]>; cached?: number[]; heapUsed?: number; message?: string };
      if (e.event === 'start') runs.set(e.id!, { key: e.key!, member: e.member!, rv: e.rv ?? null, start: e.at, replica: member.name });
      else if (e.event === 'end') {
        const run = runs.get(e.id!);
        if (run === undefined) continue;
        run.end = e.at;
        reconciled.set(run.key, (reconciled.get(run.key) ?? new Set()).add(`${run.member}@${run.rv}`));
      } else if (e.event === 'joined') identityOf.set(e.identity!, member.name);
      else if (e.event === 'left') ended.add(e.identity!);
      else if (e.event === 'ranges') {
        rangesOf.set(e.identity!, { ranges: e.ranges!.map(([s, t]) => ({ start: BigInt(`0x${s}`), end: BigInt(`0x${t}`) })), at: e.at });
        rangeChanges.push({ identity: e.identity!, at: e.at });
      }
      else if (e.event === 'memory') cached.set(member.name, { size: e.cached?.[0] ?? 0, heapUsed: e.heapUsed ?? 0, at: e.at });
      else if (e.event === 'error') failures.push(`${member.name}: ${e.message}`);
    }
  }
}

/** Identities in a term, of replicas still running, with their newest ranges. */
function live(): Map<string, ShardRange[]> {
  const out = new Map<string, ShardRange[]>();
  for (const [identity, replica] of identityOf) {
    const m = members.get(replica)!;
    if (!ended.has(identity) && m.killedAt === undefined && !m.exited) out.set(identity, rangesOf.get(identity)?.ranges ?? []);
  }
  return out;
}

const ownersOf = (cm: KubeObject, current: Map<string, ShardRange[]>): string[] => {
  const hash = hashField(cm.metadata!.uid!);
  return [...current].filter(([, ranges]) => inShardRanges(ranges, hash)).map(([identity]) => identity);
};

const listAll = (): Promise<KubeObject[]> => listAllPages(lister);

async function poll(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = clock() + timeoutMs;
  for (ingest(); !condition(); ingest()) {
    if (failures.length > 0) throw new Error(`[e2e] a replica failed: ${failures.join('; ')}`);
    if (clock() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Until `count` live members hold ranges and every listed object's version was reconciled by the one member whose ranges hold it. */
async function settle(what: string, count: number, timeoutMs: number): Promise<number> {
  const began = clock();
  let pending: KubeObject[] = [];
  const unsettled = (all: readonly KubeObject[]): KubeObject[] => {
    const current = live();
    if (current.size !== count || [...current.values()].some((r) => r.length === 0)) return [...all];
    return all.filter((cm) => {
      const owners = ownersOf(cm, current);
      return owners.length !== 1 || !reconciled.get(`${namespace}/${cm.metadata!.name}`)?.has(`${owners[0]}@${cm.metadata!.resourceVersion}`);
    });
  };
  while (clock() - began < timeoutMs) {
    const all = await listAll();
    if (await poll(() => (pending = unsettled(all)).length === 0, 5_000)) return clock() - began;
  }
  throw new Error(`[e2e] ${what}: ${pending.length} objects unsettled after ${timeoutMs} ms (live: ${[...live().keys()].join(', ')})`);
}

/** Pairs of runs of one key that overlap in time (a killed replica's unfinished run lasts until its kill). */
function overlaps(): string[] {
  const byKey = new Map<string, Run[]>();
  for (const run of runs.values()) byKey.set(run.key, [...(byKey.get(run.key) ?? []), run]);
  const found: string[] = [];
  for (const [key, list] of byKey) {
    const spans = list.map((r) => ({ who: r.member, start: r.start, end: r.end ?? members.get(r.replica)?.killedAt ?? Infinity })).sort((a, b) => a.start - b.start);
    spans.forEach((a, i) => {
      for (let j = i + 1; j < spans.length && spans[j]!.start < a.end; j++) found.push(`${key}: ${a.who} × ${spans[j]!.who} at ${spans[j]!.start.toFixed(1)}`);
    });
  }
  return found;
}

/** Each live replica's cache holds exactly the listed objects in its ranges (checked with the churn stopped). */
async function cachesMatchRanges(): Promise<string[]> {
  const all = await listAll();
  const after = clock();
  await poll(() => [...live().keys()].every((identity) => (cached.get(identityOf.get(identity)!)?.at ?? 0) > after), 30_000);
  return [...live()].flatMap(([identity, ranges]) => {
    const expected = all.filter((cm) => inShardRanges(ranges, hashField(cm.metadata!.uid!))).length;
    const size = cached.get(identityOf.get(identity)!)?.size;
    return size === expected ? [] : [`${identityOf.get(identity)}: caches ${size}, its ranges hold ${expected}`];
  });
}

let churning = false;
let churnWrites = 0;
let churnDone: Promise<void> = Promise.resolve();
const churn = (): Promise<void> => churnConfigMaps(writer, namespace, objectCount, () => churning, (count) => (churnWrites += count));

const figures: Record<string, unknown> = { mode: 'server', objects: objectCount, leaseDurationMs: timing.lease, renewDeadlineMs: timing.renew, retryPeriodMs: timing.retry };

/** Kills `victim`; its keys (the objects its ranges held) must be reconciled by the others. */
async function killAndHandOver(victim: Member, count: number): Promise<Record<string, number | string>> {
  ingest();
  const victimIds = new Set([...identityOf].filter(([, r]) => r === victim.name).map(([id]) => id));
  const victimRanges = [...live()].filter(([id]) => victimIds.has(id)).flatMap(([, r]) => r);
  const keys = (await listAll()).filter((cm) => inShardRanges(victimRanges, hashField(cm.metadata!.uid!))).map((cm) => `${namespace}/${cm.metadata!.name}`);
  victim.child.kill('SIGKILL');
  const killedAt = (victim.killedAt = clock());
  const settledMs = await settle(`after killing ${victim.name}`, count, 240_000);
  const firstRuns = keys.map((key) => Math.min(...[...runs.values()].filter((r) => r.key === key && r.start > killedAt && !victimIds.has(r.member)).map((r) => r.start))).filter(Number.isFinite);
  // The timeline: when each survivor started working on its new ranges (the death seen, the claims agreed), then the keys.
  const survivorsNewRangesMs = rangeChanges.filter((c) => c.at > killedAt && !victimIds.has(c.identity)).map((c) => `${identityOf.get(c.identity)}@${Math.round(c.at - killedAt)}`).join(' ');
  return { victim: victim.name, keys: keys.length, survivorsNewRangesMs, firstKeyElsewhereMs: Math.round(Math.min(...firstRuns) - killedAt), lastKeyElsewhereMs: Math.round(Math.max(...firstRuns) - killedAt), settledMs: Math.round(settledMs) };
}

test.before(async () => {
  mkdirSync(logDir, { recursive: true });
  namespace = await freshNamespace(api(kubeConfig()), 'sshard');
  lister = httpListerWatcher<KubeObject>(kubeConfig(), { version: 'v1', plural: 'configmaps', namespace }, { metadataOnly: true });
});

test.after.always(() => {
  churning = false;
  for (const m of members.values()) if (!m.exited) m.child.kill('SIGKILL');
});

test.serial(`1. three replicas split ${objectCount.toLocaleString('en')} ConfigMaps by hash ranges; each caches exactly its ranges; no labels`, async (t) => {
  t.timeout(420_000);
  for (const name of ['r1', 'r2', 'r3']) start(name);
  const began = clock();
  await pool(Array.from({ length: objectCount }, (_, i) => i), 32, (i) => writer.create(configMapBody(namespace, `cm-${i}`, {}, { v: '0' }) as KubeObject));
  figures['createMs'] = Math.round(clock() - began);
  await settle('the first ranges', 3, 240_000);
  figures['reconciledAllMs'] = Math.round(clock() - began);
  t.deepEqual(await cachesMatchRanges(), []);
  figures['heapMiB'] = Object.fromEntries([...cached].map(([name, c]) => [name, { cached: c.size, heapMiB: +(c.heapUsed / 2 ** 20).toFixed(1) }]));
  t.log(JSON.stringify({ createMs: figures['createMs'], reconciledAllMs: figures['reconciledAllMs'], heap: figures['heapMiB'] }));
  churning = true;
  churnDone = churn();
});

test.serial('2. kill -9 of a member: its ranges are reconciled elsewhere after its lease expires', async (t) => {
  t.timeout(280_000);
  const out = await killAndHandOver(members.get('r1')!, 2);
  figures['killFirst'] = out;
  t.log(JSON.stringify(out));
  t.true((out['firstKeyElsewhereMs'] as number) >= timing.lease - timing.renew, 'not before the dead member’s term had surely ended');
});

test.serial('3. a fourth replica joins and takes its ranges from live members (no writes)', async (t) => {
  t.timeout(280_000);
  const joinedAt = clock();
  start('r4');
  figures['join'] = { settledMs: Math.round(await settle('after r4 joined', 3, 240_000)) };
  ingest();
  t.true([...rangesOf].some(([id, r]) => identityOf.get(id) === 'r4' && r.at > joinedAt && r.ranges.length > 0));
  t.log(JSON.stringify(figures['join']));
});

test.serial('4. kill -9 of another member', async (t) => {
  t.timeout(280_000);
  const out = await killAndHandOver(members.get('r2')!, 2);
  figures['killSecond'] = out;
  t.log(JSON.stringify(out));
  t.true((out['firstKeyElsewhereMs'] as number) >= timing.lease - timing.renew);
});

test.serial('5. churn stops: newest versions reconciled by their owners; no two runs of one object overlapped; no labels; caches hold exactly their ranges', async (t) => {
  t.timeout(280_000);
  churning = false;
  await churnDone;
  figures['churnWrites'] = churnWrites;
  figures['finalSettleMs'] = Math.round(await settle('after the churn', 2, 240_000));
  const found = overlaps();
  figures['reconcileRuns'] = runs.size;
  figures['overlaps'] = found.length;
  const labelled = (await listAll()).filter((cm) => Object.keys(cm.metadata?.labels ?? {}).some((k) => k.includes('sharding.rx-informer.dev')));
  figures['labelledObjects'] = labelled.length;
  writeFileSync(join(logDir, 'figures.json'), JSON.stringify(figures, null, 2));
  t.log(JSON.stringify({ runs: runs.size, churnWrites, overlaps: found.length, labelled: labelled.length, figures: join(logDir, 'figures.json') }));
  t.deepEqual(found.slice(0, 20), []);
  t.is(labelled.length, 0);
  t.deepEqual(await cachesMatchRanges(), []);
  t.deepEqual(failures, []);
});
