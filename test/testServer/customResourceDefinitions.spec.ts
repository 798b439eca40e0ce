import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ResourceType } from '../../src/testServer/index.js';
import { call, openWatch, withServer } from './apiServerClient.js';

const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const widgets: ResourceType = {
  group: 'example.com',
  version: 'v1',
  plural: 'widgets',
  kind: 'Widget',
  namespaced: true,
  shortNames: ['wd'],
  printerColumns: [
    { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
    { name: 'Colour', type: 'string', jsonPath: '.spec.colour', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
};

test('a custom resource type comes with its CustomResourceDefinition, served like any cluster-scoped object', async (t) => {
  await withServer(
    async (server) => {
      const crd = (await call(`${server.url}${crds}/widgets.example.com`)).json;
      t.like(crd, {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.example.com' },
        spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] } },
      });
      t.deepEqual(crd.spec.versions.map((v: any) => [v.name, v.served, v.storage]), [['v1', true, true]]);
      t.deepEqual(crd.spec.versions[0].additionalPrinterColumns, widgets.printerColumns);
      t.true(crd.status.conditions.some((c: any) => c.type === 'Established' && c.status === 'True'));
      t.truthy(crd.metadata.resourceVersion);
      // Cluster-scoped gadgets without printer columns; the Kubernetes groups get no CRD.
      const list = (await call(`${server.url}${crds}`)).json;
      t.is(list.kind, 'CustomResourceDefinitionList');
      t.deepEqual(list.items.map((i: any) => i.metadata.name), ['gadgets.other.io', 'widgets.example.com']);
      const gadgets = list.items[0];
      t.is(gadgets.spec.scope, 'Cluster');
      t.is(gadgets.spec.versions[0].additionalPrinterColumns, undefined);
      const byName = (await call(`${server.url}${crds}?fieldSelector=${encodeURIComponent('metadata.name=widgets.example.com')}`)).json;
      t.deepEqual(byName.items.map((i: any) => i.metadata.name), ['widgets.example.com']);
      t.deepEqual(server.list('customresourcedefinitions.apiextensions.k8s.io').map((o) => o.metadata!.name), ['gadgets.other.io', 'widgets.example.com']);
      // Discovery lists the group; the custom resources themselves are served as before.
      t.true((await call(`${server.url}/apis`)).json.groups.some((g: any) => g.name === 'apiextensions.k8s.io'));
      t.like((await call(`${server.url}/apis/apiextensions.k8s.io/v1`)).json.resources[0], { name: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'] });
      t.is((await call(`${server.url}/apis/example.com/v1/widgets`)).json.kind, 'WidgetList');
    },
    {
      resources: [
        widgets,
        { group: 'other.io', version: 'v1alpha1', plural: 'gadgets', kind: 'Gadget', namespaced: false },
        { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true },
        { group: 'metrics.k8s.io', version: 'v1beta1', plural: 'pods', kind: 'PodMetrics', namespaced: true },
      ],
    },
  );
});

test('addResource installs the CRD as a create: a CRD watch sees it ADDED', async (t) => {
  await withServer(async (server) => {
    t.deepEqual((await call(`${server.url}${crds}`)).json.items, [], 'no custom resources, no CRDs');
    const watch = await openWatch(`${server.url}${crds}?watch=true&resourceVersion=${server.resourceVersion}`);
    server.addResource({ group: 'late.io', version: 'v2', plural: 'things', kind: 'Thing', namespaced: false });
    server.addResource({ group: 'late.io', version: 'v2', plural: 'things', kind: 'Thing', namespaced: false }); // again: nothing new
    await watch.waitFor(1);
    t.deepEqual(watch.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED things.late.io']);
    t.is((await call(`${server.url}${crds}`)).json.items.length, 1);
    watch.close();
  });
});

test('kubectl get crd lists them', async (t) => {
  await withServer(
    async (server) => {
      const dir = await mkdtemp(join(tmpdir(), 'rx-informer-crd-'));
      t.teardown(() => rm(dir, { recursive: true, force: true }));
      await server.writeKubeConfig(join(dir, 'config'));
      const { stdout } = await promisify(execFile)(process.env['KUBECTL'] ?? 'kubectl', ['--kubeconfig', join(dir, 'config'), '--cache-dir', join(dir, 'cache'), 'get', 'crd', '-o', 'name'], { env: { ...process.env, HOME: dir } });
      t.is(stdout, 'customresourcedefinition.apiextensions.k8s.io/widgets.example.com\n');
    },
    { resources: [widgets] },
  );
});

/** A CRD as a user writes one: no status, one served version. */
const gadgetsCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

test('a CRD created through the API is served, then Established; deleting it deletes its objects, ends their watches and stops serving them (as kube-apiserver v1.36.3 does)', async (t) => {
  await withServer(async (server) => {
    const gadgets = `${server.url}/apis/example.com/v1/namespaces/demo/gadgets`;
    t.is((await call(gadgets)).text, '404 page not found\n', 'before its CRD: the mux answers, as for any unserved group version');
    const crdWatch = await openWatch(`${server.url}${crds}?watch=true&resourceVersion=${server.resourceVersion}`);
    t.is((await call(`${server.url}${crds}`, { method: 'POST', body: gadgetsCrd })).status, 201);
    await crdWatch.waitFor(2);
    t.deepEqual(crdWatch.events.map((e) => e.type), ['ADDED', 'MODIFIED']);
    t.is(crdWatch.events[0]!.object.status, undefined, 'created without a status');
    t.like(crdWatch.events[1]!.object.status.conditions.find((c: any) => c.type === 'Established'), { status: 'True' });
    for (const name of ['a', 'b']) t.is((await call(gadgets, { method: 'POST', body: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name } } })).status, 201);
    t.true((await call(`${server.url}/apis`)).json.groups.some((g: any) => g.name === 'example.com'));

    const watch = await openWatch(`${gadgets}?watch=true&resourceVersion=${server.resourceVersion}`);
    t.is((await call(`${server.url}${crds}/gadgets.example.com`, { method: 'DELETE' })).status, 200);
    t.deepEqual((await watch.waitFor(2)).map((e) => `${e.type} ${e.object.metadata.name}`), ['DELETED a', 'DELETED b']);
    t.is(await watch.ended, 'end', 'then the watch ends');
    await crdWatch.waitFor(4);
    const [terminating, deleted] = crdWatch.events.slice(2);
    t.is(terminating!.type, 'MODIFIED');
    t.truthy(terminating!.object.metadata.deletionTimestamp);
    t.deepEqual(terminating!.object.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    t.like(terminating!.object.status.conditions.find((c: any) => c.type === 'Terminating'), { status: 'True', reason: 'InstanceDeletionInProgress' });
    t.is(deleted!.type, 'DELETED');
    const after = await call(gadgets);
    t.deepEqual([after.status, after.text], [404, '404 page not found\n']);
    t.is((await call(`${gadgets}?watch=true`)).status, 404);
    t.false((await call(`${server.url}/apis`)).json.groups.some((g: any) => g.name === 'example.com'), 'discovery drops it');
    t.deepEqual([(await call(`${server.url}/apis/example.com/v1`)).text, (await call(`${server.url}/apis/example.com`)).text], ['404 page not found\n', '404 page not found\n']);

    // Created again: served again, empty.
    server.create('customresourcedefinitions.apiextensions.k8s.io', gadgetsCrd);
    t.deepEqual((await call(gadgets)).json.items, []);
    crdWatch.close();
  });
});
