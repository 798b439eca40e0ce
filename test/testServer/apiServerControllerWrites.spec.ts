/**
 * What a controller's writes need from the test API server, each answered as kube-apiserver 1.36
 * answers it (checked with curl against test/cluster, see the notes of each case).
 */
import test from 'ava';
import { call, openWatch, withServer } from './apiServerClient.js';

const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };

const widgets = { group: 'demo.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, statusSubresource: true } as const;

test('a failed JSON Patch test is a 422 with the generic message and no causes, as the real server words it', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', { metadata: { name: 'a', namespace: 'n' }, data: { k: 'v' } });
    const url = `${server.url}/api/v1/namespaces/n/configmaps/a`;
    const failed = await call(url, { method: 'PATCH', headers: jsonPatch, body: [{ op: 'test', path: '/metadata/resourceVersion', value: '1' }, { op: 'replace', path: '/data/k', value: 'w' }] });
    t.is(failed.status, 422);
    t.like(failed.json, { kind: 'Status', reason: 'Invalid', message: 'the server rejected our request due to an error in our request', details: {} });
    t.is(server.get('configmaps', 'n', 'a')!['data'] && (server.get('configmaps', 'n', 'a')!['data'] as Record<string, string>)['k'], 'v', 'nothing was written');
  });
});

test('a JSON Patch test of a missing member against null passes (json-patch v4), a missing parent does not', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', { metadata: { name: 'a', namespace: 'n' } });
    const url = `${server.url}/api/v1/namespaces/n/configmaps/a`;
    const added = await call(url, { method: 'PATCH', headers: jsonPatch, body: [{ op: 'test', path: '/metadata/finalizers', value: null }, { op: 'add', path: '/metadata/finalizers', value: ['x/y'] }] });
    t.is(added.status, 200, added.text);
    t.deepEqual(added.json.metadata.finalizers, ['x/y']);
    const deep = await call(url, { method: 'PATCH', headers: jsonPatch, body: [{ op: 'test', path: '/spec/missing', value: null }] });
    t.is(deep.status, 422);
  });
});

test('while an object is being deleted, writes keep its deletionTimestamp and cannot add finalizers', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', { metadata: { name: 'f', namespace: 'n', finalizers: ['x/y'] }, data: { k: 'v' } });
    const url = `${server.url}/api/v1/namespaces/n/configmaps/f`;
    const deleting = await call(url, { method: 'DELETE' });
    const stamp = deleting.json.metadata.deletionTimestamp;
    t.truthy(stamp);
    const dropped = await call(url, { method: 'PATCH', headers: mergePatch, body: { metadata: { deletionTimestamp: null }, data: { k: 'w' } } });
    t.is(dropped.status, 200);
    t.is(dropped.json.metadata.deletionTimestamp, stamp, 'the server owns deletionTimestamp');
    const put = await call(url, { method: 'PUT', body: { metadata: { name: 'f', namespace: 'n', finalizers: ['x/y'] }, data: { k: 'x' } } });
    t.is(put.json.metadata.deletionTimestamp, stamp);
    const more = await call(url, { method: 'PATCH', headers: jsonPatch, body: [{ op: 'add', path: '/metadata/finalizers/-', value: 'a/b' }] });
    t.is(more.status, 422);
    t.regex(more.json.message, /no new finalizers can be added if the object is being deleted/);
    const removed = await call(url, { method: 'PATCH', headers: jsonPatch, body: [{ op: 'test', path: '/metadata/finalizers/0', value: 'x/y' }, { op: 'remove', path: '/metadata/finalizers/0' }] });
    t.is(removed.status, 200);
    t.is(server.get('configmaps', 'n', 'f'), undefined, 'the last finalizer gone, the object is');
  });
});

test('a status subresource (statusSubresource: true): writes of the object leave status alone, /status writes change only status', async (t) => {
  await withServer(
    async (server) => {
      const base = `${server.url}/apis/demo.example.com/v1/namespaces/n/widgets`;
      const created = await call(base, { method: 'POST', body: { apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 }, status: { phase: 'ignored' } } });
      t.is(created.status, 201);
      t.is(created.json.status, undefined, 'a create does not set status either');
      const status = await call(`${base}/w/status`, { method: 'PATCH', headers: mergePatch, body: { status: { phase: 'Ready' }, spec: { size: 9 } } });
      t.is(status.status, 200, status.text);
      t.deepEqual(status.json.status, { phase: 'Ready' });
      t.deepEqual(status.json.spec, { size: 1 });
      t.is(status.json.metadata.generation, 1, 'a status write does not bump generation');
      const spec = await call(`${base}/w`, { method: 'PATCH', headers: mergePatch, body: { spec: { size: 2 }, status: { phase: 'Lost' } } });
      t.deepEqual(spec.json.spec, { size: 2 });
      t.deepEqual(spec.json.status, { phase: 'Ready' });
      t.is(spec.json.metadata.generation, 2);
      const put = await call(`${base}/w`, { method: 'PUT', body: { ...spec.json, status: undefined } });
      t.deepEqual(put.json.status, { phase: 'Ready' });
      const jsonStatus = await call(`${base}/w/status`, { method: 'PATCH', headers: jsonPatch, body: [{ op: 'test', path: '/metadata/resourceVersion', value: put.json.metadata.resourceVersion }, { op: 'replace', path: '/status/phase', value: 'Done' }] });
      t.is(jsonStatus.json.status.phase, 'Done');
      const discovery = await call(`${server.url}/apis/demo.example.com/v1`);
      t.deepEqual(
        discovery.json.resources.map((r: { name: string }) => r.name),
        ['widgets', 'widgets/status'],
      );
    },
    { resources: [widgets] },
  );
});

test('events.k8s.io/v1 Events are served: create, then a merge patch of the series', async (t) => {
  await withServer(async (server) => {
    const url = `${server.url}/apis/events.k8s.io/v1/namespaces/n/events`;
    const watch = await openWatch(`${url}?watch=true&resourceVersion=${server.resourceVersion}`);
    const event = {
      metadata: { name: 'cm.1' },
      eventTime: '2026-12-01T09:00:00.000000Z',
      reportingController: 'demo.example.com/ctl',
      reportingInstance: 'pod-1',
      action: 'Reconcile',
      reason: 'Created',
      type: 'Normal',
      regarding: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'cm' },
    };
    const created = await call(url, { method: 'POST', body: event });
    t.is(created.status, 201, created.text);
    t.is(created.json.apiVersion, 'events.k8s.io/v1');
    const patched = await call(`${url}/cm.1`, { method: 'PATCH', headers: mergePatch, body: { series: { count: 2, lastObservedTime: '2026-12-01T09:01:00.000000Z' } } });
    t.deepEqual(patched.json.series, { count: 2, lastObservedTime: '2026-12-01T09:01:00.000000Z' });
    t.deepEqual((await watch.waitFor(2)).map((e) => e.type), ['ADDED', 'MODIFIED']);
    watch.close();
  });
});

test('a POST carrying metadata.resourceVersion is refused with the real server\'s 500 (the control API ignores it)', async (t) => {
  await withServer(async (server) => {
    const refused = await call(`${server.url}/api/v1/namespaces/n/configmaps`, { method: 'POST', body: { metadata: { name: 'a', resourceVersion: '12' } } });
    t.is(refused.status, 500);
    t.like(refused.json, { kind: 'Status', code: 500, message: 'resourceVersion should not be set on objects to be created' });
    t.is(server.get('configmaps', 'n', 'a'), undefined);
    t.truthy(server.create('configmaps', { metadata: { name: 'a', namespace: 'n', resourceVersion: '12' } }));
  });
});

const apply = { 'Content-Type': 'application/apply-patch+yaml' };

test('server-side apply: creates, sets what it applies, removes what it applied before and leaves out, leaves other writers\' fields alone', async (t) => {
  await withServer(async (server) => {
    const url = `${server.url}/api/v1/namespaces/n/configmaps/a?fieldManager=ctl`;
    const created = await call(url, { method: 'PATCH', headers: apply, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { app: 'x' } }, data: { k: 'v', old: '1' } } });
    t.is(created.status, 200, created.text);
    t.deepEqual(created.json.data, { k: 'v', old: '1' });
    server.patch('configmaps', 'n', 'a', { data: { theirs: 'yes' } });
    const again = await call(url, { method: 'PATCH', headers: apply, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { app: 'y' } }, data: { k: 'w' } } });
    t.deepEqual(again.json.data, { k: 'w', theirs: 'yes' });
    t.deepEqual(again.json.metadata.labels, { app: 'y' });
    const missing = await call(`${server.url}/api/v1/namespaces/n/configmaps/a`, { method: 'PATCH', headers: apply, body: { metadata: { name: 'a' } } });
    t.is(missing.status, 422);
    t.regex(missing.json.message, /fieldManager: Required value: is required for apply patch/);
  });
});

test('server-side apply: a field another manager applied with another value is a 409 FieldManagerConflict; force takes it over', async (t) => {
  await withServer(async (server) => {
    const url = (manager: string, force = false) => `${server.url}/api/v1/namespaces/n/configmaps/a?fieldManager=${manager}${force ? '&force=true' : ''}`;
    const body = (value: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { shared: value } });
    await call(url('one'), { method: 'PATCH', headers: apply, body: body('1') });
    t.is((await call(url('two'), { method: 'PATCH', headers: apply, body: body('1') })).status, 200, 'the same value is shared ownership, no conflict');
    const conflict = await call(url('three'), { method: 'PATCH', headers: apply, body: body('3') });
    t.is(conflict.status, 409);
    t.like(conflict.json, { reason: 'Conflict', details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.data.shared' }, { reason: 'FieldManagerConflict', message: 'conflict with "two"', field: '.data.shared' }] } });
    t.regex(conflict.json.message, /^Apply failed with 2 conflicts:/);
    const forced = await call(url('three', true), { method: 'PATCH', headers: apply, body: body('3') });
    t.is(forced.json.data.shared, '3');
    t.is((await call(url('one'), { method: 'PATCH', headers: apply, body: body('1') })).status, 409, 'now "three" owns it');
  });
});

test('server-side apply: owner references merge by uid; the status subresource applies status only', async (t) => {
  await withServer(
    async (server) => {
      const base = `${server.url}/apis/demo.example.com/v1/namespaces/n/widgets/w`;
      const ref = (uid: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: `o-${uid}`, uid });
      await call(`${base}?fieldManager=a`, { method: 'PATCH', headers: apply, body: { apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'w', ownerReferences: [ref('1')] }, spec: { size: 1 }, status: { phase: 'ignored' } } });
      const both = await call(`${base}?fieldManager=b`, { method: 'PATCH', headers: apply, body: { apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'w', ownerReferences: [ref('2')] } } });
      t.deepEqual(both.json.metadata.ownerReferences.map((r: { uid: string }) => r.uid), ['1', '2']);
      t.is(both.json.status, undefined);
      const status = await call(`${base}/status?fieldManager=a`, { method: 'PATCH', headers: apply, body: { apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 9 }, status: { phase: 'Ready' } } });
      t.deepEqual([status.json.spec, status.json.status], [{ size: 1 }, { phase: 'Ready' }]);
    },
    { resources: [widgets] },
  );
});
