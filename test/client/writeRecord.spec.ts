import test from 'ava';
import { createWriteRecord, writeRecordLimits } from '../../src/client/writeRecord.js';
import { compareResourceVersions } from '../../src/store/compareResourceVersions.js';
import type { KubeObject } from '../../src/store/kubeObject.js';

const object = (rv: string, meta: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'n', uid: 'u1', resourceVersion: rv, ...meta } });

test('writeRecord: a write keeps the newest resourceVersion per uid; deletes and finalizing writes count as deleted', (t) => {
  let now = 1_000;
  const record = createWriteRecord(() => now);
  record.noteResponse('patch', object('12'));
  t.like(record.written('u1'), { resourceVersion: '12', deleted: false });
  record.noteResponse('update', object('9')); // answered out of order: the newer stays
  t.like(record.written('u1'), { resourceVersion: '12', deleted: false });
  record.noteResponse('delete', object('13', { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['x/y'] }));
  t.like(record.written('u1'), { resourceVersion: '13', deleted: false }, 'a delete held by a finalizer is a write');
  record.noteResponse('patch', object('14', { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [] }));
  t.like(record.written('u1'), { deleted: true }, 'removing the last finalizer of a deleting object deletes it');
  record.noteResponse('delete', { kind: 'Status', status: 'Success', details: { uid: 'u2' } });
  t.like(record.written('u2'), { deleted: true });
  record.noteResponse('create', { kind: 'Status' });
  record.noteResponse('create', 'not an object');
  t.is(record.written('u3'), undefined);
  now += writeRecordLimits.retainMs + 1;
  t.is(record.written('u1'), undefined, 'forgotten after the retention');
});

test('compareResourceVersions: integers of any length in order; anything else cannot be ordered', (t) => {
  t.true(compareResourceVersions('9', '10')! < 0);
  t.true(compareResourceVersions('18446744073709551615', '18446744073709551614')! > 0);
  t.is(compareResourceVersions('42', '42'), 0);
  t.is(compareResourceVersions('abc', '42'), undefined);
  t.is(compareResourceVersions('042', '42'), undefined);
  t.is(compareResourceVersions('', '1'), undefined);
});

test('every resourceClient write is noted in the process record by uid, whatever KubeConfig it went through; dry runs are not', async (t) => {
  const { createTestApiServer } = await import('../../src/testServer/index.js');
  const { resourceClient } = await import('../../src/client/resourceClient.js');
  const { writeRecord } = await import('../../src/client/writeRecord.js');
  const { KubeConfig } = await import('@kubernetes/client-node');
  const server = await createTestApiServer();
  const other = new KubeConfig();
  other.loadFromString(server.kubeConfigText()); // a second config object for the same cluster
  const a = resourceClient(server.kubeConfig, { fieldManager: 'a' });
  const b = resourceClient(other, { fieldManager: 'b' });
  try {
    const created = await a.create<KubeObject & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n' }, data: { v: '1' } });
    const uid = created.metadata!.uid!;
    t.like(writeRecord.written(uid), { resourceVersion: created.metadata!.resourceVersion, deleted: false });
    const edited = await b.edit(created, (d) => void (d.data = { v: '2' }));
    t.like(writeRecord.written(uid), { resourceVersion: edited.metadata!.resourceVersion, deleted: false });
    await b.patch({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'x' }, { data: { v: '3' } }, { type: 'merge', dryRun: true });
    t.like(writeRecord.written(uid), { resourceVersion: edited.metadata!.resourceVersion }, 'a dry run is not a write');
    await a.delete(edited);
    t.like(writeRecord.written(uid), { deleted: true });
  } finally {
    a.close();
    b.close();
    await server.close();
  }
});

test('a client given its own record notes its writes there, and not in the shared one', async (t) => {
  const { createTestApiServer } = await import('../../src/testServer/index.js');
  const { resourceClient } = await import('../../src/client/resourceClient.js');
  const { writeRecord } = await import('../../src/client/writeRecord.js');
  const server = await createTestApiServer();
  const record = createWriteRecord();
  const client = resourceClient(server.kubeConfig, { fieldManager: 'own', record });
  try {
    const created = await client.create<KubeObject & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n' }, data: { v: '1' } });
    const uid = created.metadata!.uid!;
    t.like(record.written(uid), { resourceVersion: created.metadata!.resourceVersion, deleted: false });
    t.is(writeRecord.written(uid), undefined, 'the shared record is not told');
    await client.delete(created);
    t.like(record.written(uid), { deleted: true });
  } finally {
    client.close();
    await server.close();
  }
});

test('a write whose object says "dryRun" (a key, a value) is a write; a dry run of any verb is not', async (t) => {
  const { createTestApiServer } = await import('../../src/testServer/index.js');
  const { resourceClient } = await import('../../src/client/resourceClient.js');
  const { writeRecord: record } = await import('../../src/client/writeRecord.js');
  const server = await createTestApiServer();
  const client = resourceClient(server.kubeConfig, { fieldManager: 'dry' });
  const cm = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'n' }, data });
  try {
    const created = await client.create<KubeObject>(cm('x', { dryRun: 'true', mode: 'dryRun' }));
    const uid = created.metadata!.uid!;
    t.like(record.written(uid), { resourceVersion: created.metadata!.resourceVersion, deleted: false }, 'a create whose data says dryRun');
    const patched = await client.patch<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'x' }, { data: { dryRun: 'false' } }, { type: 'merge' });
    t.like(record.written(uid), { resourceVersion: patched.metadata!.resourceVersion }, 'a merge patch whose body says dryRun');
    const replaced = await client.replace<KubeObject>({ ...patched, data: { note: 'use "dryRun" to try' } } as KubeObject);
    t.like(record.written(uid), { resourceVersion: replaced.metadata!.resourceVersion }, 'a replace whose body says "dryRun"');
    const applied = await client.apply<KubeObject>(cm('x', { dryRun: 'again' }));
    t.like(record.written(uid), { resourceVersion: applied.metadata!.resourceVersion }, 'an apply whose body says dryRun');
    const edited = await client.edit(applied as KubeObject & { data?: Record<string, string> }, (d) => void (d.data = { dryRun: 'edited' }));
    t.like(record.written(uid), { resourceVersion: edited.metadata!.resourceVersion }, 'an edit whose operations say dryRun');
    // Dry runs of every verb leave the record as it is. (The in-process server does not know
    // dryRun and stores them; what counts here is that the client does not tell its record.)
    const other = await client.create<KubeObject>(cm('y', { v: '1' }), { dryRun: true });
    t.is(record.written(other.metadata!.uid!), undefined, 'a dry-run create');
    await client.delete(other, { dryRun: true });
    t.is(record.written(other.metadata!.uid!), undefined, 'a dry-run delete');
    await client.edit(edited as KubeObject & { data?: Record<string, string> }, (d) => void (d.data = { v: '2' }), { dryRun: true });
    await client.patch({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'x' }, { data: { v: '3' } }, { type: 'merge', dryRun: true });
    await client.replace({ ...edited, metadata: { ...edited.metadata, resourceVersion: undefined }, data: { v: '4' } } as KubeObject, { dryRun: true });
    t.like(record.written(uid), { resourceVersion: edited.metadata!.resourceVersion, deleted: false }, 'no dry run is a write');
    await client.delete(edited);
    t.like(record.written(uid), { deleted: true });
  } finally {
    client.close();
    await server.close();
  }
});

test('writeRecord.writtenAt: the uid last written under a name, by type and namespace; forgotten with its uid', (t) => {
  let now = 0;
  const record = createWriteRecord(() => now);
  const cm = (uid: string, rv: string, namespace = 'n') => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { uid, name: 'x', namespace, resourceVersion: rv } });
  record.noteResponse('create', cm('u1', '5'));
  t.like(record.writtenAt({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'x' }), { uid: 'u1', resourceVersion: '5', deleted: false });
  t.is(record.writtenAt({ apiVersion: 'v1', kind: 'Secret', namespace: 'n', name: 'x' }), undefined, 'another kind');
  t.is(record.writtenAt({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'm', name: 'x' }), undefined, 'another namespace');
  record.noteResponse('delete', { kind: 'Status', details: { uid: 'u1' } });
  t.like(record.writtenAt({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'x' }), { uid: 'u1', deleted: true });
  record.noteResponse('create', cm('u2', '9'));
  t.like(record.writtenAt({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'x' }), { uid: 'u2', resourceVersion: '9' }, 'created again: the new uid');
  now += writeRecordLimits.retainMs + 1;
  t.is(record.writtenAt({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'x' }), undefined, 'forgotten after the retention');
});

test('resourceClient refuses a record that is not a WriteRecord, in the options wording', async (t) => {
  const { resourceClient } = await import('../../src/client/resourceClient.js');
  const { KubeConfig } = await import('@kubernetes/client-node');
  t.throws(() => resourceClient(new KubeConfig(), { record: {} as never }), { instanceOf: TypeError, message: '[resourceClient] record must be a WriteRecord (from createWriteRecord()), got an object' });
});
