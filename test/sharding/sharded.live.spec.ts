/**
 * sharded() end to end against the in-process API server (real time, short leases, conditions
 * polled, no sleeps): three replicas in one process share 60 ConfigMaps; one stops (its objects
 * move at once: it released its Lease), one joins (objects are drained to it), objects change
 * meanwhile — and no object is ever reconciled by two members at once, each object's newest
 * version is reconciled by its owner, and every replica's cache holds only its own objects.
 */
import test from 'ava';
import { Observable, throwError, type Subscription } from 'rxjs';
import { leaseClient } from '../../src/coordination/leaseClient.js';
import { controller } from '../../src/controller/controller.js';
import { sharded } from '../../src/sharding/sharded.js';
import type { ShardingEvent } from '../../src/sharding/shardingConfig.js';
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer } from '../../src/testServer/createTestApiServer.js';
import type { TestApiServer } from '../../src/testServer/testApiServer.js';
import { until } from '../helpers/until.js';

const S = 'shard.sharding.rx-informer.dev/cms';
const D = 'drain.sharding.rx-informer.dev/cms';

interface Run { readonly key: string; readonly member: string; readonly rv: string | undefined; readonly start: number; end?: number }

function replica(server: TestApiServer, name: string, runs: Run[], events: ShardingEvent[], caches: Map<string, () => number>): Subscription {
  const config = {
    kubeConfig: server.kubeConfig,
    ring: 'cms',
    namespace: 'default',
    resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo' },
    leaseDurationMs: 2_000,
    renewDeadlineMs: 1_500,
    retryPeriodMs: 250,
    identityPrefix: name,
    onEvent: (event: ShardingEvent) => events.push(event),
  };
  return sharded(config, (shard) => {
    const cms = informer(listWatch<KubeObject>(server.kubeConfig, { version: 'v1', plural: 'configmaps', namespace: 'demo' }, { labelSelector: shard.labelSelector }));
    caches.set(shard.identity, () => cms.snapshot.size);
    return controller(cms, {
      concurrency: 4,
      reconcile: shard.reconciler(async (cm, { ref }) => {
        const run: Run = { key: `${ref.namespace}/${ref.name}`, member: shard.identity, rv: cm?.metadata?.resourceVersion, start: performance.now() };
        runs.push(run);
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 40));
        run.end = performance.now();
      }),
    });
  }).subscribe({ error: (error: unknown) => events.push({ type: 'left', identity: `ERROR ${String(error)}` }) });
}

function overlaps(runs: readonly Run[]): string[] {
  const byKey = new Map<string, Run[]>();
  for (const run of runs) byKey.set(run.key, [...(byKey.get(run.key) ?? []), run]);
  const found: string[] = [];
  for (const [key, list] of byKey) {
    for (const a of list) for (const b of list) {
      if (a.member < b.member && a.start < (b.end ?? Infinity) && b.start < (a.end ?? Infinity)) found.push(`${key}: ${a.member} × ${b.member}`);
    }
  }
  return found;
}

test.serial('three replicas share 60 objects; one leaves, one joins, objects change; never two owners at once', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  for (let i = 0; i < 60; i++) server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'demo' }, data: { v: '0' } });
  const runs: Run[] = [];
  const events: ShardingEvent[] = [];
  const caches = new Map<string, () => number>();
  const replicas = new Map<string, Subscription>(['a', 'b', 'c'].map((name) => [name, replica(server, name, runs, events, caches)]));
  t.teardown(() => replicas.forEach((s) => s.unsubscribe()));

  const objects = () => server.list('configmaps', 'demo') as KubeObject[];
  const members = () => new Set(events.filter((e) => e.type === 'members').at(-1)?.type === 'members' ? (events.filter((e) => e.type === 'members').at(-1) as { members: readonly string[] }).members : []);
  /** Every object labelled with a live member, no drain pending, and its newest version reconciled by that member. */
  const settled = (expected: number): boolean => {
    const live = members();
    if (live.size !== expected) return false;
    return objects().every((o) => {
      const owner = o.metadata?.labels?.[S];
      return owner !== undefined && live.has(owner) && o.metadata?.labels?.[D] === undefined && runs.some((r) => r.member === owner && r.key === `demo/${o.metadata!.name}` && r.rv === o.metadata!.resourceVersion && r.end !== undefined);
    });
  };
  await until(() => settled(3), 'the first assignment', 60_000);
  const owners = new Map<string, number>();
  for (const o of objects()) owners.set(o.metadata!.labels![S]!, (owners.get(o.metadata!.labels![S]!) ?? 0) + 1);
  t.is(owners.size, 3, `every member owns some objects: ${[...owners.values()].join(', ')}`);
  for (const [identity, size] of caches) if (owners.has(identity)) t.is(size(), owners.get(identity)!, `${identity} caches only its own objects`);

  replicas.get('a')!.unsubscribe();
  for (let i = 0; i < 60; i += 3) server.patch('configmaps', 'demo', `cm-${i}`, { data: { v: '1' } });
  await until(() => settled(2), 'a’s objects moved to b and c', 60_000);
  t.true(events.some((e) => e.type === 'moved'), 'moved from a released member without a handshake');

  replicas.set('d', replica(server, 'd', runs, events, caches));
  for (let i = 1; i < 60; i += 3) server.patch('configmaps', 'demo', `cm-${i}`, { data: { v: '2' } });
  await until(() => settled(3), 'objects drained to d', 60_000);
  t.deepEqual(overlaps(runs), []);
  const ended = events.filter((e) => e.type === 'left').map((e) => (e as { identity: string }).identity);
  await until(() => ended.every((identity) => server.get('leases.coordination.k8s.io', 'default', `cms-${identity}`) === undefined), 'the Lease of the term that ended to be deleted', 60_000);
  t.true(events.some((e) => e.type === 'draining') && events.some((e) => e.type === 'released'), 'live owners drained');

  t.false(events.some((e) => e.type === 'left' && e.identity.startsWith('ERROR')), 'no replica failed');
});

test.serial('a replica cut off from its member Lease stops its work by itself within renewDeadline, then joins again under a new identity', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  const real = leaseClient(server.kubeConfig);
  let cut = false;
  const down = () => throwError(() => new Error('network down'));
  const leases = { get: (ref: never) => (cut ? down() : real.get(ref)), create: (l: never) => (cut ? down() : real.create(l)), update: (l: never) => (cut ? down() : real.update(l)) };
  const events: ShardingEvent[] = [];
  const work: Array<{ identity: string; start: number; end?: number }> = [];
  const subscription = sharded(
    { kubeConfig: server.kubeConfig, ring: 'cms', namespace: 'default', resource: { apiVersion: 'v1', kind: 'ConfigMap' }, leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 250, leases, onEvent: (e) => events.push(e) },
    (shard) => {
      const entry: { identity: string; start: number; end?: number } = { identity: shard.identity, start: Date.now() };
      work.push(entry);
      return new Observable<never>(() => () => void (entry.end = Date.now()));
    },
  ).subscribe();
  t.teardown(() => subscription.unsubscribe());
  await until(() => work.length === 1, 'the first term', 60_000);
  const cutAt = Date.now();
  cut = true;
  await until(() => work[0]!.end !== undefined, 'the work to stop', 60_000);
  // The term ends renewDeadline after the last renewal sent (at most a retry period before the cut),
  // before the 4 s lease could pass to anyone; the margin is for timers on a loaded machine.
  t.true(work[0]!.end! - cutAt < 4_000, `stopped ${work[0]!.end! - cutAt} ms after the cut`);
  cut = false;
  await until(() => work.length === 2, 'a second term', 60_000);
  t.not(work[1]!.identity, work[0]!.identity);
  t.deepEqual(events.filter((e) => e.type === 'joined' || e.type === 'left').map((e) => e.type), ['joined', 'left', 'joined']);
});

test('bad configuration is a TypeError at call time', (t) => {
  const base = { kubeConfig: undefined as never, ring: 'cms', namespace: 'default', resource: { apiVersion: 'v1', kind: 'ConfigMap' }, client: {} as never, leases: { get: () => undefined, create: () => undefined, update: () => undefined } as never };
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ ring: 'Bad_Ring' }, /ring name must be a DNS label/],
    [{ namespace: '' }, /namespace must be a namespace name/],
    [{ resource: { kind: 'ConfigMap' } }, /resource must be \{ apiVersion, kind, namespace\? \}/],
    [{ sharderConcurrency: 0 }, /sharderConcurrency must be a positive integer/],
    [{ leaseDurationMs: 10_000 }, /leaseDurationMs \(10000\) must be greater than renewDeadlineMs/],
    [{ identityPrefix: 'UPPER' }, /identityPrefix must be a DNS label/],
  ];
  for (const [change, message] of cases) t.throws(() => sharded({ ...base, ...change } as never, () => undefined as never), { instanceOf: TypeError, message });
  t.throws(() => sharded(base, undefined as never), { instanceOf: TypeError, message: /work must be a function/ });
});
