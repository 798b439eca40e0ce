/**
 * controller() over real HTTP: factory informers against the in-process API server, writes through
 * resourceClient. The virtual-time cases are in controller.spec.ts.
 */
import test from 'ava';
import { Subject, type Subscription } from 'rxjs';
import { controller } from '../../src/controller/controller.js';
import { byControllerOwner, controllerOf } from '../../src/store/ownerReferences.js';
import type { ControllerOutcome } from '../../src/controller/reconcileObjects.js';
import { createOrUpdate } from '../../src/controller/writes/createOrUpdate.js';
import { resourceClient } from '../../src/client/resourceClient.js';
import { ControllerError, KubeApiError } from '../../src/errors.js';
import { informerFactory } from '../../src/informer/informerFactory.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { Registry } from 'prom-client';
import { controllerMetrics } from '../../src/prometheus/index.js';
import { until } from '../helpers/until.js';

interface Widget extends KubeObject {
  readonly spec?: { readonly value?: string };
}
interface Cm extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}
const widgets = { group: 'demo.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, statusSubresource: true } as const;
const widget = (name: string, value: string) => ({ apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name, namespace: 'n' }, spec: { value } });

test('owns over HTTP: each widget gets its ConfigMap; a drifted or deleted child is put back; a spec change is followed; a deleted widget is reconciled with undefined', async (t) => {
  const server = await createTestApiServer({ resources: [widgets] });
  server.create('widgets.demo.example.com', widget('a', 'one'));
  const factory = informerFactory(server.kubeConfig);
  const client = resourceClient(server.kubeConfig, { fieldManager: 'widget-controller' });
  const primary = factory.informer<Widget>({ apiVersion: 'demo.example.com/v1', kind: 'Widget', namespace: 'n' });
  const children = factory.informer<Cm>({ version: 'v1', plural: 'configmaps', namespace: 'n' }, { indexers: { owner: byControllerOwner } });
  const outcomes: ControllerOutcome[] = [];
  const gone: string[] = [];
  const subscription: Subscription = controller(primary, {
    owns: [children],
    reconcile: async (w, { ref }) => {
      if (w === undefined) return void gone.push(`${ref.namespace}/${ref.name}`);
      const desired: Cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${w.metadata!.name}-cm`, namespace: 'n' }, data: { value: w.spec?.value ?? '' } };
      await createOrUpdate(client, children.snapshot.get('n', desired.metadata!.name!), desired, { owner: w });
    },
  }).subscribe((outcome) => outcomes.push(outcome));
  const childValue = () => (server.get('configmaps', 'n', 'a-cm') as Cm | undefined)?.data?.['value'];
  try {
    await until(() => childValue() === 'one', 'the child of a');
    t.like(controllerOf(server.get('configmaps', 'n', 'a-cm') as KubeObject), { kind: 'Widget', name: 'a', controller: true });
    server.patch('configmaps', 'n', 'a-cm', { data: { value: 'drifted' } });
    await until(() => childValue() === 'one', 'the drift put back');
    server.delete('configmaps', 'n', 'a-cm');
    await until(() => childValue() === 'one', 'the deleted child made again');
    server.patch('widgets.demo.example.com', 'n', 'a', { spec: { value: 'two' } });
    await until(() => childValue() === 'two', 'the spec change followed');
    server.delete('widgets.demo.example.com', 'n', 'a');
    await until(() => gone.includes('n/a'), 'the deleted widget reconciled with undefined');
    // A run may start before a drift or a deletion of its child reaches the cache: its write is then
    // a conflict (422 of the failed test, or 404), retried like any error from the fresher cache.
    const failures = outcomes.filter((o) => o.result !== 'success');
    t.true(failures.every((o) => o.result === 'error' && o.error instanceof ControllerError && o.error.reason === 'conflict'), JSON.stringify(failures));
  } finally {
    subscription.unsubscribe();
    client.close();
    factory.dispose();
    await server.close();
  }
});

test("an informer whose request is invalid (400 for a selector that does not parse) errors the controller at once with the server's answer, before anything runs", async (t) => {
  const server = await createTestApiServer({ resources: [widgets] });
  server.create('widgets.demo.example.com', widget('a', 'one'));
  const factory = informerFactory(server.kubeConfig);
  const ran: string[] = [];
  try {
    const primary = factory.informer<Widget>({ apiVersion: 'demo.example.com/v1', kind: 'Widget', namespace: 'n' });
    const broken = factory.informer<Cm>({ version: 'v1', plural: 'configmaps', namespace: 'n' }, { labelSelector: 'app in (' });
    const failed = new Promise<unknown>((resolve) => controller(primary, { watches: [{ informer: broken, map: () => [] }], reconcile: (w) => void (w && ran.push(w.metadata!.name!)) }).subscribe({ error: resolve }));
    const error = await failed;
    t.true(error instanceof KubeApiError, String(error));
    t.is((error as KubeApiError).code, 400);
    t.deepEqual(ran, [], 'nothing reconciled from a controller whose caches never synced');
  } finally {
    factory.dispose();
    await server.close();
  }
});

test('shutdownOn over HTTP: the running reconcile finishes, the output completes, the informers are let go', async (t) => {
  const server = await createTestApiServer({ resources: [widgets] });
  server.create('widgets.demo.example.com', widget('a', 'one'));
  const client = resourceClient(server.kubeConfig, { fieldManager: 'widget-controller' });
  const factory = informerFactory(server.kubeConfig);
  const primary = factory.informer<Widget>({ apiVersion: 'demo.example.com/v1', kind: 'Widget', namespace: 'n' });
  const stop = new Subject<void>();
  let release: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (release = resolve));
  const finished: string[] = [];
  let stopped = false;
  try {
    const done = new Promise<ControllerOutcome[]>((resolve, reject) => {
      const seen: ControllerOutcome[] = [];
      controller(primary, {
        shutdownOn: stop,
        reconcile: async (w, { signal }) => {
          release();
          // The write still goes out after the shutdown began: it is let finish.
          await until(() => stopped, 'the shutdown to begin');
          await client.patch({ apiVersion: 'demo.example.com/v1', kind: 'Widget', namespace: 'n', name: w!.metadata!.name! }, { metadata: { labels: { done: 'yes' } } }, { type: 'merge', signal });
          finished.push(w!.metadata!.name!);
        },
      }).subscribe({ next: (o) => seen.push(o), error: reject, complete: () => resolve(seen) });
    });
    await started;
    stopped = true;
    stop.next();
    const outcomes = await done;
    t.deepEqual(finished, ['a']);
    t.deepEqual(outcomes.map((o) => `${o.key} ${o.result}`), ['n/a success']);
    t.is((server.get('widgets.demo.example.com', 'n', 'a') as Widget).metadata?.labels?.['done'], 'yes');
  } finally {
    client.close();
    factory.dispose();
    await server.close();
  }
});

test('controllerMetrics over HTTP: a controller fed by real informers reports its reconciles and queue under controller-runtime names', async (t) => {
  const server = await createTestApiServer({ resources: [widgets] });
  for (const name of ['a', 'b', 'c']) server.create('widgets.demo.example.com', widget(name, name));
  const factory = informerFactory(server.kubeConfig);
  const primary = factory.informer<Widget>({ apiVersion: 'demo.example.com/v1', kind: 'Widget', namespace: 'n' });
  const registry = new Registry();
  const outcomes: ControllerOutcome[] = [];
  const subscription = controller(primary, {
    concurrency: 2,
    metrics: controllerMetrics(registry, { controller: 'widgets' }),
    reconcile: (w) => {
      if (w?.metadata?.name === 'c') throw new Error('c is broken');
    },
  }).subscribe((outcome) => outcomes.push(outcome));
  try {
    await until(() => outcomes.filter((o) => o.ref.name === 'c').length >= 2 && outcomes.some((o) => o.ref.name === 'b'), 'a, b reconciled and c retried');
    const text = await registry.metrics();
    const value = (line: string) => Number(new RegExp(`^${line.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    t.is(value('controller_runtime_reconcile_total{controller="widgets",result="success"}'), 2);
    t.true(value('controller_runtime_reconcile_errors_total{controller="widgets"}') >= 2);
    t.is(value('controller_runtime_max_concurrent_reconciles{controller="widgets"}'), 2);
    t.true(value('workqueue_adds_total{name="widgets",controller="widgets"}') >= 4, text);
    t.true(value('workqueue_retries_total{name="widgets",controller="widgets"}') >= 1);
    t.regex(text, /^workqueue_queue_duration_seconds_count\{name="widgets",controller="widgets"\} \d+$/m);
  } finally {
    subscription.unsubscribe();
    factory.dispose();
    await server.close();
  }
});
