/**
 * A plain `listWatch` of a custom resource follows its CRD as a factory's informers do (issue 44
 * item 1): before, `informer(listWatch(kc, gadgets))` met a missing CRD with 404s and resumed only by
 * its slow backoff once the CRD was back (36 s on kube-apiserver).
 */
import test from 'ava';
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { customResourceDefinitionOf } from '../../src/testServer/customResourceDefinition.js';
import { until } from '../helpers/until.js';

const crds = 'customresourcedefinitions.apiextensions.k8s.io';
const gadgets = { group: 'example.com', version: 'v1', plural: 'gadgets', namespace: 'demo' } as const;
/** The CRD the test server makes for an installed resource type (Established, one served version). */
const crd = customResourceDefinitionOf({ group: 'example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true });
const gadget = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name, namespace: 'demo' }, spec: { size: 1 } });
/** Lists and watches of gadgets (a discovery of example.com/v1, which tells a CRD's resource from an aggregated API's, is not one). */
const gadgetRequests = (server: TestApiServer) => server.requests.filter((r) => r.verb !== undefined && r.path.startsWith('/apis/example.com/'));
/** Long enough for a busy machine, far shorter than the reflector's backoff after a 404 (30 s): only following the CRD resumes within it. */
const resumeBoundMs = 8_000;

async function withServer(run: (server: TestApiServer) => Promise<void>): Promise<void> {
  const server = await createTestApiServer();
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

test('informer(listWatch(…)) of a custom resource waits for its CRD, syncs once it is established, empties with it and resumes when it is back — without waiting a backoff', (t) =>
  withServer(async (server) => {
    const onStatus: ListWatchStatus[] = [];
    const gadgetInformer = informer<KubeObject>(listWatch(server.kubeConfig, gadgets, { onStatus: (status) => onStatus.push(status) }));
    const statuses: ListWatchStatus[] = [];
    const sub = gadgetInformer.status$.subscribe((status) => statuses.push(status));
    sub.add(gadgetInformer.changes$.subscribe());
    try {
      await until(() => statuses.some((s) => s.type === 'CRD_MISSING'), 'CRD_MISSING');
      t.like(statuses.find((s) => s.type === 'CRD_MISSING'), { reason: 'notFound', crd: 'gadgets.example.com', version: 'v1' });
      t.deepEqual(gadgetRequests(server), [], 'no request for a resource nothing serves');

      server.create(crds, crd);
      server.create('gadgets.example.com', gadget('a'));
      await until(() => gadgetInformer.snapshot.synced && gadgetInformer.snapshot.has('demo/a'), 'synced once the CRD is established', resumeBoundMs);

      server.delete(crds, undefined, 'gadgets.example.com');
      await until(() => statuses.some((s) => s.type === 'CRD_REMOVED'), 'CRD_REMOVED');
      await until(() => gadgetInformer.snapshot.size === 0, 'the cache emptied with the CRD');

      server.create(crds, crd);
      server.create('gadgets.example.com', gadget('b'));
      await until(() => gadgetInformer.snapshot.has('demo/b'), 'the gadget created after the CRD came back', resumeBoundMs);
      const told = statuses.filter((s) => s.type.startsWith('CRD_') && !(s.type === 'CRD_MISSING' && s.reason === 'notEstablished')).map((s) => s.type);
      t.deepEqual(told, ['CRD_MISSING', 'CRD_ESTABLISHED', 'CRD_REMOVED', 'CRD_ESTABLISHED']);
      t.deepEqual(onStatus.filter((s) => s.type.startsWith('CRD_')).map((s) => s.type), statuses.filter((s) => s.type.startsWith('CRD_')).map((s) => s.type), 'onStatus is told the same');
    } finally {
      sub.unsubscribe();
    }
    await until(() => server.openWatchCount === 0, 'every watch closed, the CRD watch too');
  }));

test('sources of one CRD share one small watch of it (a field selector on its name), ended with the last of them', (t) =>
  withServer(async (server) => {
    server.create(crds, crd);
    server.create('gadgets.example.com', gadget('a'));
    const crdWatches = () => server.requests.filter((r) => r.verb === 'watch' && r.path === '/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
    const a = listWatch(server.kubeConfig, gadgets).subscribe();
    const b = listWatch(server.kubeConfig, { ...gadgets, namespace: 'other' }).subscribe();
    await until(() => server.requests.filter((r) => r.verb === 'watch' && r.path.startsWith('/apis/example.com/')).length === 2, 'both sources watching');
    t.is(crdWatches().length, 1, 'one watch of the CRD for both');
    t.is(crdWatches()[0]!.query['fieldSelector'], 'metadata.name=gadgets.example.com');
    a.unsubscribe();
    b.unsubscribe();
    await until(() => server.openWatchCount === 0, 'every watch closed');
  }));

test('fatalErrors: permanent does not follow the CRD: a missing one fails the source', (t) =>
  withServer(async (server) => {
    const failed = new Promise<unknown>((resolve) => listWatch(server.kubeConfig, gadgets, { fatalErrors: 'permanent' }).subscribe({ error: resolve }));
    const error = await failed;
    t.true(error instanceof Error);
    t.false(server.requests.some((r) => r.path.startsWith('/apis/apiextensions.k8s.io/')), 'no watch of CRDs');
  }));

test('an aborted signal ends a source waiting for its CRD', (t) =>
  withServer(async (server) => {
    const controller = new AbortController();
    const statuses: string[] = [];
    const done = new Promise<void>((resolve) => listWatch(server.kubeConfig, gadgets, { signal: controller.signal, onStatus: (s) => statuses.push(s.type) }).subscribe({ complete: resolve }));
    await until(() => statuses.includes('CRD_MISSING'), 'CRD_MISSING');
    controller.abort();
    await done;
    t.true(statuses.includes('CRD_MISSING'));
    await until(() => server.openWatchCount === 0, 'the CRD watch closed');
    t.is(server.openWatchCount, 0);
  }));

test('a resource served without a CRD (an aggregated API, as metrics.k8s.io) is listed and watched as asked: the gate steps aside', (t) =>
  withServer(async (server) => {
    const podMetrics = { group: 'metrics.k8s.io', version: 'v1beta1', plural: 'pods', kind: 'PodMetrics', namespaced: true } as const;
    server.addResource(podMetrics);
    server.create('pods.metrics.k8s.io', { apiVersion: 'metrics.k8s.io/v1beta1', kind: 'PodMetrics', metadata: { name: 'p', namespace: 'demo' } });
    t.false(server.list('customresourcedefinitions.apiextensions.k8s.io').some((crd) => String(crd.metadata?.name).endsWith('metrics.k8s.io')), 'no CRD serves it');
    const statuses: string[] = [];
    const metrics = informer<KubeObject>(listWatch(server.kubeConfig, { group: 'metrics.k8s.io', version: 'v1beta1', plural: 'pods', namespace: 'demo' }, { onStatus: (s) => statuses.push(s.type) }));
    const sub = metrics.changes$.subscribe();
    try {
      await until(() => metrics.snapshot.synced && metrics.snapshot.has('demo/p'), 'the pod metrics listed', resumeBoundMs);
      t.false(statuses.some((s) => s.startsWith('CRD_')), `no CRD status: ${statuses.join(' ')}`);
    } finally {
      sub.unsubscribe();
    }
  }));
