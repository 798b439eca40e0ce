import test from 'ava';
import { firstValueFrom, filter } from 'rxjs';
import { controller } from '../../src/controller/controller.js';
import { informerFactory } from '../../src/informer/informerFactory.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { NotSyncedError } from '../../src/errors.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

const crds = 'customresourcedefinitions.apiextensions.k8s.io';
const fast = { backoff: { initialDelay: 10, maxDelay: 40 } } as const;
const gadgets = { group: 'example.com', version: 'v1', plural: 'gadgets', namespace: 'demo' } as const;

function crdOf(plural: string, kind: string, versions: readonly { name: string; served: boolean }[] = [{ name: 'v1', served: true }]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: versions.map((v, i) => ({ ...v, storage: i === 0, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })),
    },
  };
}
const gadget = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name, namespace: 'demo' }, spec: { size: 1 } });

async function withServer(run: (server: TestApiServer) => Promise<void>): Promise<void> {
  const server = await createTestApiServer();
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

/** Lists and watches of gadgets (a discovery of example.com/v1, which tells a CRD's resource from an aggregated API's, is not one). */
const gadgetRequests = (server: TestApiServer) => server.requests.filter((r) => r.verb !== undefined && r.path.startsWith('/apis/example.com/'));

test('an informer asked for before its CRD exists waits for it, syncs once it is established, empties its cache when it is deleted and resumes when it is back', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      const informer = factory.informer(gadgets);
      const statuses: ListWatchStatus[] = [];
      informer.status$.subscribe((status) => statuses.push(status));
      const changes: string[] = [];
      informer.changes$.subscribe((change) => changes.push(`${change.type} ${change.key}`));
      const synced = informer.whenSynced({ timeoutMs: 60_000 });
      await until(() => statuses.some((s) => s.type === 'CRD_MISSING'), 'CRD_MISSING');
      t.like(statuses.find((s) => s.type === 'CRD_MISSING'), { reason: 'notFound', crd: 'gadgets.example.com', version: 'v1', servedVersions: [] });
      t.deepEqual(gadgetRequests(server), [], 'no request for a resource nothing serves');
      const timedOut = await informer.whenSynced({ timeoutMs: 1 }).catch((error: unknown) => error);
      t.true(timedOut instanceof NotSyncedError);
      t.regex((timedOut as Error).message, /no CustomResourceDefinition gadgets\.example\.com: waiting for it/);

      server.create(crds, crdOf('gadgets', 'Gadget'));
      server.create('gadgets.example.com', gadget('a'));
      const first = await synced;
      t.is(first.size, 1, 'synced once the CRD is established');
      t.true(statuses.some((s) => s.type === 'CRD_ESTABLISHED'));
      server.create('gadgets.example.com', gadget('b'));
      await until(() => informer.snapshot.size === 2, 'the second gadget');

      const errorsBefore = statuses.filter((s) => s.type === 'ERROR').length;
      server.delete(crds, undefined, 'gadgets.example.com');
      await until(() => statuses.some((s) => s.type === 'CRD_REMOVED'), 'CRD_REMOVED');
      t.is(informer.snapshot.size, 0, 'the cache is emptied');
      t.deepEqual(changes.filter((c) => c.startsWith('delete')).sort(), ['delete demo/a', 'delete demo/b'], 'each object delivered as a delete');
      t.true(statuses.filter((s) => s.type === 'ERROR').length - errorsBefore <= 1, 'at most one error (the watch ending before the CRD event arrives)');
      const afterRemoval = gadgetRequests(server).length;
      t.true(informer.snapshot.synced, 'still synced: the collection is empty while its CRD is gone');

      // Back: a new list, and the cache and notifications follow.
      server.create(crds, crdOf('gadgets', 'Gadget'));
      t.is(gadgetRequests(server).length, afterRemoval, 'no request while the CRD was gone');
      server.create('gadgets.example.com', gadget('c'));
      await until(() => informer.snapshot.has('demo/c'), 'the gadget created after the CRD came back');
      // (A CRD_MISSING 'notEstablished' may come between a create and its Established status, when the two arrive apart.)
      const told = statuses.filter((s) => s.type.startsWith('CRD_') && !(s.type === 'CRD_MISSING' && s.reason === 'notEstablished'));
      t.deepEqual(told.map((s) => s.type), ['CRD_MISSING', 'CRD_ESTABLISHED', 'CRD_REMOVED', 'CRD_ESTABLISHED']);
      t.true(changes.includes('add demo/c'));
    } finally {
      factory.dispose();
    }
  }));

test('informers of custom resources share one watch of CRDs; asked for by kind, an informer needs no discovery', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      const byPlural = factory.informer(gadgets);
      const byKind = factory.informer({ apiVersion: 'example.com/v1', kind: 'Widget' });
      const other = factory.informer({ group: 'example.com', version: 'v1', plural: 'gizmos' });
      server.create(crds, crdOf('gadgets', 'Gadget'));
      server.create(crds, crdOf('widgets', 'Widget'));
      server.create(crds, crdOf('gizmos', 'Gizmo'));
      await Promise.all([byPlural, byKind, other].map((i) => i.whenSynced({ timeoutMs: 60_000 })));
      t.is(server.requests.filter((r) => r.resource === crds && r.verb === 'list').length, 1, 'one list of CRDs');
      t.is(server.requests.filter((r) => r.resource === crds && r.verb === 'watch').length, 1, 'one watch of CRDs');
      t.false(server.requests.some((r) => r.path === '/apis/example.com/v1'), 'the CRD names the plural: no discovery');
      t.deepEqual(byKind.kind, { apiVersion: 'example.com/v1', kind: 'Widget' });
      t.is(factory.informer({ group: 'example.com', version: 'v1', plural: 'widgets' }), byKind, 'known by both names once the CRD named the plural');
    } finally {
      factory.dispose();
    }
  }));

test('a controller on a custom resource recovers when its CRD is deleted and created again', (t) =>
  withServer(async (server) => {
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      server.create(crds, crdOf('gadgets', 'Gadget'));
      const informer = factory.informer<KubeObject>(gadgets);
      const runs: string[] = [];
      const outcomes = controller(informer, {
        reconcile: (object, { ref }) => {
          runs.push(`${ref.name} ${object === undefined ? 'gone' : 'present'}`);
        },
      }).subscribe();
      await until(() => server.get(crds, undefined, 'gadgets.example.com')?.['status'] !== undefined, 'established');
      server.create('gadgets.example.com', gadget('a'));
      await until(() => runs.includes('a present'), 'a reconciled');
      server.delete(crds, undefined, 'gadgets.example.com');
      await until(() => runs.includes('a gone'), 'a reconciled as deleted');
      server.create(crds, crdOf('gadgets', 'Gadget'));
      await firstValueFrom(informer.status$.pipe(filter((s) => s.type === 'CRD_ESTABLISHED')));
      await until(() => server.get(crds, undefined, 'gadgets.example.com')?.['status'] !== undefined, 'established again');
      server.create('gadgets.example.com', gadget('b'));
      await until(() => runs.includes('b present'), 'b reconciled after the CRD came back');
      t.deepEqual(runs, ['a present', 'a gone', 'b present']);
      outcomes.unsubscribe();
    } finally {
      factory.dispose();
    }
  }));

test('without the right to list CRDs (403), informers of custom resources run as they did before, unfollowed', (t) =>
  withServer(async (server) => {
    server.addResource({ group: 'example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true });
    server.create('gadgets.example.com', gadget('a'));
    server.forbid({ resource: crds });
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      const informer = factory.informer(gadgets);
      t.is((await informer.whenSynced({ timeoutMs: 60_000 })).size, 1);
      t.true(server.requests.some((r) => r.resource === crds && r.injected === 'forbidden'), 'the CRD watch was tried');
    } finally {
      factory.dispose();
    }
  }));

test('a factory informer of a resource served without a CRD (an aggregated API, as metrics.k8s.io) syncs as asked: the gate steps aside', (t) =>
  withServer(async (server) => {
    server.addResource({ group: 'metrics.k8s.io', version: 'v1beta1', plural: 'pods', kind: 'PodMetrics', namespaced: true });
    server.create('pods.metrics.k8s.io', { apiVersion: 'metrics.k8s.io/v1beta1', kind: 'PodMetrics', metadata: { name: 'p', namespace: 'demo' } });
    const factory = informerFactory(server.kubeConfig, fast);
    try {
      const metrics = factory.informer({ group: 'metrics.k8s.io', version: 'v1beta1', plural: 'pods', namespace: 'demo' });
      const statuses: string[] = [];
      metrics.status$.subscribe((status) => statuses.push(status.type));
      const synced = await metrics.whenSynced({ timeoutMs: 10_000 });
      t.true(synced.has('demo/p'));
      t.false(statuses.some((s) => s.startsWith('CRD_')), `no CRD status: ${statuses.join(' ')}`);
    } finally {
      factory.dispose();
    }
  }));
