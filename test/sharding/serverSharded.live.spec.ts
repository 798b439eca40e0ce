/**
 * sharded({ mode: 'server' }) end to end against the in-process API server, which applies shard
 * selectors as kube-apiserver 1.36 does (real time, short leases, conditions polled, no sleeps):
 * three replicas share 150 ConfigMaps by hash ranges; one stops, one joins, objects change
 * meanwhile — no object is ever reconciled by two members at once, each object's newest version is
 * reconciled by the member whose ranges hold it, every replica caches only its ranges, and nothing
 * writes to a ConfigMap.
 */
import test, { type ExecutionContext } from 'ava';
import type { Subscription } from 'rxjs';
import { controller } from '../../src/controller/controller.js';
import { sharded } from '../../src/sharding/sharded.js';
import type { ShardingEvent } from '../../src/sharding/shardingConfig.js';
import { informer } from '../../src/informer/informer.js';
import { hashField } from '../../src/sources/hashField.js';
import { inShardRanges, type ShardRange } from '../../src/sources/shardSelector.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer } from '../../src/testServer/createTestApiServer.js';
import type { TestApiServer } from '../../src/testServer/testApiServer.js';
import { until } from '../helpers/until.js';
import { overlaps, type Run } from './reconcileRuns.js';
import { serverRing } from './serverRing.js';


function replica(server: TestApiServer, name: string, runs: Run[], events: ShardingEvent[], caches: Map<string, () => readonly KubeObject[]>, timing = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 250 }, concurrency = 4): Subscription {
  return sharded(
    serverRing(server, name, events, timing),
    (shard) => {
      const cms = informer(shard.listWatch<KubeObject>({ version: 'v1', plural: 'configmaps', namespace: 'demo' }));
      caches.set(shard.identity, () => [...cms.snapshot.values()]);
      return controller(cms, {
        concurrency,
        initialPriority: shard.initialPriority,
        reconcile: shard.reconciler(async (cm, { ref }) => {
          const run: Run = { key: `${ref.namespace}/${ref.name}`, member: shard.identity, rv: cm?.metadata?.resourceVersion, start: performance.now() };
          runs.push(run);
          await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 30));
          run.end = performance.now();
        }),
      });
    },
  ).subscribe({ error: (error: unknown) => events.push({ type: 'left', identity: `ERROR ${String(error)}` }) });
}

/** A test API server holding `count` ConfigMaps in `demo` (closed after the test), and the records the replicas fill. */
async function demoObjects(t: ExecutionContext, count: number, data?: Record<string, string>) {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  for (let i = 0; i < count; i++) server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'demo' }, ...(data ? { data } : {}) });
  return { server, runs: [] as Run[], events: [] as ShardingEvent[], caches: new Map<string, () => readonly KubeObject[]>() };
}

test.serial('three replicas share 150 objects by hash ranges; one leaves, one joins, objects change; never two owners at once, no writes', async (t) => {
  const { server, runs, events, caches } = await demoObjects(t, 150, { v: '0' });
  const replicas = new Map<string, Subscription>(['a', 'b', 'c'].map((name) => [name, replica(server, name, runs, events, caches)]));
  t.teardown(() => replicas.forEach((s) => s.unsubscribe()));

  const objects = () => server.list('configmaps', 'demo') as KubeObject[];
  /** Each member's newest ranges, of the members whose term has not ended. */
  const ranges = (): Map<string, readonly ShardRange[]> => {
    const left = new Set(events.filter((e) => e.type === 'left').map((e) => (e as { identity: string }).identity));
    const out = new Map<string, readonly ShardRange[]>();
    for (const e of events) if (e.type === 'ranges' && !left.has(e.identity)) out.set(e.identity, e.ranges);
    return out;
  };
  const ownerOf = (o: KubeObject, current: Map<string, readonly ShardRange[]>): string[] => [...current].filter(([, r]) => inShardRanges(r, hashField(o.metadata!.uid!))).map(([m]) => m);
  /** `expected` members hold ranges; every object is in exactly one's, and its newest version was reconciled by that one. */
  const settled = (expected: number): boolean => {
    const current = ranges();
    if ([...current.values()].filter((r) => r.length > 0).length !== expected) return false;
    return objects().every((o) => {
      const owners = ownerOf(o, current);
      return owners.length === 1 && runs.some((r) => r.member === owners[0] && r.key === `demo/${o.metadata!.name}` && r.rv === o.metadata!.resourceVersion && r.end !== undefined);
    });
  };
  const cachesHoldOnlyTheirRanges = (): void => {
    const current = ranges();
    for (const [identity, r] of current) {
      const cached = caches.get(identity)?.() ?? [];
      t.true(cached.every((o) => inShardRanges(r, hashField(o.metadata!.uid!))), `${identity} caches only its ranges`);
      t.is(cached.length, objects().filter((o) => inShardRanges(r, hashField(o.metadata!.uid!))).length, `${identity} caches all of its ranges`);
    }
  };
  await until(() => settled(3), 'the first ranges', 60_000);
  await until(() => [...ranges()].every(([identity, r]) => (caches.get(identity)?.() ?? []).length === objects().filter((o) => inShardRanges(r, hashField(o.metadata!.uid!))).length), 'the caches to sync', 10_000);
  cachesHoldOnlyTheirRanges();

  replicas.get('a')!.unsubscribe();
  for (let i = 0; i < 150; i += 3) server.patch('configmaps', 'demo', `cm-${i}`, { data: { v: '1' } });
  await until(() => settled(2), 'a’s ranges moved to b and c', 60_000);

  replicas.set('d', replica(server, 'd', runs, events, caches));
  for (let i = 1; i < 150; i += 3) server.patch('configmaps', 'demo', `cm-${i}`, { data: { v: '2' } });
  await until(() => settled(3), 'ranges handed to d', 60_000);
  t.deepEqual(overlaps(runs), []);
  t.deepEqual(server.requests.filter((r) => r.resource === 'configmaps' && r.verb !== 'list' && r.verb !== 'watch' && r.verb !== 'get').map((r) => `${r.verb} ${r.path}`), [], 'no writes to the objects');
  t.true(objects().every((o) => Object.keys(o.metadata?.labels ?? {}).length === 0), 'no labels');
  t.false(events.some((e) => e.type === 'left' && e.identity.startsWith('ERROR')), 'no replica failed');
});

test.serial('each step of the handshake is written at once, not with the next renewal: with renewals 30 s apart, two members split the objects long before the first', async (t) => {
  const { server, runs, events, caches } = await demoObjects(t, 40);
  const slow = { leaseDurationMs: 90_000, renewDeadlineMs: 60_000, retryPeriodMs: 30_000 };
  const replicas = ['a', 'b'].map((name) => replica(server, name, runs, events, caches, slow));
  t.teardown(() => replicas.forEach((s) => s.unsubscribe()));
  const newest = (): Map<string, readonly ShardRange[]> => new Map(events.flatMap((e) => (e.type === 'ranges' ? [[e.identity, e.ranges] as const] : [])));
  const names = server.list('configmaps', 'demo').map((o) => o as KubeObject);
  // Joining takes three writes each (its view, then — once the other's view agrees — the wider claim); a renewal is 30 s away.
  await until(() => {
    const current = newest();
    return current.size === 2 && [...current.values()].every((r) => r.length > 0) && names.every((o) => [...current.values()].filter((r) => inShardRanges(r, hashField(o.metadata!.uid!))).length === 1);
  }, 'two members holding every object once, before the first renewal (30 s)', 25_000);
  t.deepEqual(overlaps(runs), []);
});

test.serial("a survivor's new stretch runs the objects it was given before the ones it kept", async (t) => {
  const { server, runs, events, caches } = await demoObjects(t, 80);
  const timing = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 250 };
  const a = replica(server, 'a', runs, events, caches, timing, 1);
  const b = replica(server, 'b', runs, events, caches, timing, 1);
  t.teardown(() => (a.unsubscribe(), b.unsubscribe()));
  const objects = server.list('configmaps', 'demo') as KubeObject[];
  const newest = (prefix: string): readonly ShardRange[] => events.findLast((e): e is Extract<ShardingEvent, { type: 'ranges' }> => e.type === 'ranges' && e.identity.startsWith(prefix))?.ranges ?? [];
  const holds = (ranges: readonly ShardRange[]) => objects.filter((o) => inShardRanges(ranges, hashField(o.metadata!.uid!))).map((o) => `demo/${o.metadata!.name}`);
  await until(() => holds(newest('a')).length > 0 && holds(newest('b')).length > 0 && holds(newest('a')).length + holds(newest('b')).length === objects.length && runs.filter((r) => r.end !== undefined).length >= objects.length, 'a and b to split the objects and reconcile them', 30_000);
  const given = new Set(holds(newest('a')));
  const kept = new Set(holds(newest('b')));
  const leftAt = performance.now();
  a.unsubscribe();
  const after = () => runs.filter((r) => r.start > leftAt && r.member.startsWith('b'));
  await until(() => new Set(after().map((r) => r.key)).size === objects.length, 'b to reconcile every object in its new stretch', 30_000);
  const order = after().map((r) => r.key);
  const lastGiven = Math.max(...[...given].map((key) => order.indexOf(key)));
  const keptBefore = order.slice(0, lastGiven).filter((key) => kept.has(key));
  // One run may start as the stretch's first request arrives, before the rest are in line.
  t.true(keptBefore.length <= 1, `kept objects run before the last given one: ${keptBefore.length} of ${kept.size} (${given.size} given)`);
});
