/**
 * finalizer(): the four states of kube-rs's finalizer, the exact patches (a recording client), and
 * their effect and races against the in-process API server.
 */
import test from 'ava';
import { finalizer } from '../../../src/controller/writes/finalizer.js';
import { resourceClient, type ResourceClient, type ResourceClientConfig } from '../../../src/client/resourceClient.js';
import { createWriteRecord, writeRecord } from '../../../src/client/writeRecord.js';
import { recordingClient, type RecordedCall } from '../recordingClient.js';
import { ControllerError } from '../../../src/errors.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';
import { createTestApiServer, type TestApiServer } from '../../../src/testServer/index.js';

const name = 'demo.example.com/cleanup';
const object = (metadata: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'n', resourceVersion: '5', ...metadata } });

/** The patches a finalizer sends, as `[target, operations, type]`. */
function patchesOf(calls: readonly RecordedCall[]): unknown[][] {
  return calls.filter((c) => c.verb === 'patch').map((c) => [c.target, c.body, c.type]);
}

const handlers = (log: string[]) => ({
  apply: (o: KubeObject) => (log.push(`apply ${o.metadata?.name}`), { requeueAfterMs: 60_000 }),
  cleanup: (o: KubeObject) => (log.push(`cleanup ${o.metadata?.name}`), { requeueAfterMs: 1 }),
});
const target = { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', namespace: 'n' };

test('absent, not deleting: adds the finalizer guarded by the list read (null when there is none), and awaits the change', async (t) => {
  const { client, calls } = recordingClient();
  const log: string[] = [];
  t.deepEqual(await finalizer(client, name, object(), handlers(log)), {});
  t.deepEqual(await finalizer(client, name, object({ finalizers: ['other/one'] }), handlers(log)), {});
  t.deepEqual(patchesOf(calls), [
    [target, [{ op: 'test', path: '/metadata/finalizers', value: null }, { op: 'add', path: '/metadata/finalizers', value: [name] }], 'json'],
    [target, [{ op: 'test', path: '/metadata/finalizers', value: ['other/one'] }, { op: 'add', path: '/metadata/finalizers/-', value: name }], 'json'],
  ]);
  t.deepEqual(log, [], 'apply waits for the next run');
});

test('present, not deleting: apply, and nothing is written', async (t) => {
  const { client, calls } = recordingClient();
  const log: string[] = [];
  t.deepEqual(await finalizer(client, name, object({ finalizers: [name] }), handlers(log)), { requeueAfterMs: 60_000 });
  t.deepEqual(log, ['apply a']);
  t.deepEqual(patchesOf(calls), []);
});

test('present, deleting: cleanup, then the finalizer at its index is removed with a test of that entry', async (t) => {
  const { client, calls, state } = recordingClient();
  const log: string[] = [];
  const doomed = object({ finalizers: ['other/one', name], deletionTimestamp: '2026-12-01T00:00:00Z' });
  state.live = doomed;
  const result = await finalizer(client, name, doomed, handlers(log));
  t.deepEqual(result, { requeueAfterMs: 1 });
  t.deepEqual(log, ['cleanup a']);
  t.deepEqual(patchesOf(calls), [[target, [{ op: 'test', path: '/metadata/finalizers/1', value: name }, { op: 'remove', path: '/metadata/finalizers/1' }], 'json']]);
  t.deepEqual(calls.map((c) => c.verb), ['get', 'patch'], 'read live before the cleanup');
});

test('a failing cleanup keeps the finalizer: nothing is written and the error comes out', async (t) => {
  const { client, calls, state } = recordingClient();
  state.live = object({ finalizers: [name], deletionTimestamp: '2026-12-01T00:00:00Z' });
  await t.throwsAsync(
    finalizer(client, name, state.live, {
      apply: () => undefined,
      cleanup: () => Promise.reject(new Error('external system down')),
    }),
    { message: 'external system down' },
  );
  t.deepEqual(patchesOf(calls), []);
});

test('present, deleting, the removal failed after a cleanup that succeeded: the next run retries the removal alone', async (t) => {
  const { client, calls, state } = recordingClient();
  const log: string[] = [];
  const doomed = object({ uid: 'u-removal-fails', finalizers: [name], deletionTimestamp: '2026-12-01T00:00:00Z' });
  state.live = doomed;
  state.failures = 1;
  await t.throwsAsync(finalizer(client, name, doomed, handlers(log)), { message: 'boom' });
  t.deepEqual(await finalizer(client, name, doomed, handlers(log)), {});
  t.deepEqual(log, ['cleanup a'], 'cleaned up once');
  t.is(patchesOf(calls).length, 1, 'the removal written on the second run');
});

test('absent, deleting: nothing to do', async (t) => {
  const { client, calls } = recordingClient();
  const log: string[] = [];
  t.deepEqual(await finalizer(client, name, object({ finalizers: ['other/one'], deletionTimestamp: '2026-12-01T00:00:00Z' }), handlers(log)), {});
  t.deepEqual([log, patchesOf(calls)], [[], []]);
});

test('bad arguments are TypeErrors', async (t) => {
  const { client } = recordingClient();
  await t.throwsAsync(finalizer(client, 'unqualified', object(), handlers([])), { instanceOf: TypeError, message: /qualified/ });
  await t.throwsAsync(finalizer(client, name, object(), { apply: () => 1 } as never), { instanceOf: TypeError, message: /apply and cleanup/ });
});

test('against the API server: add, apply, delete, cleanup, gone; a stale list is a conflict and never a duplicate', async (t) => {
  const server = await createTestApiServer();
  const client = resourceClient(server.kubeConfig);
  try {
    const log: string[] = [];
    server.create('configmaps', { metadata: { name: 'a', namespace: 'n' } });
    const read = () => ({ apiVersion: 'v1', kind: 'ConfigMap', ...server.get('configmaps', 'n', 'a')! }) as KubeObject;
    const stale = read();
    await finalizer(client, name, stale, handlers(log));
    t.deepEqual(read().metadata?.finalizers, [name]);
    const again = await t.throwsAsync(finalizer(client, name, stale, handlers(log)), { instanceOf: ControllerError });
    t.is(again?.reason, 'conflict', 'the list changed since it was read');
    t.deepEqual(read().metadata?.finalizers, [name], 'never added twice');
    await finalizer(client, name, read(), handlers(log));
    server.patch('configmaps', 'n', 'a', { metadata: { finalizers: [name, 'other/two'] } });
    server.delete('configmaps', 'n', 'a');
    t.truthy(read().metadata?.deletionTimestamp, 'held by the finalizers');
    const doomed = read();
    server.patch('configmaps', 'n', 'a', { data: { unrelated: 'write' } });
    await finalizer(client, name, doomed, handlers(log));
    t.deepEqual(read().metadata?.finalizers, ['other/two'], 'only ours removed, another writer notwithstanding');
    t.deepEqual(log, ['apply a', 'cleanup a']);
    server.patch('configmaps', 'n', 'a', { metadata: { finalizers: null } });
    t.is(server.get('configmaps', 'n', 'a'), undefined);
  } finally {
    client.close();
    await server.close();
  }
});

/** A ConfigMap n/a carrying the finalizer (and `others`), deleted (so held by it), on an in-process API server; `read` gives its current version. */
async function withDeletingConfigMap(run: (server: TestApiServer, client: ResourceClient, read: () => KubeObject) => Promise<void>, others: string[] = [], config: ResourceClientConfig = {}): Promise<void> {
  const server = await createTestApiServer();
  const client = resourceClient(server.kubeConfig, config);
  try {
    server.create('configmaps', { metadata: { name: 'a', namespace: 'n', finalizers: [name, ...others] } });
    server.delete('configmaps', 'n', 'a');
    await run(server, client, () => ({ apiVersion: 'v1', kind: 'ConfigMap', ...server.get('configmaps', 'n', 'a')! }) as KubeObject);
  } finally {
    client.close();
    await server.close();
  }
}

test('against the API server: a cache still showing an object this process finalized does not run its cleanup again (the soak saw it once read-your-own-writes stopped waiting)', (t) =>
  withDeletingConfigMap(async (server, client, read) => {
    const log: string[] = [];
    const doomed = read();
    t.deepEqual(await finalizer(client, name, doomed, handlers(log)), { requeueAfterMs: 1 });
    t.is(server.get('configmaps', 'n', 'a'), undefined, 'finalized: gone');
    t.deepEqual(await finalizer(client, name, doomed, handlers(log)), {}, 'the same version again, as a cache behind the removal hands it');
    t.deepEqual(log, ['cleanup a'], 'cleaned up once');
  }));

test('apply and cleanup get the abort signal of the run, so their own writes stop when the run is stopped (a leader that lost its lease)', async (t) => {
  const { client, state } = recordingClient();
  state.live = object({ finalizers: [name], deletionTimestamp: '2026-01-01T00:00:00Z' });
  const abort = new AbortController();
  const seen: Array<AbortSignal | undefined> = [];
  const watching = { apply: (_: KubeObject, context?: { signal?: AbortSignal }) => (seen.push(context?.signal), {}), cleanup: (_: KubeObject, context?: { signal?: AbortSignal }) => (seen.push(context?.signal), {}) };
  await finalizer(client, name, object({ finalizers: [name] }), watching, { signal: abort.signal });
  await finalizer(client, name, object({ finalizers: [name], deletionTimestamp: '2026-01-01T00:00:00Z' }), watching, { signal: abort.signal });
  t.deepEqual(seen, [abort.signal, abort.signal]);
});

test('a run stopped while its live read was in flight starts no cleanup and writes nothing (the soak saw 4 cleanups start milliseconds after their leader lost the lease, each run again by the next leader)', async (t) => {
  const { client, calls, state } = recordingClient();
  const doomed = object({ finalizers: [name], deletionTimestamp: '2026-12-01T00:00:00Z' });
  state.live = doomed;
  const run = new AbortController();
  // The answer arrives after the term ended: the GET itself was not cut short.
  const lateAnswer: ResourceClient = {
    ...client,
    async get<T extends KubeObject>(target: Parameters<ResourceClient['get']>[0], options?: Parameters<ResourceClient['get']>[1]): Promise<T | undefined> {
      const live = await client.get<T>(target, options);
      run.abort(new Error('the lease was lost'));
      return live;
    },
  };
  const log: string[] = [];
  const error = await t.throwsAsync(finalizer(lateAnswer, name, doomed, handlers(log), { signal: run.signal }));
  t.is(error?.message, 'the lease was lost', 'the run ends with its abort reason');
  t.deepEqual(log, [], 'no cleanup started after the stop');
  t.deepEqual(calls.map((c) => c.verb), ['get'], 'and no removal written');
});

test('against the API server: cleanup never runs from a version older than this process\'s own last write to the object; the newer one is cleaned up', (t) =>
  withDeletingConfigMap(async (server, client, read) => {
    const log: string[] = [];
    const before = read();
    // This process writes the deleting object (a status its cleanup keeps, say); the cache still hands out the version before.
    await client.patch({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'a' }, { metadata: { annotations: { progress: 'half' } } }, { type: 'merge' });
    t.deepEqual(await finalizer(client, name, before, handlers(log)), {}, 'left alone: the cache is behind this process');
    t.deepEqual(log, [], 'no cleanup from the older version');
    t.deepEqual(read().metadata?.finalizers, [name], 'and the finalizer stays');
    t.deepEqual(await finalizer(client, name, read(), handlers(log)), { requeueAfterMs: 1 }, 'the version this process wrote is cleaned up');
    t.deepEqual(log, ['cleanup a']);
    t.is(server.get('configmaps', 'n', 'a'), undefined, 'finalized: gone');
  }));

test('against the API server, with a client given its own write record: the finalizer reads that record, not the shared one', (t) => {
  const record = createWriteRecord();
  return withDeletingConfigMap(
    async (server, client, read) => {
      const log: string[] = [];
      const before = read();
      await client.patch({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'a' }, { metadata: { annotations: { progress: 'half' } } }, { type: 'merge' });
      t.like(record.written(before.metadata!.uid!), { deleted: false }, 'the write is in the client\'s record');
      t.is(writeRecord.written(before.metadata!.uid!), undefined, 'and not in the shared one');
      t.deepEqual(await finalizer(client, name, before, handlers(log)), {}, 'left alone: the cache is behind this client');
      t.deepEqual(log, [], 'no cleanup from the older version');
      t.deepEqual(await finalizer(client, name, read(), handlers(log)), { requeueAfterMs: 1 }, 'the version it wrote is cleaned up');
      t.is(server.get('configmaps', 'n', 'a'), undefined, 'finalized: gone');
    },
    [],
    { record },
  );
});

test('resourceVersions the record cannot order (not integers), other finalizers left: a version from before the removal gets the removal again, never a second cleanup', async (t) => {
  const recording = recordingClient();
  const { client, calls } = recording;
  const log: string[] = [];
  const metadata = { uid: 'u-opaque-versions', deletionTimestamp: '2026-12-01T00:00:00Z' };
  const doomed = object({ ...metadata, resourceVersion: 'opaque-1', finalizers: [name, 'other/one'] });
  const { state } = recording;
  state.live = doomed;
  t.deepEqual(await finalizer(client, name, doomed, handlers(log)), { requeueAfterMs: 1 });
  // What the server answered to the removal, as resourceClient() would have noted it.
  writeRecord.noteResponse('patch', { ...object({ ...metadata, resourceVersion: 'opaque-2', finalizers: ['other/one'] }) });
  t.deepEqual(await finalizer(client, name, doomed, handlers(log)), {});
  t.deepEqual(log, ['cleanup a'], 'cleaned up once');
  t.is(patchesOf(calls).length, 2, 'the removal tried again (against a server its test fails: a conflict, retried from a fresh read)');
});

test('against the API server: a version cached from before another process finished the cleanup and removed the finalizer is not cleaned up again (the soak saw 98 such second cleanups by a new leader whose cache was behind the last one)', (t) =>
  withDeletingConfigMap(async (server, client, read) => {
    const log: string[] = [];
    const cached = read();
    // Another replica (its writes are not this process's) cleaned up and removed the finalizer: the object is gone.
    server.update('configmaps', { ...server.get('configmaps', 'n', 'a')!, metadata: { ...server.get('configmaps', 'n', 'a')!.metadata, finalizers: [] } });
    t.is(server.get('configmaps', 'n', 'a'), undefined, 'finalized by the other replica: gone');
    t.deepEqual(await finalizer(client, name, cached, handlers(log)), {}, 'nothing to do');
    t.deepEqual(log, [], 'no second cleanup from the cached version');
  }));

test('against the API server: another process removed this finalizer but the object stays (another finalizer holds it): no cleanup from the cached version', (t) =>
  withDeletingConfigMap(
    async (server, client, read) => {
      const cached = read();
      server.update('configmaps', { ...server.get('configmaps', 'n', 'a')!, metadata: { ...server.get('configmaps', 'n', 'a')!.metadata, finalizers: ['other/one'] } });
      const log: string[] = [];
      t.deepEqual(await finalizer(client, name, cached, handlers(log)), {});
      t.deepEqual(log, []);
      t.deepEqual(server.get('configmaps', 'n', 'a')?.metadata?.finalizers, ['other/one'], 'nothing written');
    },
    ['other/one'],
  ));
