/**
 * `node --import=tsx bench/sharding/shardHandover.ts`: the timeline of a server-side handover after a
 * member dies, in-process against the test API server (no cluster; little CPU). Three replicas of `sharded({ mode: 'server' })`
 * share OBJECTS ConfigMaps (default 3,000) with the default lease timings (LEASE_MS / RENEW_MS /
 * RETRY_MS: 15000 / 10000 / 2000); one "dies" as under `kill -9` — its Lease requests hang from then
 * on, so it is never renewed or released — and each survivor's steps are printed in ms after the
 * death: its last renewal before, the survivor seeing it dead (`members`), each claim it writes
 * (`write view/ranges`), its new ranges (`ranges`), and the first and last of the dead member's
 * objects it reconciles. RUNS rounds (default 3). GAINED_FIRST=0 leaves out the controller's
 * `initialPriority: shard.initialPriority` (a new stretch then runs its objects in list order). Asserts
 * nothing; the target is lease + 2.2 retries + 1 s for the last object.
 */
import { NEVER, type Observable } from 'rxjs';
import type { LeaseClient } from '../../src/coordination/leaseClient.js';
import type { Lease } from '../../src/coordination/lease.js';
import type { ShardRange } from '../../src/sources/shardSelector.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer } from '../../src/testServer/createTestApiServer.js';
import type { TestApiServer } from '../../src/testServer/testApiServer.js';
import { loadLibrary } from '../core/library.js';

// The library under test, compiled (bench/core/library.ts); the test API server is the workload.
const library = await loadLibrary();
const { informer, listWatch } = library.main;
const { controller, hashField, leaseClient, sharded } = library.controller;
const { claimOf } = await library.module<typeof import('../../src/sharding/server/shardClaim.js')>('sharding/server/shardClaim.js');
const { rangesFraction } = await library.module<typeof import('../../src/sharding/server/rangeSet.js')>('sharding/server/rangeSet.js');
const { inShardRanges } = await library.module<typeof import('../../src/sources/shardSelector.js')>('sources/shardSelector.js');

const objects = Number(process.env.OBJECTS ?? 3_000);
const rounds = Number(process.env.RUNS ?? 3);
const timing = { leaseDurationMs: Number(process.env.LEASE_MS ?? 15_000), renewDeadlineMs: Number(process.env.RENEW_MS ?? 10_000), retryPeriodMs: Number(process.env.RETRY_MS ?? 2_000) };
const now = (): number => performance.now();

interface Step { readonly at: number; readonly who: string; readonly what: string }

/** One replica; `dead()` makes its Lease requests hang from then on. */
function replica(server: TestApiServer, name: string, steps: Step[], runs: Array<{ key: string; who: string; at: number }>, identities: Map<string, string>, ranges: Map<string, readonly ShardRange[]>) {
  let dead = false;
  const inner = leaseClient(server.kubeConfig);
  const hang = <T>(send: () => Observable<T>): Observable<T> => (dead ? NEVER : send());
  const leases: LeaseClient = {
    get: (ref) => hang(() => inner.get(ref)),
    create: (lease) => hang(() => inner.create(lease)),
    update: (lease: Lease) => {
      if (dead) return NEVER;
      const claim = claimOf(lease);
      steps.push({ at: now(), who: name, what: `write ${claim?.view ?? '-'} ${claim ? rangesFraction(claim.ranges).toFixed(3) : '-'}` });
      return inner.update(lease);
    },
  };
  const subscription = sharded(
    {
      kubeConfig: server.kubeConfig,
      ring: 'bench',
      namespace: 'default',
      resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo' },
      mode: 'server',
      ...timing,
      leases,
      identityPrefix: name,
      onEvent: (event) => {
        if (event.type === 'joined') identities.set(event.identity, name);
        if (event.type === 'members') steps.push({ at: now(), who: name, what: `members ${event.members.length}` });
        if (event.type === 'ranges') {
          ranges.set(name, event.ranges);
          steps.push({ at: now(), who: name, what: `ranges ${rangesFraction(event.ranges).toFixed(3)}` });
        }
      },
    },
    (shard) => {
      const cms = informer(listWatch<KubeObject>(server.kubeConfig, { version: 'v1', plural: 'configmaps', namespace: 'demo' }, { ...shard.selector }));
      return controller(cms, {
        concurrency: 16,
        initialPriority: process.env.GAINED_FIRST === '0' ? undefined : shard.initialPriority,
        reconcile: shard.reconciler(async (_cm, { ref }) => {
          runs.push({ key: ref.name, who: name, at: now() });
          await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
        }),
      });
    },
  ).subscribe();
  return { die: () => (dead = true), stop: () => subscription.unsubscribe() };
}

async function until(condition: () => boolean, timeoutMs = 300_000): Promise<void> {
  const deadline = now() + timeoutMs;
  while (!condition()) {
    if (now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function round(index: number): Promise<number> {
  const server = await createTestApiServer();
  const uids = new Map<string, string>();
  for (let i = 0; i < objects; i++) uids.set(`cm-${i}`, String((server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'demo' }, data: { v: 'x'.repeat(200) } }) as KubeObject).metadata!.uid));
  const steps: Step[] = [];
  const runs: Array<{ key: string; who: string; at: number }> = [];
  const ranges = new Map<string, readonly ShardRange[]>();
  const replicas = new Map(['a', 'b', 'c'].map((name) => [name, replica(server, name, steps, runs, new Map(), ranges)]));
  const covered = (names: readonly string[]): boolean => [...uids.values()].every((uid) => names.filter((n) => inShardRanges(ranges.get(n) ?? [], hashField(uid))).length === 1);
  await until(() => covered(['a', 'b', 'c']) && new Set(runs.map((r) => r.key)).size === objects);
  const victimKeys = [...uids].filter(([, uid]) => inShardRanges(ranges.get('a')!, hashField(uid))).map(([name]) => name);
  const lastWrite = Math.max(...steps.filter((s) => s.who === 'a' && s.what.startsWith('write')).map((s) => s.at));
  const diedAt = now();
  replicas.get('a')!.die();
  const firstAfter = (key: string): number | undefined => runs.find((r) => r.key === key && r.who !== 'a' && r.at > diedAt)?.at;
  await until(() => victimKeys.every((key) => firstAfter(key) !== undefined));
  const firsts = victimKeys.map((key) => firstAfter(key)! - diedAt);
  const ms = (at: number): string => `${Math.round(at - diedAt)}`.padStart(6);
  console.log(`\n## round ${index + 1}: ${victimKeys.length} of ${objects} objects were a's; a's last renewal ${ms(lastWrite)} ms`);
  for (const s of steps.filter((s) => s.at > diedAt && s.who !== 'a')) console.log(`${ms(s.at)}  ${s.who}  ${s.what}`);
  console.log(`first of a's objects reconciled elsewhere ${Math.round(Math.min(...firsts))} ms, last ${Math.round(Math.max(...firsts))} ms (target ${timing.leaseDurationMs + 2.2 * timing.retryPeriodMs + 1_000})`);
  replicas.forEach((r) => r.stop());
  await server.close();
  return Math.max(...firsts);
}

const lasts: number[] = [];
for (let i = 0; i < rounds; i++) lasts.push(await round(i));
console.log(`\nlast object elsewhere, ms: ${lasts.map(Math.round).join(', ')}`);
process.exit(0);
