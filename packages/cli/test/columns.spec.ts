/*
 * The table's columns: kubectl's own for the built-in kinds (and their -o wide ones), a CRD's
 * additionalPrinterColumns for a custom resource, NAME and AGE for anything else.
 */
import test from 'ava';
import { columnsFor } from '../src/columnsFor.js';
import { podSummary } from '../src/podColumns.js';
import { printerColumns } from '../src/printerColumns.js';
import type { KubeObject } from 'rx-informer';
import type { ResourceType } from 'rx-informer/test-server';
import { cliCluster } from './cliCluster.js';

const now = Date.parse('2026-11-29T12:00:00Z');
const created = '2026-11-29T11:55:00Z';
const at = (object: Record<string, unknown>): KubeObject => ({ ...object, metadata: { name: 'x', creationTimestamp: created, ...(object['metadata'] as object) } }) as KubeObject;
const row = (kind: string, object: Record<string, unknown>, wide = false): Record<string, string> =>
  Object.fromEntries(columnsFor(kind, { wide }).map((c) => [c.header, c.value(at(object), now)]));
const headers = (kind: string, wide = false): string => columnsFor(kind, { wide }).map((c) => c.header).join(' | ');

test('kubectl\'s headers, in kubectl\'s order; wide ones after AGE; NAMESPACE first for all namespaces', (t) => {
  t.is(headers('Pod'), 'NAME | READY | STATUS | RESTARTS | AGE');
  t.is(headers('Pod', true), 'NAME | READY | STATUS | RESTARTS | AGE | IP | NODE | NOMINATED NODE | READINESS GATES');
  t.is(headers('Node'), 'NAME | STATUS | ROLES | AGE | VERSION');
  t.is(headers('Node', true), 'NAME | STATUS | ROLES | AGE | VERSION | INTERNAL-IP | EXTERNAL-IP | OS-IMAGE | KERNEL-VERSION | CONTAINER-RUNTIME');
  t.is(headers('Service', true), 'NAME | TYPE | CLUSTER-IP | EXTERNAL-IP | PORT(S) | AGE | SELECTOR');
  t.is(headers('Deployment', true), 'NAME | READY | UP-TO-DATE | AVAILABLE | AGE | CONTAINERS | IMAGES | SELECTOR');
  t.is(headers('ReplicaSet'), 'NAME | DESIRED | CURRENT | READY | AGE');
  t.is(headers('StatefulSet', true), 'NAME | READY | AGE | CONTAINERS | IMAGES');
  t.is(headers('DaemonSet'), 'NAME | DESIRED | CURRENT | READY | UP-TO-DATE | AVAILABLE | NODE SELECTOR | AGE');
  t.is(headers('ConfigMap'), 'NAME | DATA | AGE');
  t.is(headers('Secret'), 'NAME | TYPE | DATA | AGE');
  t.is(headers('Namespace'), 'NAME | STATUS | AGE');
  t.is(headers('Lease'), 'NAME | AGE', 'a kind without a printer here');
  t.is(columnsFor('Pod', { metadataOnly: true, wide: true }).map((c) => c.header).join(' | '), 'NAME | AGE', 'metadata-only objects have no status');
  t.is(columnsFor('Pod', { namespaced: true }).map((c) => c.header)[0], 'NAMESPACE');
  t.true(columnsFor('Pod')[0]!.keep, 'NAME is never cut');
});

test('pod READY, STATUS and RESTARTS as kubectl works them out', (t) => {
  const pod = (status: Record<string, unknown>, spec: Record<string, unknown> = { containers: [{ name: 'a' }] }, metadata: Record<string, unknown> = {}) => podSummary(at({ metadata, spec, status }), now);
  const running = { name: 'a', ready: true, restartCount: 0, state: { running: {} } };
  t.like(pod({ phase: 'Running', containerStatuses: [running] }), { ready: 1, total: 1, status: 'Running', restarts: '0' });
  t.like(pod({ phase: 'Pending', containerStatuses: [{ name: 'a', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] }), { ready: 0, status: 'ContainerCreating' });
  t.like(pod({ phase: 'Running', containerStatuses: [{ name: 'a', restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { finishedAt: '2026-11-29T11:58:00Z' } } }] }), { status: 'CrashLoopBackOff', restarts: '4 (2m ago)' });
  t.like(pod({ phase: 'Failed', containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 137, signal: 9 } } }] }), { status: 'Signal:9' });
  t.like(pod({ phase: 'Failed', containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 2 } } }] }), { status: 'ExitCode:2' });
  t.like(pod({ phase: 'Succeeded', containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] }), { status: 'Completed' });
  t.like(pod({ phase: 'Running', reason: 'Evicted' }), { status: 'Evicted' });
  const init = { containers: [{ name: 'a' }], initContainers: [{ name: 'i1' }, { name: 'i2' }] };
  t.like(pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 0 } } }, { name: 'i2', state: { running: {} } }] }, init), { status: 'Init:1/2' });
  t.like(pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i1', restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } }] }, init), { status: 'Init:CrashLoopBackOff', restarts: '2' });
  t.like(pod({ phase: 'Running', containerStatuses: [running] }, undefined, { deletionTimestamp: created }), { status: 'Terminating' });
  t.like(pod({ phase: 'Running', reason: 'NodeLost', containerStatuses: [running] }, undefined, { deletionTimestamp: created }), { status: 'Unknown' });
  const twoContainers = { containers: [{ name: 'a' }, { name: 'b' }] };
  t.like(pod({ phase: 'Running', containerStatuses: [running, { name: 'b', ready: false, state: { running: {} } }] }, twoContainers), { ready: 1, total: 2 });
  t.like(pod({}, {}), { ready: 0, total: 0, status: 'Pending', restarts: '0' });
});

test('the other built-in printers', (t) => {
  t.like(row('Pod', { spec: { nodeName: 'n1', readinessGates: [{ conditionType: 'x' }] }, status: { podIP: '10.0.0.1', conditions: [{ type: 'x', status: 'True' }] } }, true), { IP: '10.0.0.1', NODE: 'n1', 'NOMINATED NODE': '<none>', 'READINESS GATES': '1/1', AGE: '5m' });
  t.like(row('Node', {
    metadata: { labels: { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/etcd': 'true' } },
    status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '10.1.0.5' }], nodeInfo: { kubeletVersion: 'v1.34.0', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://2.0' } },
  }, true), { STATUS: 'Ready', ROLES: 'control-plane,etcd', VERSION: 'v1.34.0', 'INTERNAL-IP': '10.1.0.5', 'EXTERNAL-IP': '<none>', 'OS-IMAGE': 'Debian', 'KERNEL-VERSION': '6.1', 'CONTAINER-RUNTIME': 'containerd://2.0' });
  t.like(row('Node', { spec: { unschedulable: true } }), { STATUS: 'Unknown,SchedulingDisabled', ROLES: '<none>' });
  t.like(row('Service', { spec: { type: 'LoadBalancer', clusterIP: '10.96.0.10', selector: { tier: 'web', app: 'shop' }, ports: [{ port: 80, protocol: 'TCP' }, { port: 443, nodePort: 30443 }] } }, true), {
    TYPE: 'LoadBalancer', 'CLUSTER-IP': '10.96.0.10', 'EXTERNAL-IP': '<pending>', 'PORT(S)': '80/TCP,443:30443/TCP', SELECTOR: 'app=shop,tier=web',
  });
  t.like(row('Service', { spec: { type: 'LoadBalancer', clusterIP: 'None' }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { hostname: 'lb.example.com' }] } } }), { 'CLUSTER-IP': 'None', 'EXTERNAL-IP': '1.2.3.4,lb.example.com', 'PORT(S)': '<none>' });
  t.like(row('Service', { spec: { type: 'ExternalName', externalName: 'db.example.com' } }), { 'EXTERNAL-IP': 'db.example.com' });
  const template = { spec: { containers: [{ name: 'web', image: 'nginx:1' }, { name: 'proxy', image: 'envoy:2' }] } };
  t.like(row('Deployment', {
    spec: { replicas: 3, template, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }, { key: 'canary', operator: 'DoesNotExist' }] } },
    status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
  }, true), { READY: '2/3', 'UP-TO-DATE': '3', AVAILABLE: '2', CONTAINERS: 'web,proxy', IMAGES: 'nginx:1,envoy:2', SELECTOR: 'app=web,!canary,tier in (a,b)' });
  t.like(row('StatefulSet', { spec: {}, status: {} }), { READY: '0/1' });
  t.like(row('DaemonSet', { spec: { template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux' } } } }, status: { desiredNumberScheduled: 3, numberReady: 2 } }), { DESIRED: '3', CURRENT: '0', READY: '2', 'NODE SELECTOR': 'kubernetes.io/os=linux' });
  t.like(row('ConfigMap', { data: { a: '1' }, binaryData: { b: 'AA==' } }), { DATA: '2' });
  t.like(row('Secret', { data: { a: 'MQ==' } }), { TYPE: 'Opaque', DATA: '1' });
});

test('a CRD\'s printer columns: upper-cased headers, values by type, <none> when missing, priority > 0 only wide', (t) => {
  const crd = {
    spec: {
      versions: [
        { name: 'v1alpha1', additionalPrinterColumns: [{ name: 'Old', type: 'string', jsonPath: '.spec.old' }] },
        {
          name: 'v1',
          additionalPrinterColumns: [
            { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Ratio', type: 'number', jsonPath: '.status.ratio' },
            { name: 'Paused', type: 'boolean', jsonPath: '.spec.paused' },
            { name: 'Last Run', type: 'date', jsonPath: '.status.lastRun' },
            { name: 'Selector', type: 'string', jsonPath: '.spec.selector', priority: 1 },
            { name: 'Broken', type: 'string', jsonPath: '.spec[' },
          ],
        },
      ],
    },
  };
  const { columns, problems } = printerColumns(crd, 'v1');
  t.deepEqual(problems, ['column BROKEN: invalid JSONPath ".spec[": unclosed [ at position 5']);
  const object = at({ spec: { replicas: 3, paused: false, selector: { app: 'x' } }, status: { ratio: 0.5, lastRun: '2026-11-29T11:00:00Z', conditions: [{ type: 'Ready', status: 'True' }] } });
  const cells = (wide: boolean) => columnsFor('Widget', { custom: columns, wide }).map((c) => `${c.header}=${c.value(object, now)}`);
  t.deepEqual(cells(false), ['NAME=x', 'READY=True', 'REPLICAS=3', 'RATIO=0.5', 'PAUSED=false', 'LAST RUN=60m', 'BROKEN=<none>']);
  t.deepEqual(cells(true).slice(-2), ['SELECTOR={"app":"x"}', 'BROKEN=<none>']);
  t.deepEqual(columnsFor('Widget', { custom: columns }).map((c) => c.value(at({}), now)).slice(1, 4), ['<none>', '<none>', '<none>']);
  // No columns for the version (or none at all): kubectl's default, AGE.
  t.deepEqual(columnsFor('Widget', { custom: printerColumns(crd, 'v2').columns }).map((c) => c.header), ['NAME', 'AGE']);
  t.deepEqual(printerColumns({}, 'v1').columns.map((c) => c.header), ['AGE']);
});

test.serial('watch <custom resource> reads its CRD and shows its printer columns; -o wide adds the priority ones', async (t) => {
  const widgets: ResourceType = {
    group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true,
    printerColumns: [
      { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
      { name: 'Colour', type: 'string', jsonPath: '.spec.colour', priority: 1 },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  };
  const c = await cliCluster(t, { resources: [widgets] });
  c.server.create('widgets.example.com', { metadata: { name: 'small', namespace: 'default' }, spec: { size: 1, colour: 'red' } });
  c.server.create('widgets.example.com', { metadata: { name: 'unsized', namespace: 'default' }, spec: {} });
  const plain = c.cli(['watch', 'widgets']);
  const wide = c.cli(['watch', 'widgets', '-o', 'wide']);
  await plain.waitFor('stdout', /unsized/);
  await wide.waitFor('stdout', /unsized/);
  t.regex(plain.stdout(), /^NAME      SIZE     AGE\nsmall     1        \d+s\nunsized   <none>   \d+s\n$/);
  t.regex(wide.stdout(), /^NAME      SIZE     COLOUR   AGE\nsmall     1        red      \d+s\nunsized   <none>   <none>   \d+s\n$/);
  t.is(plain.stderr().includes('CustomResourceDefinition'), false, 'no warning');
  const crdReads = c.server.requests.filter((r) => r.resource === 'customresourcedefinitions.apiextensions.k8s.io');
  t.is(crdReads.length, 2, 'one read of the CRD per run');
  t.is(crdReads[0]!.query['fieldSelector'], 'metadata.name=widgets.example.com');
});

test.serial('a CRD the user may not read: NAME and AGE, and a warning saying so', async (t) => {
  const c = await cliCluster(t, { resources: [{ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, printerColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }] }] });
  c.server.create('widgets.example.com', { metadata: { name: 'small', namespace: 'default' }, spec: { size: 1 } });
  c.server.forbid({ resource: 'customresourcedefinitions.apiextensions.k8s.io' });
  const cli = c.cli(['watch', 'widgets']);
  await cli.waitFor('stdout', /small/);
  t.regex(cli.stdout(), /^NAME    AGE\nsmall   \d+s\n$/);
  t.regex(cli.stderr(), /^cannot read the CustomResourceDefinition widgets\.example\.com \(cannot list customresourcedefinitions\.apiextensions\.k8s\.io: forbidden .*\); showing NAME and AGE$/m);
});
