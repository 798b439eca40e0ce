/** createOrUpdate() and the owner reference helpers, against the in-process API server. */
import test from 'ava';
import { byControllerOwner, controllerOf, controllerReference, ownedBy, ownerRefsOf, setControllerReference } from '../../../src/store/ownerReferences.js';
import { applyBatch } from '../../../src/store/applyBatch.js';
import { emptySnapshot } from '../../../src/store/snapshot.js';
import { createOrUpdate } from '../../../src/controller/writes/createOrUpdate.js';
import { ControllerError } from '../../../src/errors.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';
import type { JsonObject, TestApiServer } from '../../../src/testServer/index.js';
import { withClient } from './withClient.js';

interface Cm extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}
interface Widget extends KubeObject {
  readonly spec?: Readonly<Record<string, unknown>>;
  readonly status?: Readonly<Record<string, unknown>>;
}
const owner: KubeObject = { apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'n', uid: 'uid-w' } };
const other: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'n', uid: 'uid-d' } };
const desired = (data: Record<string, string | null>): Cm => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n', labels: { app: 'w' } }, data: data as Record<string, string> });

const cached = (server: TestApiServer, resource: string, name: string) => server.get(resource, 'n', name) as Cm | undefined;

test('created with the owner reference; unchanged when it matches; updated when it drifts, leaving fields it does not name alone', async (t) => {
  await withClient(async (server, client) => {
    const created = await createOrUpdate(client, undefined, desired({ k: 'v' }), { owner });
    t.is(created.result, 'created');
    t.deepEqual(controllerOf(created.object), { apiVersion: 'demo.example.com/v1', kind: 'Widget', name: 'w', uid: 'uid-w', controller: true, blockOwnerDeletion: true });
    const writes = server.requests.filter((r) => r.method !== 'GET').length;
    t.is((await createOrUpdate(client, cached(server, 'configmaps', 'c'), desired({ k: 'v' }), { owner })).result, 'unchanged');
    t.is(server.requests.filter((r) => r.method !== 'GET').length, writes, 'nothing sent');
    server.patch('configmaps', 'n', 'c', { data: { k: 'drifted', extra: 'theirs' }, metadata: { labels: { theirs: 'x' } } });
    const repaired = await createOrUpdate(client, cached(server, 'configmaps', 'c'), desired({ k: 'v' }), { owner });
    t.is(repaired.result, 'updated');
    t.deepEqual(repaired.object.data, { k: 'v', extra: 'theirs' });
    t.deepEqual(repaired.object.metadata?.labels, { app: 'w', theirs: 'x' });
    t.deepEqual((await createOrUpdate(client, cached(server, 'configmaps', 'c'), desired({ extra: null }), { owner })).object.data, { k: 'v' }, 'null removes');
  });
});

test('a stale cache is a conflict both ways: create of an existing object, update of a changed one', async (t) => {
  await withClient(async (server, client) => {
    await createOrUpdate(client, undefined, desired({ k: 'v' }));
    const missed = await t.throwsAsync(createOrUpdate(client, undefined, desired({ k: 'v' })), { instanceOf: ControllerError });
    t.is(missed?.reason, 'conflict');
    const stale = cached(server, 'configmaps', 'c');
    server.patch('configmaps', 'n', 'c', { data: { k: 'other' } });
    const changed = await t.throwsAsync(createOrUpdate(client, stale, desired({ k: 'mine' })), { instanceOf: ControllerError });
    t.is(changed?.reason, 'conflict');
  });
});

test('another controller already owns it: alreadyOwned, and nothing is written', async (t) => {
  await withClient(async (server, client) => {
    server.create('configmaps', setControllerReference(desired({ k: 'v' }), other) as JsonObject);
    const writes = server.requests.length;
    const error = await t.throwsAsync(createOrUpdate(client, cached(server, 'configmaps', 'c'), desired({ k: 'w' }), { owner }), { instanceOf: ControllerError });
    t.is(error?.reason, 'alreadyOwned');
    t.regex(error!.message, /already controlled by Deployment d/);
    t.is(server.requests.length, writes);
  });
});

test('status goes through the status subresource: updatedStatusOnly, updatedStatus', async (t) => {
  await withClient(async (server, client) => {
    const widget = (spec: Record<string, unknown>, status?: Record<string, unknown>): Widget => ({ apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'x', namespace: 'n' }, spec, ...(status ? { status } : {}) });
    t.is((await createOrUpdate(client, undefined, widget({ size: 1 }))).result, 'created');
    const current = () => server.get('widgets.demo.example.com', 'n', 'x') as Widget;
    t.is((await createOrUpdate(client, current(), widget({ size: 1 }, { phase: 'Ready' }))).result, 'updatedStatusOnly');
    t.deepEqual(current().status, { phase: 'Ready' });
    t.is((await createOrUpdate(client, current(), widget({ size: 2 }, { phase: 'Resized' }))).result, 'updatedStatus');
    t.deepEqual([current().spec, current().status], [{ size: 2 }, { phase: 'Resized' }]);
    t.is((await createOrUpdate(client, current(), widget({ size: 2 }, { phase: 'Resized' }))).result, 'unchanged');
  });
});

test('bad arguments: no name, current and desired naming different objects', async (t) => {
  await withClient(async (_server, client) => {
    await t.throwsAsync(createOrUpdate(client, undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }), { instanceOf: TypeError, message: /desired needs metadata.name/ });
    await t.throwsAsync(createOrUpdate(client, { ...desired({}), metadata: { name: 'other', namespace: 'n' } }, desired({})), { instanceOf: TypeError, message: /current is n\/other/ });
  });
});

test('owner references: controllerReference, setControllerReference keeps identity when set, the byControllerOwner index, ownerRefsOf by group and kind', (t) => {
  t.throws(() => controllerReference({ kind: 'Widget', metadata: { name: 'w' } }), { instanceOf: TypeError, message: /apiVersion, metadata.uid/ });
  const child = setControllerReference(desired({}), owner);
  t.is(setControllerReference(child, owner), child);
  t.throws(() => setControllerReference(desired({}), { ...owner, metadata: { ...owner.metadata, namespace: 'elsewhere' } }), { instanceOf: TypeError, message: /cannot own an object in namespace n/ });
  t.deepEqual(byControllerOwner(child), ['uid-w']);
  t.deepEqual(byControllerOwner(desired({})), []);
  const mixed: KubeObject = {
    metadata: {
      name: 'c',
      namespace: 'n',
      ownerReferences: [
        { apiVersion: 'demo.example.com/v2', kind: 'Widget', name: 'w1', uid: '1', controller: true },
        { apiVersion: 'demo.example.com/v1', kind: 'Widget', name: 'w2', uid: '2' },
        { apiVersion: 'other.example.com/v1', kind: 'Widget', name: 'w3', uid: '3', controller: true },
      ],
    } as KubeObject['metadata'],
  };
  const type = { apiVersion: 'demo.example.com/v1', kind: 'Widget' };
  t.deepEqual(ownerRefsOf(mixed, type, 'controller'), [{ name: 'w1', namespace: 'n', kind: 'Widget', apiVersion: 'demo.example.com/v2' }], 'the version is ignored, the group is not');
  t.deepEqual(ownerRefsOf(mixed, type, 'any').map((r) => r.name), ['w1', 'w2']);
  t.deepEqual(ownerRefsOf(mixed, { ...type, clusterScoped: true }, 'controller'), [{ name: 'w1', kind: 'Widget', apiVersion: 'demo.example.com/v2' }]);
});

test('desired may be an object as read (server-owned metadata is not sent): created when absent, a conflict when it exists', async (t) => {
  await withClient(async (server, client) => {
    const read: Cm = { ...desired({ k: 'v' }), metadata: { name: 'c', namespace: 'n', resourceVersion: '42', uid: 'old-uid', generation: 3, creationTimestamp: '2026-01-01T00:00:00Z' } };
    const created = await createOrUpdate(client, undefined, read);
    t.is(created.result, 'created');
    t.not(created.object.metadata?.uid, 'old-uid');
    const again = await t.throwsAsync(createOrUpdate(client, undefined, read), { instanceOf: ControllerError });
    t.is(again?.reason, 'conflict');
    t.truthy(server.get('configmaps', 'n', 'c'));
  });
});

test('ownedBy: the children of an owner, through the byControllerOwner index or by a scan; none for an owner without uid', (t) => {
  let snapshot = emptySnapshot<KubeObject>(['owner']);
  const indexed = (s: typeof snapshot, ...objects: KubeObject[]) =>
    applyBatch(s, { deltas: new Map(objects.map((o) => [`n/${o.metadata!.name}`, [{ type: 'Added' as const, key: `n/${o.metadata!.name}`, object: o }]])) }, { owner: byControllerOwner }).snapshot;
  const mine = setControllerReference({ ...desired({}), metadata: { name: 'mine', namespace: 'n' } }, owner);
  const theirs = setControllerReference({ ...desired({}), metadata: { name: 'theirs', namespace: 'n' } }, other);
  snapshot = indexed(snapshot, mine, theirs, { ...desired({}), metadata: { name: 'free', namespace: 'n' } });
  t.deepEqual(ownedBy(snapshot, owner, 'owner').map((o) => o.metadata?.name), ['mine']);
  t.deepEqual(ownedBy(snapshot, owner).map((o) => o.metadata?.name), ['mine']);
  t.deepEqual(ownedBy(snapshot, { metadata: { name: 'x' } }), []);
});
