import test from 'ava';
import { Registry } from 'prom-client';
import { concat, filter, from, lastValueFrom, NEVER, take, tap, toArray } from 'rxjs';
import { controller } from '../../src/controller/controller.js';
import { reconcile } from '../../src/controller/reconcile.js';
import { registerInformerMetrics } from '../../src/prometheus/index.js';
import { informerFactory } from '../../src/informer/informerFactory.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import { stripManagedFields } from '../../src/sources/stripManagedFields.js';
import { byNamespace } from '../../src/store/indexFunc.js';
import { NotSyncedError } from '../../src/errors.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

const fast = { backoff: { initialDelay: 10, maxDelay: 40 } } as const;
const configMaps = { version: 'v1', plural: 'configmaps' } as const;

async function withServer(run: (server: TestApiServer) => Promise<void>): Promise<void> {
  const server = await createTestApiServer();
  try {
    for (let i = 0; i < 5; i++) server.create('configmaps', { metadata: { name: `cm-${i}`, namespace: i % 2 ? 'odd' : 'even', labels: { parity: i % 2 ? 'odd' : 'even' } } });
    server.create('pods', { metadata: { name: 'p', namespace: 'even' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    await run(server);
  } finally {
    await server.close();
  }
}


test('one shared informer per identity; different selectors, namespaces or transforms are different informers', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      const a = factory.informer(configMaps, { indexers: { namespace: byNamespace } });
      t.is(factory.informer(configMaps), a, 'same identity, no indexers asked: the same informer');
      t.is(factory.informer(configMaps, { indexers: { namespace: byNamespace } }), a);
      t.not(factory.informer(configMaps, { labelSelector: 'parity=odd' }), a);
      t.not(factory.informer({ ...configMaps, namespace: 'odd' }), a);
      t.not(factory.informer(configMaps, { transform: stripManagedFields }), a);
      t.is(factory.informer(configMaps, { transform: stripManagedFields }), factory.informer(configMaps, { transform: stripManagedFields }));
      t.not(factory.informer(configMaps, { metadataOnly: true }), a);
      const error = t.throws(() => factory.informer(configMaps, { indexers: { parity: () => [] } }), { instanceOf: TypeError });
      t.regex(error!.message, /created without the index\(es\) parity/);
      t.is(factory.informers.length, 5);
    } finally {
      factory.dispose();
    }
  }));

test('whenAllSynced: every informer lists through one watch each; snapshots match the server; informers keep running', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      const all = factory.informer(configMaps, { indexers: { namespace: byNamespace } });
      const odd = factory.informer(configMaps, { labelSelector: 'parity=odd' });
      const pods = factory.informer({ apiVersion: 'v1', kind: 'Pod' });
      await factory.whenAllSynced();
      t.is(all.snapshot.size, 5);
      t.deepEqual([...all.snapshot.indexKeys('namespace', 'odd')], ['odd/cm-1', 'odd/cm-3']);
      t.is(odd.snapshot.size, 2);
      t.is(pods.snapshot.size, 1);
      await until(() => server.openWatchCount === 3, 'three watches');
      server.create('configmaps', { metadata: { name: 'late', namespace: 'odd', labels: { parity: 'odd' } } });
      await until(() => all.snapshot.size === 6 && odd.snapshot.size === 3, 'the late object in both informers');
      const lists = server.requests.filter((r) => r.verb === 'list').length;
      t.is(lists, 3, 'one LIST per informer, however many times they were asked for');
    } finally {
      factory.dispose();
    }
  }));

test('status$ and metrics tell what each informer is doing', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      const cms = factory.informer(configMaps);
      const statuses: ListWatchStatus['type'][] = [];
      cms.status$.subscribe((s) => statuses.push(s.type));
      await factory.whenAllSynced();
      server.patch('configmaps', 'even', 'cm-0', { data: { x: '1' } });
      server.delete('configmaps', 'odd', 'cm-1');
      await until(() => cms.metrics().notifications.delete === 1, 'the delete');
      // Events the watch never sees, then compaction: the re-watch gets 410 and the informer relists.
      server.create('configmaps', { metadata: { name: 'hidden', namespace: 'even' } }, { broadcast: false });
      server.compact();
      server.closeWatches();
      await until(() => cms.snapshot.has('even/hidden'), 'the relist');
      const m = cms.metrics();
      t.true(m.synced);
      t.is(m.objects, 5);
      t.is(m.lists, 2);
      t.is(m.relists, 1);
      t.deepEqual(m.relistReasons, { expired: 1 });
      t.true(m.watches >= 2);
      t.is(m.watchRestarts, m.watches - 1);
      t.is(m.events.modified, 1);
      t.is(m.events.deleted, 1);
      t.is(m.notifications.add, 6);
      t.is(m.notifications.update, 1);
      t.true(m.notifications.sync >= 3, 'the relist re-delivered unchanged objects as sync updates');
      t.true(m.syncDurationMs !== undefined && m.syncDurationMs >= 0);
      t.true(m.lastEventAgeMs !== undefined && m.lastEventAgeMs >= 0);
      t.true(statuses.includes('WATCHING') && statuses.includes('RELISTING'));
    } finally {
      factory.dispose();
    }
  }));

test('dispose stops every watch, completes every stream, and the factory refuses new informers', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    const cms = factory.informer(configMaps);
    const pods = factory.informer({ version: 'v1', plural: 'pods' });
    const ended = lastValueFrom(cms.changes$.pipe(toArray()));
    await factory.whenAllSynced();
    await until(() => server.openWatchCount === 2, 'two watches');
    factory.dispose();
    t.is((await ended).length, 5, 'changes$ completed after delivering the initial adds');
    await until(() => server.openWatchCount === 0, 'no watch left');
    t.is(pods.snapshot.size, 0);
    t.throws(() => factory.informer(configMaps), { instanceOf: TypeError, message: /after dispose/ });
  }));

test('item 2: a shared informer whose source fails for good is reported, by name, on status$ and whenAllSynced; the others keep running', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, { ...fast, fatalErrors: 'permanent' });
    try {
      const cms = factory.informer(configMaps);
      const missing = factory.informer({ group: 'example.com', version: 'v1', plural: 'widgets', namespace: 'even' });
      const statuses: ListWatchStatus['type'][] = [];
      missing.status$.subscribe((s) => statuses.push(s.type));
      const error = await t.throwsAsync(factory.whenAllSynced(), { instanceOf: NotSyncedError });
      t.is(error?.reason, 'failed');
      t.is(error?.informer, 'widgets.example.com in namespace even');
      t.regex(error!.message, /^\[informer\] widgets\.example\.com in namespace even: the source failed: cannot list widgets\.example\.com in namespace even: not found/);
      t.is(statuses.at(-1), 'FAILED');
      await cms.whenSynced();
      t.is(cms.snapshot.size, 5, 'the other informer synced and runs');
      const later = await t.throwsAsync(missing.whenSynced(), { instanceOf: NotSyncedError }, 'the failed one is not restarted behind the user’s back');
      t.is(later?.reason, 'failed', 'asked after the failure, it still reports the failure, not "call connect() first"');
      t.regex(later!.message, /the source failed: cannot list widgets\.example\.com in namespace even: not found/);
    } finally {
      factory.dispose();
    }
  }));

const widgetType = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true } as const;

test('item 6: one collection is one shared informer however it is named: apiVersion/kind and group/version/plural', (t) =>
  withServer(async (server) => {
    server.addResource(widgetType);
    server.create('widgets.example.com', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'even' } });
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      // A built-in kind is normalised at once.
      const byKind = factory.informer({ apiVersion: 'v1', kind: 'ConfigMap' });
      t.is(factory.informer(configMaps), byKind);
      t.is(factory.informer({ group: '', version: 'v1', plural: 'configmaps' }), byKind);
      t.not(factory.informer({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'odd' }), byKind, 'another namespace is another collection');
      // A CRD's kind is resolved by discovery; once it is, the other spelling finds the same informer.
      const widgets = factory.informer({ apiVersion: 'example.com/v1', kind: 'Widget' });
      await widgets.whenSynced();
      t.is(factory.informer({ group: 'example.com', version: 'v1', plural: 'widgets' }), widgets);
      // And the other way round: a plural learns its kind from its first list, even an empty one.
      const gadgetType = { group: 'example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true } as const;
      server.addResource(gadgetType);
      const gadgets = factory.informer({ group: 'example.com', version: 'v1', plural: 'gadgets' });
      await gadgets.whenSynced();
      t.is(factory.informer({ apiVersion: 'example.com/v1', kind: 'Gadget' }), gadgets);
      await factory.whenAllSynced();
      t.is(factory.informers.length, 4);
      const lists = server.requests.filter((r) => r.verb === 'list');
      t.is(lists.filter((r) => r.path.startsWith('/api/v1/configmaps')).length, 1, 'one LIST of all configmaps');
      t.is(lists.filter((r) => r.path.startsWith('/apis/example.com/v1/widgets')).length, 1);
      t.is(lists.filter((r) => r.path.startsWith('/apis/example.com/v1/gadgets')).length, 1);
    } finally {
      factory.dispose();
    }
  }));

test('item 6: a second request for the same informer with other resync, paging, streaming or backoff options is refused, naming the option', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      const cms = factory.informer(configMaps, { resyncMs: 30_000, pageSize: 100 });
      t.is(factory.informer({ apiVersion: 'v1', kind: 'ConfigMap' }, { resyncMs: 30_000, pageSize: 100 }), cms, 'the same options: the same informer');
      t.is(factory.informer(configMaps), cms, 'no options: whatever the informer has');
      const refused = (options: Parameters<typeof factory.informer>[1], name: string) => {
        const error = t.throws(() => factory.informer(configMaps, options), { instanceOf: TypeError });
        t.regex(error!.message, new RegExp(`^\\[informerFactory\\] the shared informer for configmaps was created with ${name}\\. `), name);
      };
      refused({ resyncMs: 5000 }, 'resyncMs 30000; this request asks for 5000');
      refused({ pageSize: 50 }, 'pageSize 100; this request asks for 50');
      refused({ streamingList: true }, 'streamingList undefined; this request asks for true');
      refused({ backoff: { initialDelay: 10, maxDelay: 80 } }, 'backoff \\{"initialDelay":10,"maxDelay":40\\}; this request asks for \\{"initialDelay":10,"maxDelay":80\\}');
      const error = t.throws(() => factory.informer(configMaps, { resyncMs: 5000 }));
      t.regex(error!.message, /addHandler\(handler, \{ resyncMs \}\)/, 'and says how to get a resync of its own');
      t.is(factory.informer(configMaps, { backoff: { initialDelay: 10, maxDelay: 40 } }), cms, 'equal values are the same option');
    } finally {
      factory.dispose();
    }
  }));

test('item 11: reconcile outcomes tapped into a shared informer reach its metrics and its Prometheus counters', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      const cms = factory.informer(configMaps);
      await cms.whenSynced();
      const registry = new Registry();
      registerInformerMetrics(registry, () => factory.informers);
      // The two odd/ keys fail 20 times each, then every key succeeds.
      let failures = 0;
      const handler = (key: string) => {
        if (key.startsWith('odd/') && failures < 40) {
          failures++;
          throw new Error('not yet');
        }
      };
      const limits = { baseDelayMs: 1, maxDelayMs: 2, retriesPerSecond: 100_000, retryBurst: 100_000 };
      await lastValueFrom(
        concat(from([...cms.snapshot.keys()]), NEVER).pipe(
          reconcile(handler, limits),
          tap(cms.onReconcile),
          filter((outcome) => outcome.result === 'success'),
          take(5),
        ),
      );
      t.deepEqual(cms.metrics().reconciles, { successes: 5, failures: 40, queueDepth: 0 });
      const text = await registry.metrics();
      t.true(text.includes('rx_informer_reconciles_total{informer="configmaps",result="error"} 40'));
      t.true(text.includes('rx_informer_reconciles_total{informer="configmaps",result="success"} 5'));
      t.true(text.includes('rx_informer_reconcile_queue_depth{informer="configmaps"} 0'));
    } finally {
      factory.dispose();
    }
  }));

test('a shared informer knows its kind however it was first asked for, and a controller that owns children reads it', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      // First by plural, then by kind: the factory hands back the first informer, whose request named no kind.
      const byPlural = factory.informer({ ...configMaps, namespace: 'even' });
      const byKind = factory.informer({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'even' });
      t.is(byKind, byPlural);
      t.deepEqual(byKind.kind, { apiVersion: 'v1', kind: 'ConfigMap' }, 'a built-in kind is known at once');
      const pods = factory.informer({ apiVersion: 'v1', kind: 'Pod', namespace: 'even' });
      t.notThrows(() => controller(byKind, { owns: [pods], reconcile: () => undefined }));
      // A CRD asked for by plural learns its kind from its first list.
      server.addResource({ group: 'example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true });
      const gadgets = factory.informer({ group: 'example.com', version: 'v1', plural: 'gadgets' });
      t.is(gadgets.kind, undefined, 'not known before the server named it');
      await gadgets.whenSynced();
      t.deepEqual(gadgets.kind, { apiVersion: 'example.com/v1', kind: 'Gadget' });
      t.notThrows(() => controller(factory.informer({ apiVersion: 'example.com/v1', kind: 'Gadget' }), { owns: [pods], reconcile: () => undefined }));
    } finally {
      factory.dispose();
    }
  }));
