import test from 'ava';
import { TestApiServerError } from '../../src/testServer/index.js';
import { call, configMap, openWatch, withServer } from './apiServerClient.js';
import { configMap as buildConfigMap, pod } from '../../src/testing/index.js';


test('POST creates (201) with server-owned metadata and a new global RV; duplicates are 409 AlreadyExists', async (t) => {
  await withServer(async (server) => {
    const before = Number(server.resourceVersion);
    const created = await call(`${server.url}/api/v1/namespaces/a/configmaps`, { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one', uid: 'mine' }, data: { k: 'v' } } });
    t.is(created.status, 201);
    t.is(created.json.kind, 'ConfigMap');
    t.is(created.json.apiVersion, 'v1');
    t.is(created.json.metadata.namespace, 'a');
    t.is(created.json.metadata.resourceVersion, String(before + 1));
    t.is(created.json.metadata.generation, 1);
    t.not(created.json.metadata.uid, 'mine', 'the server owns uid');
    t.is(typeof created.json.metadata.resourceVersion, 'string');
    t.is(server.resourceVersion, String(before + 1));
    const again = await call(`${server.url}/api/v1/namespaces/a/configmaps`, { method: 'POST', body: { metadata: { name: 'one' } } });
    t.is(again.status, 409);
    t.deepEqual(again.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "one" already exists',
      reason: 'AlreadyExists',
      details: { name: 'one', kind: 'configmaps' },
      code: 409,
    });
    const generated = await call(`${server.url}/api/v1/namespaces/a/configmaps`, { method: 'POST', body: { metadata: { generateName: 'gen-' } } });
    t.regex(generated.json.metadata.name, /^gen-[a-z0-9]{5}$/);
    const noName = await call(`${server.url}/api/v1/namespaces/a/configmaps`, { method: 'POST', body: { metadata: {} } });
    t.is(noName.status, 422);
    t.is(noName.json.reason, 'Invalid');
    const wrongNs = await call(`${server.url}/api/v1/namespaces/a/configmaps`, { method: 'POST', body: { metadata: { name: 'x', namespace: 'b' } } });
    t.is(wrongNs.status, 400);
    const wrongKind = await call(`${server.url}/api/v1/namespaces/a/configmaps`, { method: 'POST', body: { kind: 'Pod', metadata: { name: 'x' } } });
    t.is(wrongKind.status, 400);
  });
});

test('a malformed JSON body is a 400 Status naming the problem', async (t) => {
  await withServer(async (server) => {
    const reply = await call(`${server.url}/api/v1/namespaces/a/configmaps`, { method: 'POST', body: '{"metadata": {"name": "x"' });
    t.is(reply.status, 400);
    t.like(reply.json, { kind: 'Status', reason: 'BadRequest', code: 400 });
    t.regex(reply.json.message, /^the request body is not valid JSON: /);
    const empty = await call(`${server.url}/api/v1/namespaces/a/configmaps`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    t.is(empty.status, 400);
    t.regex(empty.json.message, /empty/);
  });
});

test('GET one object, 404 NotFound Status for a missing one', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one'));
    const got = await call(`${server.url}/api/v1/namespaces/a/configmaps/one`);
    t.is(got.status, 200);
    t.is(got.json.kind, 'ConfigMap');
    const missing = await call(`${server.url}/api/v1/namespaces/a/configmaps/nope`);
    t.is(missing.status, 404);
    t.deepEqual(missing.json.details, { name: 'nope', kind: 'configmaps' });
    t.is(missing.json.message, 'configmaps "nope" not found');
  });
});

test('PUT replaces, 409 Conflict on a stale resourceVersion, no new RV for an unchanged object', async (t) => {
  await withServer(async (server) => {
    const created = server.create('configmaps', configMap('a', 'one'));
    const url = `${server.url}/api/v1/namespaces/a/configmaps/one`;
    const updated = await call(url, { method: 'PUT', body: { ...created, data: { k: 'new' } } });
    t.is(updated.status, 200);
    t.is(updated.json.data.k, 'new');
    t.is(updated.json.metadata.uid, created.metadata!.uid);
    t.is(updated.json.metadata.creationTimestamp, created.metadata!['creationTimestamp']);
    t.not(updated.json.metadata.resourceVersion, created.metadata!.resourceVersion);
    const stale = await call(url, { method: 'PUT', body: { ...created, data: { k: 'stale' } } });
    t.is(stale.status, 409);
    t.is(stale.json.reason, 'Conflict');
    t.is(stale.json.message, 'Operation cannot be fulfilled on configmaps "one": the object has been modified; please apply your changes to the latest version and try again');
    const rv = server.resourceVersion;
    const same = await call(url, { method: 'PUT', body: updated.json });
    t.is(same.json.metadata.resourceVersion, updated.json.metadata.resourceVersion);
    t.is(server.resourceVersion, rv);
    const renamed = await call(url, { method: 'PUT', body: { metadata: { name: 'other' } } });
    t.is(renamed.status, 400);
    const missing = await call(`${server.url}/api/v1/namespaces/a/configmaps/nope`, { method: 'PUT', body: { metadata: { name: 'nope' } } });
    t.is(missing.status, 404);
  });
});

test('generation is bumped only when spec changes', async (t) => {
  await withServer(async (server) => {
    server.create('pods', { metadata: { name: 'p', namespace: 'a' }, spec: { nodeName: 'n1' } });
    t.is(server.patch('pods', 'a', 'p', { metadata: { labels: { x: 'y' } } }).metadata!.generation, 1);
    t.is(server.patch('pods', 'a', 'p', { spec: { nodeName: 'n2' } }).metadata!.generation, 2);
    t.is(server.patch('pods', 'a', 'p', { status: { phase: 'Running' } }).metadata!.generation, 2);
  });
});

test('PATCH: merge, strategic-merge (as merge) and JSON patches; an apply without a field manager is a 422; 409 on a stale RV', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one', { keep: 'me', drop: 'me' }, { a: '1', b: '2' }));
    const url = `${server.url}/api/v1/namespaces/a/configmaps/one`;
    const merged = await call(url, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { labels: { drop: null, add: 'x' } }, data: { a: null, c: '3' } } });
    t.is(merged.status, 200);
    t.deepEqual(merged.json.metadata.labels, { keep: 'me', add: 'x' });
    t.deepEqual(merged.json.data, { b: '2', c: '3' });
    const strategic = await call(url, { method: 'PATCH', headers: { 'Content-Type': 'application/strategic-merge-patch+json' }, body: { data: { d: '4' } } });
    t.deepEqual(strategic.json.data, { b: '2', c: '3', d: '4' });
    const jsonPatch = await call(url, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json-patch+json' },
      body: [{ op: 'remove', path: '/data/b' }, { op: 'add', path: '/metadata/labels/via~1json', value: 'yes' }, { op: 'test', path: '/data/c', value: '3' }],
    });
    t.is(jsonPatch.status, 200);
    t.deepEqual(jsonPatch.json.data, { c: '3', d: '4' });
    t.is(jsonPatch.json.metadata.labels['via/json'], 'yes');
    const failedTest = await call(url, { method: 'PATCH', headers: { 'Content-Type': 'application/json-patch+json' }, body: [{ op: 'test', path: '/data/c', value: 'nope' }] });
    t.is(failedTest.status, 422);
    const apply = await call(url, { method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: {} });
    t.is(apply.status, 422);
    t.is((await call(url, { method: 'PATCH', headers: { 'Content-Type': 'application/yaml' }, body: {} })).status, 415, 'an unknown patch type');
    const stale = await call(url, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { resourceVersion: '1' }, data: { e: '5' } } });
    t.is(stale.status, 409);
    const status = await call(`${server.url}/api/v1/namespaces/a/configmaps/one/status`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: { status: { ok: true }, data: { ignored: 'yes' } } });
    t.is(status.status, 200);
    t.deepEqual(status.json.status, { ok: true });
    t.is(status.json.data.ignored, undefined, 'the status subresource changes only status');
  });
});

test('DELETE returns the object with a new RV; the DELETED event carries the same final object', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one'));
    const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${server.resourceVersion}`);
    const deleted = await call(`${server.url}/api/v1/namespaces/a/configmaps/one`, { method: 'DELETE' });
    t.is(deleted.status, 200);
    t.is(deleted.json.kind, 'ConfigMap');
    t.is(deleted.json.metadata.resourceVersion, server.resourceVersion);
    const [event] = await watch.waitFor(1);
    t.is(event!.type, 'DELETED');
    t.deepEqual(event!.object, deleted.json);
    t.is((await call(`${server.url}/api/v1/namespaces/a/configmaps/one`, { method: 'DELETE' })).status, 404);
    watch.close();
  });
});

test('DELETE of an object with finalizers sets deletionTimestamp; removing the last finalizer deletes it', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', { metadata: { name: 'f', namespace: 'a', finalizers: ['x/y'] } });
    const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${server.resourceVersion}`);
    const deleting = await call(`${server.url}/api/v1/namespaces/a/configmaps/f`, { method: 'DELETE' });
    t.truthy(deleting.json.metadata.deletionTimestamp);
    t.truthy(server.get('configmaps', 'a', 'f'));
    server.patch('configmaps', 'a', 'f', { metadata: { finalizers: null } });
    t.is(server.get('configmaps', 'a', 'f'), undefined);
    t.deepEqual((await watch.waitFor(2)).map((e) => e.type), ['MODIFIED', 'DELETED']);
    watch.close();
  });
});

test('DELETE preconditions and deletecollection', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one', { app: 'x' }));
    server.create('configmaps', configMap('a', 'two', { app: 'x' }));
    server.create('configmaps', configMap('a', 'three', { app: 'y' }));
    const wrong = await call(`${server.url}/api/v1/namespaces/a/configmaps/one`, { method: 'DELETE', body: { preconditions: { resourceVersion: '1' } } });
    t.is(wrong.status, 409, wrong.text);
    const all = await call(`${server.url}/api/v1/namespaces/a/configmaps?labelSelector=app%3Dx`, { method: 'DELETE' });
    t.is(all.status, 200);
    t.deepEqual(all.json.items.map((i: any) => i.metadata.name), ['one', 'two']);
    t.deepEqual(server.list('configmaps').map((o) => o.metadata!.name), ['three']);
  });
});

test('the control API throws TestApiServerError for conflicts and unknown resources are TypeErrors', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one'));
    const error = t.throws(() => server.create('configmaps', configMap('a', 'one')), { instanceOf: TestApiServerError });
    t.is(error?.status.code, 409);
    t.throws(() => server.list('gadgets'), { instanceOf: TypeError, message: /unknown resource "gadgets"/ });
    t.throws(() => server.update('configmaps', { ...configMap('a', 'one'), metadata: { name: 'one', namespace: 'a', resourceVersion: '1' } }), { instanceOf: TestApiServerError });
  });
});

test('drop-watch writes change state and the log without telling open watches', async (t) => {
  await withServer(async (server) => {
    const from = server.resourceVersion;
    const live = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${from}`);
    server.create('configmaps', configMap('a', 'quiet'), { broadcast: false });
    server.create('configmaps', configMap('a', 'loud'));
    t.deepEqual((await live.waitFor(1)).map((e) => e.object.metadata.name), ['loud']);
    const replay = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${from}`);
    t.deepEqual((await replay.waitFor(2)).map((e) => e.object.metadata.name), ['quiet', 'loud']);
    live.close();
    replay.close();
  });
});

test('seed stores many objects without events and compacts the log', async (t) => {
  await withServer(async (server) => {
    const before = server.resourceVersion;
    const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${before}`);
    server.seed('configmaps', Array.from({ length: 1000 }, (_, i) => configMap(`ns-${i % 10}`, `cm-${i}`)));
    t.is(server.resourceVersion, String(Number(before) + 1000));
    t.is(server.oldestResourceVersion, server.resourceVersion);
    t.is(server.list('configmaps', 'ns-3').length, 100);
    const late = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${before}`);
    await late.ended;
    t.is(late.events[0]!.object.code, 410);
    t.is(watch.events.length, 0);
    watch.close();
  });
});

test('the control API takes the testing kit\'s builders as they are and serves what they built', async (t) => {
  await withServer(async (server) => {
    const created = server.create('pods', pod('web-1', { namespace: 'web', nodeName: 'node-a', phase: 'Running' }));
    server.seed('configmaps', [buildConfigMap('a', { data: { k: 'v' } }), buildConfigMap('b')]);
    t.is(created.kind, 'Pod');
    t.is(created.metadata?.namespace, 'web');
    t.deepEqual((await call(`${server.url}/api/v1/namespaces/web/pods/web-1`)).json.spec, { nodeName: 'node-a', containers: [{ name: 'main', image: 'nginx:1.27' }] });
    t.deepEqual(server.list('configmaps').map((object) => object.metadata?.name), ['a', 'b']);
  });
});
