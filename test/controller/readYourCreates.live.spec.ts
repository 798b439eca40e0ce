/**
 * Read-your-own-writes covers creates (issue 22): an object this process created is a write too,
 * so a run of its key waits until the primary cache holds the created uid instead of starting from
 * "not there". Over real HTTP against the in-process API server, with the watch lagging 300 ms.
 */
import test from 'ava';
import { Subject, type Subscription } from 'rxjs';
import { resourceClient } from '../../src/client/resourceClient.js';
import { createWriteRecord, writeRecord, type WriteRecord } from '../../src/client/writeRecord.js';
import { controller } from '../../src/controller/controller.js';
import type { ControllerOutcome } from '../../src/controller/reconcileObjects.js';
import { informerFactory } from '../../src/informer/informerFactory.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { ObjectRef } from '../../src/store/objectRef.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

const widgets = { group: 'demo.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true } as const;
const widgetKind = { apiVersion: 'demo.example.com/v1', kind: 'Widget' } as const;
const widget = (name: string) => ({ ...widgetKind, metadata: { name, namespace: 'n' }, spec: { value: '0' } });

/** Creates widget `b` behind 300 ms of watch lag and at once asks for a run of it; what each run of `b` saw. */
async function createThenRun(readYourWrites: boolean, record?: WriteRecord) {
  const server = await createTestApiServer({ resources: [widgets] });
  server.create('widgets.demo.example.com', widget('a'));
  const factory = informerFactory(server.kubeConfig);
  const client = resourceClient(server.kubeConfig, { fieldManager: 'create-test', ...(record ? { record } : {}) });
  const primary = factory.informer<KubeObject>({ ...widgetKind, namespace: 'n' });
  const triggers = new Subject<ObjectRef>();
  const sawB: (string | undefined)[] = [];
  const outcomes: ControllerOutcome[] = [];
  const subscription: Subscription = controller(primary, {
    triggers,
    readYourWrites: readYourWrites && record ? { record } : readYourWrites,
    reconcile: (w, { ref }) => void (ref.name === 'b' && sawB.push(w?.metadata?.uid)),
  }).subscribe((outcome) => outcomes.push(outcome));
  try {
    await until(() => outcomes.some((o) => o.key === 'n/a'), 'the initial run of a');
    server.lagWatches(300, 'widgets');
    const created = await client.create<KubeObject>(widget('b'));
    triggers.next({ namespace: 'n', name: 'b' });
    await until(() => sawB.includes(created.metadata!.uid!), 'a run of b that sees it');
    return { sawB, uid: created.metadata!.uid!, outcome: outcomes.find((o) => o.key === 'n/b') };
  } finally {
    subscription.unsubscribe();
    client.close();
    factory.dispose();
    await server.close();
  }
}

test('a run of an object this process just created waits until the cache holds it', async (t) => {
  const on = await createThenRun(true);
  t.true(on.sawB.length > 0 && on.sawB.every((uid) => uid === on.uid), `every run of b saw the created object (${JSON.stringify(on.sawB)})`);
  t.true((on.outcome?.freshness?.heldMs ?? 0) > 0, 'the run was held for the cache');
  const off = await createThenRun(false);
  t.is(off.sawB[0], undefined, 'without read-your-own-writes the first run starts from "not there"');
});

test('a write record given to both the client and the controller sees the client\'s writes (and the shared one does not)', async (t) => {
  const record = createWriteRecord();
  const on = await createThenRun(true, record);
  t.true(on.sawB.length > 0 && on.sawB.every((uid) => uid === on.uid), `every run of b saw the created object (${JSON.stringify(on.sawB)})`);
  t.true((on.outcome?.freshness?.heldMs ?? 0) > 0, 'the run was held for the cache');
  t.like(record.written(on.uid), { deleted: false }, 'the create is in the given record');
  t.is(writeRecord.written(on.uid), undefined, 'and not in the shared one');
});
