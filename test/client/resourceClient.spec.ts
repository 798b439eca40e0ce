/** The resource client over HTTP against the in-process API server. */
import test from 'ava';
import { resourceClient } from '../../src/client/resourceClient.js';
import { ControllerError, KubeApiError, TransportError } from '../../src/errors.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { TestApiServer } from '../../src/testServer/index.js';
import { withClient } from '../controller/writes/withClient.js';

interface Cm extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}
interface Widget extends KubeObject {
  readonly spec?: { readonly size?: number };
  readonly status?: { readonly phase?: string };
}

const cm = (name: string, data: Record<string, string> = {}): Cm => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'n' }, data });

const writes = (server: TestApiServer) => server.requests.filter((r) => r.method !== 'GET');

test('create, get, replace, merge patch and delete a ConfigMap; a missing object reads as undefined', async (t) => {
  await withClient(async (server, client) => {
    const created = await client.create(cm('a', { k: 'v' }));
    t.is(created.metadata?.namespace, 'n');
    t.truthy(created.metadata?.resourceVersion);
    t.deepEqual((await client.get<Cm>({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'a' }))?.data, { k: 'v' });
    const replaced = await client.replace({ ...created, data: { k: 'w' } });
    t.deepEqual(replaced.data, { k: 'w' });
    const merged = await client.patch<Cm>({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'a' }, { data: { x: '1' } }, { type: 'merge' });
    t.deepEqual(merged.data, { k: 'w', x: '1' });
    t.is(await client.delete(merged), undefined, 'gone at once');
    t.is(await client.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'a' }), undefined);
    t.is(await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'a' }), undefined, 'deleting what is gone is not an error');
    t.true(writes(server).every((r) => r.query['fieldManager'] === 'tests' || r.method === 'DELETE'), 'writes name the field manager');
  });
});

test('a custom resource is found through discovery once, then written like any other', async (t) => {
  await withClient(async (server, client) => {
    const a = await client.create<Widget>({ apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'a', namespace: 'n' }, spec: { size: 1 } });
    await client.create<Widget>({ apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'b', namespace: 'n' }, spec: { size: 2 } });
    await client.edit(a, (draft) => void (draft.spec = { size: 3 }));
    t.is(server.requests.filter((r) => r.path === '/apis/demo.example.com/v1').length, 1);
    t.deepEqual(server.get('widgets.demo.example.com', 'n', 'a')?.['spec'], { size: 3 });
    await t.throwsAsync(client.create({ apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'c' } }), { instanceOf: TypeError, message: /Widget c is namespaced/ });
  });
});

test('edit sends a JSON Patch locked on the resourceVersion; an edit that changes nothing sends nothing', async (t) => {
  await withClient(async (server, client) => {
    const a = await client.create(cm('a', { k: 'v' }));
    const before = writes(server).length;
    t.is(await client.edit(a, (draft) => void (draft.data = { k: 'v' })), a);
    t.is(writes(server).length, before, 'no request');
    const edited = await client.edit(a, (draft) => void (draft.data = { ...draft.data, 'x/y': '1' }));
    t.deepEqual(edited.data, { k: 'v', 'x/y': '1' });
    t.is(writes(server).at(-1)?.headers.contentType, 'application/json-patch+json');
  });
});

test('a stale edit is a ControllerError conflict (the 422 of the failed test is its cause); so are a stale PUT and a create of an existing name', async (t) => {
  await withClient(async (_server, client) => {
    const a = await client.create(cm('a', { k: 'v' }));
    await client.edit(a, (draft) => void (draft.data = { k: 'w' }));
    const stale = await t.throwsAsync(client.edit(a, (draft) => void (draft.data = { k: 'x' })), { instanceOf: ControllerError });
    t.is(stale?.reason, 'conflict');
    t.is(stale?.key, 'n/a');
    t.true(stale?.cause instanceof KubeApiError && stale.cause.code === 422);
    const put = await t.throwsAsync(client.replace({ ...a, data: { k: 'y' } }), { instanceOf: ControllerError });
    t.true(put?.cause instanceof KubeApiError && put.cause.code === 409);
    const again = await t.throwsAsync(client.create(cm('a')), { instanceOf: ControllerError });
    t.is((again?.cause as KubeApiError).reason, 'AlreadyExists');
  });
});

test('a conflict is worded as the race it is: the object, what changed under the write, read again and retry; no [informer] prefix', async (t) => {
  await withClient(async (server, client) => {
    const a = await client.create(cm('a', { k: 'v' }));
    const rv = a.metadata!.resourceVersion!;
    await client.edit(a, (draft) => void (draft.data = { k: 'w' }));
    const retry = 'another writer got there first; read it again and retry (a controller\'s reconcile is retried)';
    // The apiserver's 422 for a failed JSON Patch test reads "invalid (the server rejected our request due to an error in our request)".
    const patch = await t.throwsAsync(client.edit(a, (draft) => void (draft.data = { k: 'x' })), { instanceOf: ControllerError });
    t.is(patch?.message, `ConfigMap a in n changed under this patch (resourceVersion ${rv} → newer): ${retry}`);
    const put = await t.throwsAsync(client.replace({ ...a, data: { k: 'y' } }), { instanceOf: ControllerError });
    t.is(put?.message, `ConfigMap a in n changed under this update (resourceVersion ${rv} → newer): ${retry}`);
    const created = await t.throwsAsync(client.create(cm('a')), { instanceOf: ControllerError });
    t.is(created?.message, `ConfigMap a in n was created by another writer under this create: ${retry}`);
    const tested = await t.throwsAsync(client.patch({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'a' }, [{ op: 'test', path: '/data', value: { k: 'v' } }, { op: 'replace', path: '/data', value: {} }], { type: 'json' }), { instanceOf: ControllerError });
    t.is(tested?.message, `ConfigMap a in n changed under this patch (/data no longer as read): ${retry}`);
    server.delete('configmaps', 'n', 'a');
    const deleted = await t.throwsAsync(client.edit(a, (draft) => void (draft.data = { k: 'z' })), { instanceOf: ControllerError });
    t.is(deleted?.message, `ConfigMap a in n was deleted under this patch: ${retry}`);
    for (const error of [patch, put, created, tested, deleted]) t.is(error?.key, 'n/a');
    server.failNext({ status: 403, verbs: ['create'] });
    const denied = await t.throwsAsync(client.create(cm('b')), { instanceOf: KubeApiError });
    t.regex(denied!.message, /^cannot create configmaps in namespace n: forbidden/, 'a refused write of the toolkit has no [informer] prefix either');
  });
});

test('a write built from an object read before it was deleted is a conflict too (a 404 behind the resourceVersion test or precondition); a 404 without one is not', async (t) => {
  await withClient(async (server, client) => {
    const a = await client.create(cm('a', { k: 'v' }));
    server.delete('configmaps', 'n', 'a');
    const edit = await t.throwsAsync(client.edit(a, (draft) => void (draft.data = { k: 'w' })), { instanceOf: ControllerError });
    t.is(edit?.reason, 'conflict');
    t.true(edit?.cause instanceof KubeApiError && edit.cause.code === 404);
    const put = await t.throwsAsync(client.replace({ ...a, data: { k: 'y' } }), { instanceOf: ControllerError });
    t.true(put?.cause instanceof KubeApiError && put.cause.code === 404);
    const { resourceVersion: _rv, ...metadata } = a.metadata!;
    const blind = await t.throwsAsync(client.replace({ ...a, metadata, data: { k: 'z' } }), { instanceOf: KubeApiError });
    t.is(blind?.code, 404, 'a PUT that read nothing is told the object is not there');
    const merge = await t.throwsAsync(client.patch({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'a' }, { data: { k: 'm' } }, { type: 'merge' }), { instanceOf: KubeApiError });
    t.is(merge?.code, 404);
  });
});

test('a status edit goes to /status, and other changes in it are refused before anything is sent', async (t) => {
  await withClient(async (server, client) => {
    const w = await client.create<Widget>({ apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'n' }, spec: { size: 1 } });
    const ready = await client.edit(w, (draft) => void (draft.status = { phase: 'Ready' }), { subresource: 'status' });
    t.deepEqual(ready.status, { phase: 'Ready' });
    t.is(writes(server).at(-1)?.path, '/apis/demo.example.com/v1/namespaces/n/widgets/w/status');
    const count = writes(server).length;
    const error = await t.throwsAsync(client.edit(ready, (draft) => void (draft.spec = { size: 9 }), { subresource: 'status' }), { instanceOf: ControllerError });
    t.is(error?.reason, 'invalidEdit');
    t.is(writes(server).length, count);
  });
});

test('apply: needs a field manager; creates and updates what it manages; another manager\'s field is a 409 KubeApiError (not a conflict) until force; the owner reference is set', async (t) => {
  await withClient(async (server, client) => {
    const bare = resourceClient(server.kubeConfig);
    await t.throwsAsync(bare.apply(cm('a')), { instanceOf: TypeError, message: /needs a fieldManager/ });
    bare.close();
    const owner: KubeObject = { apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'n', uid: 'uid-w' } };
    const applied = await client.apply({ ...cm('a', { k: 'v' }), metadata: { name: 'a', namespace: 'n', resourceVersion: '999', managedFields: [] } as KubeObject['metadata'] }, { owner });
    t.deepEqual(applied.data, { k: 'v' });
    t.like((applied.metadata as { ownerReferences?: unknown[] }).ownerReferences?.[0], { uid: 'uid-w', controller: true, blockOwnerDeletion: true });
    const request = server.requests.at(-1)!;
    t.deepEqual([request.headers.contentType, request.query['fieldManager'], request.query['force']], ['application/apply-patch+yaml', 'tests', undefined]);
    const other = resourceClient(server.kubeConfig, { fieldManager: 'someone-else' });
    const refused = await t.throwsAsync(other.apply(cm('a', { k: 'theirs' })), { instanceOf: KubeApiError });
    t.is(refused?.code, 409);
    t.regex(refused!.message, /cannot apply configmaps in namespace n: conflict \(Apply failed with 1 conflict: conflict with "tests": \.data\.k\)/);
    t.deepEqual((await other.apply(cm('a', { k: 'theirs' }), { force: true })).data, { k: 'theirs' });
    t.is(server.requests.at(-1)!.query['force'], 'true');
    other.close();
  });
});

test('deleting an object with finalizers resolves with it, marked for deletion', async (t) => {
  await withClient(async (_server, client) => {
    await client.create({ ...cm('f'), metadata: { name: 'f', namespace: 'n', finalizers: ['x/y'] } });
    const kept = await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'f' }, { propagationPolicy: 'Foreground' });
    t.truthy(kept?.metadata?.deletionTimestamp);
  });
});

test('a 401 is retried once with credentials read again; a second 401 is the error', async (t) => {
  await withClient(async (server, client) => {
    server.failNext({ status: 401, count: 1 });
    t.truthy(await client.create(cm('a')));
    server.failNext({ status: 401, count: 2 });
    const error = await t.throwsAsync(client.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'a' }), { instanceOf: KubeApiError });
    t.is(error?.code, 401);
    t.is(server.requests.filter((r) => r.status === 401).length, 3);
  });
});

test('aborting the signal rejects with its reason and drops the request', async (t) => {
  await withClient(async (server, client) => {
    server.delayResponses({ ms: 10_000, verbs: ['create'] });
    const abort = new AbortController();
    const pending = client.create(cm('slow'), { signal: abort.signal });
    await server.waitForRequest((r) => r.verb === 'create');
    abort.abort(new Error('stop'));
    await t.throwsAsync(pending, { message: 'stop' });
    await server.waitForRequest((r) => r.verb === 'create' && r.endedAt !== undefined);
    await t.throwsAsync(client.create(cm('x'), { signal: abort.signal }), { message: 'stop' }, 'an aborted signal is checked first');
  });
});

test('bad targets are TypeErrors naming what is missing; an unreachable server is a TransportError', async (t) => {
  await withClient(async (server, client) => {
    await t.throwsAsync(client.create({ metadata: { name: 'x' } }), { instanceOf: TypeError, message: /needs apiVersion, kind/ });
    await t.throwsAsync(client.patch({ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', namespace: 'n' }, {}, { type: 'json' }), { instanceOf: TypeError, message: /array of operations/ });
    await server.close();
    await t.throwsAsync(client.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'x' }), { instanceOf: TransportError });
  });
  t.throws(() => resourceClient({} as never), { instanceOf: TypeError, message: /KubeConfig/ });
});
