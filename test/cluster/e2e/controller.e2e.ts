/**
 * The controller toolkit and the ConfigMapSet operator (examples/configMapSet) against a real
 * kube-apiserver, with kube-controller-manager's garbage collector (issue 14). Run with
 * `npm run test:cluster`. Writes from "other people" go through client-node, a client nobody here
 * wrote; reads for the checks are fresh GETs and LISTs.
 */
import test from 'ava';
import { CoreV1Api, CustomObjectsApi, EventsV1Api } from '@kubernetes/client-node';
import { firstValueFrom, filter, Subject, type Subscription } from 'rxjs';
import { informer } from '../../../src/informer/informer.js';
import { listWatch } from '../../../src/sources/listWatch.js';
import { ControllerError, KubeApiError } from '../../../src/errors.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';
import { createOrUpdate } from '../../../src/controller/writes/createOrUpdate.js';
import { finalizer } from '../../../src/controller/writes/finalizer.js';
import { resourceClient } from '../../../src/client/resourceClient.js';
import type { ControllerOutcome } from '../../../src/controller/reconcileObjects.js';
import { configMapSetOperator, finalizerName, installCrd, type ConfigMapSet } from '../../../examples/configMapSet/configMapSet.js';
import { api, freshNamespace, kubeConfig, pool, until } from './helpers.js';

const kc = kubeConfig();
const core: CoreV1Api = api(kc);
const custom = kc.makeApiClient(CustomObjectsApi);
const events = kc.makeApiClient(EventsV1Api);
const group = 'demo.rx-informer.dev';

test.before(async () => {
  await installCrd(kc);
});

/** A running operator in one namespace, with its outcomes. */
function operator(namespace: string, instance = 'e2e') {
  const outcomes: ControllerOutcome[] = [];
  const stop = new Subject<void>();
  const done = new Subject<void>();
  const subscription: Subscription = configMapSetOperator({ kubeConfig: kc, namespace, instance, shutdownOn: stop, resyncMs: 60_000 }).subscribe({
    next: (o) => outcomes.push(o),
    error: (e: unknown) => done.error(e),
    complete: () => done.complete(),
  });
  return {
    outcomes,
    conflicts: () => outcomes.filter((o) => o.result === 'error' && o.error instanceof ControllerError && o.error.reason === 'conflict').length,
    /** Graceful: running reconciles finish. */
    async stop() {
      const finished = firstValueFrom(done, { defaultValue: undefined });
      stop.next();
      await finished;
    },
    /** At once, as a crash or a SIGKILL would. */
    kill: () => subscription.unsubscribe(),
  };
}

/** A fresh namespace with an operator running in it for `run`, stopped gracefully after. */
async function withOperator(prefix: string, run: (ns: string, op: ReturnType<typeof operator>) => Promise<void>): Promise<void> {
  const ns = await freshNamespace(core, prefix);
  const op = operator(ns);
  try {
    await run(ns, op);
  } finally {
    await op.stop();
  }
}

const setBody = (namespace: string, name: string, configMaps: Record<string, Record<string, string>>) => ({ apiVersion: `${group}/v1`, kind: 'ConfigMapSet', metadata: { name, namespace }, spec: { configMaps } });
const createSet = (namespace: string, name: string, configMaps: Record<string, Record<string, string>>) =>
  custom.createNamespacedCustomObject({ group, version: 'v1', namespace, plural: 'configmapsets', body: setBody(namespace, name, configMaps) });
const getSet = async (namespace: string, name: string): Promise<ConfigMapSet | undefined> => {
  try {
    return (await custom.getNamespacedCustomObject({ group, version: 'v1', namespace, plural: 'configmapsets', name })) as ConfigMapSet;
  } catch (error) {
    if ((error as { code?: number }).code === 404) return undefined;
    throw error;
  }
};
const children = async (namespace: string) => (await core.listNamespacedConfigMap({ namespace })).items.filter((cm) => cm.metadata?.ownerReferences?.some((r) => r.kind === 'ConfigMapSet'));
const ready = (set: ConfigMapSet | undefined, count: number) =>
  set?.status?.configMaps === count && set.status.observedGeneration === set.metadata?.generation && set.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

test.serial('1. create: the ConfigMaps are created, owned by the set; the finalizer, a Ready condition and Events follow', async (t) =>
  withOperator('op-create', async (ns) => {
    const started = Date.now();
    await createSet(ns, 'web', { app: { mode: 'fast' }, db: { url: 'postgres://db' } });
    await until(async () => ready(await getSet(ns, 'web'), 2), 'web Ready with 2 ConfigMaps');
    t.log(`converged in ${Date.now() - started} ms`);
    const set = (await getSet(ns, 'web'))!;
    t.deepEqual(set.metadata?.finalizers, [finalizerName]);
    const owned = await children(ns);
    t.deepEqual(owned.map((cm) => [cm.metadata!.name, cm.data]).sort(), [
      ['web-app', { mode: 'fast' }],
      ['web-db', { url: 'postgres://db' }],
    ]);
    for (const cm of owned) t.like(cm.metadata!.ownerReferences![0], { kind: 'ConfigMapSet', name: 'web', uid: set.metadata!.uid, controller: true, blockOwnerDeletion: true });
    await until(async () => (await events.listNamespacedEvent({ namespace: ns })).items.filter((e) => e.reason === 'Created').length === 2, 'two Created events');
    const created = (await events.listNamespacedEvent({ namespace: ns })).items.find((e) => e.reason === 'Created')!;
    t.like(created, { type: 'Normal', action: 'CreateConfigMap', reportingController: 'demo.rx-informer.dev/configmapset-controller', reportingInstance: 'e2e', regarding: { kind: 'ConfigMapSet', name: 'web', namespace: ns } });
  }));

test.serial('2. update: a new entry is created, a removed one deleted, a changed one updated', async (t) =>
  withOperator('op-update', async (ns) => {
    await createSet(ns, 's', { a: { v: '1' }, b: { v: '1' } });
    await until(async () => ready(await getSet(ns, 's'), 2), 's Ready');
    await custom.patchNamespacedCustomObject(
      { group, version: 'v1', namespace: ns, plural: 'configmapsets', name: 's', body: [{ op: 'replace', path: '/spec/configMaps', value: { a: { v: '2' }, c: { v: '1' } } }] },
    );
    await until(async () => ready(await getSet(ns, 's'), 2) && (await children(ns)).map((c) => `${c.metadata!.name}=${c.data!['v']}`).sort().join() === 's-a=2,s-c=1', 'a updated, b gone, c created');
    t.pass();
  }));

test.serial('3. drift: a ConfigMap edited or deleted by hand is put back', async (t) =>
  withOperator('op-drift', async (ns) => {
    await createSet(ns, 's', { a: { v: '1' } });
    await until(async () => ready(await getSet(ns, 's'), 1), 's Ready');
    const current = await core.readNamespacedConfigMap({ name: 's-a', namespace: ns });
    await core.replaceNamespacedConfigMap({ name: 's-a', namespace: ns, body: { ...current, data: { v: 'hand-edited', extra: 'theirs' } } });
    await until(async () => (await core.readNamespacedConfigMap({ name: 's-a', namespace: ns })).data?.['v'] === '1', 'v put back');
    t.is((await core.readNamespacedConfigMap({ name: 's-a', namespace: ns })).data?.['extra'], 'theirs', 'fields the operator does not name are left alone');
    await core.deleteNamespacedConfigMap({ name: 's-a', namespace: ns });
    await until(async () => (await children(ns)).some((c) => c.metadata!.name === 's-a' && c.data?.['v'] === '1'), 's-a created again');
    t.pass();
  }));

test.serial('4. delete: the finalizer holds the set while the operator is down; started again, it cleans up and the set goes', async (t) => {
  const ns = await freshNamespace(core, 'op-delete');
  let op = operator(ns);
  await createSet(ns, 's', { a: { v: '1' }, b: { v: '2' } });
  await until(async () => ready(await getSet(ns, 's'), 2), 's Ready');
  await op.stop();
  await custom.deleteNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'configmapsets', name: 's' });
  const held = await getSet(ns, 's');
  t.truthy(held?.metadata?.deletionTimestamp, 'marked for deletion');
  t.deepEqual(held?.metadata?.finalizers, [finalizerName], 'held by our finalizer while nobody cleans up');
  t.is((await children(ns)).length, 2);
  op = operator(ns);
  try {
    const started = Date.now();
    await until(async () => (await getSet(ns, 's')) === undefined, 'the set gone after cleanup');
    t.log(`cleanup and finalizer removal in ${Date.now() - started} ms`);
    t.is((await children(ns)).length, 0, 'its ConfigMaps were deleted before the finalizer went');
    const reasons = (await events.listNamespacedEvent({ namespace: ns })).items.map((e) => e.reason);
    t.true(reasons.includes('CleanedUp'));
  } finally {
    await op.stop();
  }
});

test.serial('5. conflicts: a write from a stale read fails its test and is a ControllerError conflict (edit, createOrUpdate, finalizer), never clobbering', async (t) => {
  const ns = await freshNamespace(core, 'op-conflict');
  const client = resourceClient(kc, { fieldManager: 'e2e' });
  try {
    const cm = await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: ns }, data: { k: 'v' } } as KubeObject & { data?: Record<string, string> });
    await core.patchNamespacedConfigMap({ name: 'c', namespace: ns, body: [{ op: 'add', path: '/metadata/labels', value: { other: 'writer' } }] });
    const edit = await t.throwsAsync(client.edit(cm, (d) => void (d.data = { k: 'mine' })), { instanceOf: ControllerError });
    t.is(edit?.reason, 'conflict');
    t.is((edit?.cause as KubeApiError).code, 422, 'the real server answers a failed JSON Patch test with 422');
    const update = await t.throwsAsync(createOrUpdate(client, cm, { ...cm, data: { k: 'mine' } } as typeof cm), { instanceOf: ControllerError });
    t.is(update?.reason, 'conflict');
    const create = await t.throwsAsync(createOrUpdate(client, undefined, cm), { instanceOf: ControllerError });
    t.is((create?.cause as KubeApiError).reason, 'AlreadyExists');
    const fresh = (await client.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name: 'c' }))!;
    await finalizer(client, 'e2e.example.com/one', fresh, { apply: () => undefined, cleanup: () => undefined });
    const listed = await t.throwsAsync(finalizer(client, 'e2e.example.com/two', fresh, { apply: () => undefined, cleanup: () => undefined }), { instanceOf: ControllerError });
    t.is(listed?.reason, 'conflict', 'the finalizer list changed since it was read');
    const now = (await core.readNamespacedConfigMap({ name: 'c', namespace: ns }));
    t.deepEqual([now.data, now.metadata?.labels, now.metadata?.finalizers], [{ k: 'v' }, { other: 'writer' }, ['e2e.example.com/one']], 'nothing was overwritten');
    await client.patch({ apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name: 'c' }, [{ op: 'remove', path: '/metadata/finalizers' }], { type: 'json' });
  } finally {
    client.close();
  }
});

test.serial('6. concurrent writers: two operator instances and a writer changing the sets converge, with conflicts retried and no duplicates', async (t) => {
  const ns = await freshNamespace(core, 'op-race');
  const a = operator(ns, 'a');
  const b = operator(ns, 'b');
  try {
    const names = Array.from({ length: 10 }, (_, i) => `s${i}`);
    await pool(names, 5, (name) => createSet(ns, name, { x: { v: '1' }, y: { v: '1' } }));
    // The other writer: spec changes (new generations) on every set, while both instances work.
    for (let round = 2; round <= 4; round++) {
      await pool(names, 5, (name) => custom.patchNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'configmapsets', name, body: [{ op: 'replace', path: '/spec/configMaps/x', value: { v: String(round) } }] }));
    }
    await until(async () => {
      const sets = await Promise.all(names.map((name) => getSet(ns, name)));
      return sets.every((s) => ready(s, 2));
    }, 'every set Ready at its last generation', 120_000);
    await until(async () => (await children(ns)).filter((c) => c.data?.['v'] === '4').length === names.length, 'every x at v=4', 60_000);
    const owned = await children(ns);
    t.is(owned.length, 2 * names.length, 'exactly two ConfigMaps per set');
    t.true(owned.every((cm) => cm.metadata!.ownerReferences!.filter((r) => r.controller).length === 1));
    for (const name of names) t.deepEqual((await getSet(ns, name))!.metadata!.finalizers, [finalizerName], `${name}: the finalizer once`);
    t.log(`conflicts retried: instance a ${a.conflicts()}, instance b ${b.conflicts()}`);
    t.true(a.conflicts() + b.conflicts() > 0, 'two writers of one status must have collided');
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test.serial('7. restart mid-work: an operator killed while reconciling 40 sets leaves nothing half-done for the next one', async (t) => {
  const ns = await freshNamespace(core, 'op-restart');
  const names = Array.from({ length: 40 }, (_, i) => `s${i}`);
  await pool(names, 8, (name) => createSet(ns, name, { a: { v: name }, b: { v: name } }));
  const first = operator(ns, 'first');
  await until(() => first.outcomes.length >= 10, 'the first instance has done some of the work');
  first.kill();
  const done = first.outcomes.length;
  const second = operator(ns, 'second');
  try {
    const started = Date.now();
    await until(async () => (await Promise.all(names.map((name) => getSet(ns, name)))).every((s) => ready(s, 2)), 'every set Ready', 120_000);
    t.log(`first instance: ${done} outcomes before it was killed; the second converged all 40 in ${Date.now() - started} ms`);
    const owned = await children(ns);
    t.is(owned.length, 80);
    t.deepEqual(new Set(owned.map((cm) => cm.metadata!.name)).size, 80, 'no duplicates');
    for (const name of names) t.deepEqual((await getSet(ns, name))!.metadata!.finalizers, [finalizerName]);
  } finally {
    await second.stop();
  }
});

test.serial('8. the informer sees the operator: a Ready set reads Ready in a plain informer too', async (t) =>
  withOperator('op-watch', async (ns) => {
    const sets = informer(listWatch<ConfigMapSet>(kc, { apiVersion: `${group}/v1`, kind: 'ConfigMapSet', namespace: ns }));
    await createSet(ns, 's', { a: { v: '1' } });
    const readyInCache = await firstValueFrom(sets.snapshots$.pipe(filter((snapshot) => ready(snapshot.get(ns, 's'), 1))));
    t.is(readyInCache.get(ns, 's')!.status!.conditions![0]!.reason, 'Reconciled');
  }));

test.serial('9. garbage collection (kube-controller-manager): a ConfigMap naming a deleted set as its owner is deleted by the GC, not by the operator', async (t) =>
  withOperator('op-gc', async (ns) => {
    await createSet(ns, 's', { a: { v: '1' } });
    await until(async () => ready(await getSet(ns, 's'), 1), 's Ready');
    const set = (await getSet(ns, 's'))!;
    // Not a controller reference: the operator's cleanup leaves it to the garbage collector.
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'by-someone-else', namespace: ns, ownerReferences: [{ apiVersion: `${group}/v1`, kind: 'ConfigMapSet', name: 's', uid: set.metadata!.uid! }] } },
    });
    await custom.deleteNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'configmapsets', name: 's' });
    await until(async () => (await getSet(ns, 's')) === undefined, 'the set gone');
    const started = Date.now();
    // The GC learns new resource types by discovery every 30 s, so a just-installed CRD can take that long.
    await until(async () => (await children(ns)).length === 0, 'the garbage collector deleted by-someone-else', 120_000);
    t.log(`garbage collected ${Date.now() - started} ms after the owner went`);
    t.pass();
  }));

test.serial('10. server-side apply: create and update what a manager applies, with the owner reference; another manager is a 409 until force', async (t) => {
  const ns = await freshNamespace(core, 'op-apply');
  const client = resourceClient(kc, { fieldManager: 'e2e-apply' });
  const other = resourceClient(kc, { fieldManager: 'someone-else' });
  try {
    const owner: KubeObject = await client.create<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner', namespace: ns } });
    const desired = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: ns }, data }) as KubeObject & { data: Record<string, string> };
    const first = await client.apply(desired({ a: '1', b: '1' }), { owner });
    t.deepEqual(first.data, { a: '1', b: '1' });
    t.like((first.metadata as { ownerReferences?: unknown[] }).ownerReferences?.[0], { name: 'owner', uid: owner.metadata!.uid, controller: true });
    const second = await client.apply(desired({ a: '2' }), { owner });
    t.deepEqual(second.data, { a: '2' }, 'b, applied before and left out now, is removed');
    const refused = await t.throwsAsync(other.apply(desired({ a: 'theirs' })), { instanceOf: KubeApiError });
    t.is(refused?.code, 409);
    t.regex(refused!.message, /conflict with "e2e-apply"/);
    t.false(refused instanceof ControllerError);
    t.deepEqual((await other.apply(desired({ a: 'theirs' }), { force: true })).data, { a: 'theirs' });
  } finally {
    client.close();
    other.close();
  }
});
