import test from 'ava';
import { createServer } from 'node:http';
import { firstValueFrom } from 'rxjs';
import { KubeApiError, NotSyncedError } from '../../src/errors.js';
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import { discoverResource, splitResourceText } from '../../src/client/discoverResource.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { discoveryTestServer } from '../helpers/discoveryTestServer.js';
import { loopbackKubeConfig } from '../helpers/loopbackKubeConfig.js';

let server: TestApiServer;
test.before(async () => {
  server = await discoveryTestServer();
});
test.after.always(() => server?.close());

const pods = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
const cases: Array<[string, object]> = [
  ['pods', pods],
  ['pod', pods],
  ['po', pods],
  ['Pod', pods],
  ['PODS', pods],
  ['pods.metrics.k8s.io', { group: 'metrics.k8s.io', version: 'v1beta1', plural: 'pods', kind: 'PodMetrics', namespaced: true }],
  ['cm', { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true }],
  ['ns', { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false }],
  ['nodes', { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false }],
  ['deployments', { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true }],
  ['deploy', { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true }],
  ['deployments.apps', { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true }],
  ['deployments.v1.apps', { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true }],
  ['Deployment', { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true }],
  ['widgets.example.com', { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: false }],
  ['widget', { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: false }],
  ['wd', { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: false }],
];

for (const [text, expected] of cases) {
  test(`${text} resolves through discovery`, async (t) => {
    t.deepEqual(await firstValueFrom(discoverResource(server.kubeConfig, text)), expected);
  });
}

test('an unknown resource is a KubeApiError 404 naming it, in one attempt', async (t) => {
  const own = await createTestApiServer();
  t.teardown(() => own.close());
  const error = await t.throwsAsync(firstValueFrom(discoverResource(own.kubeConfig, 'foos')), { instanceOf: KubeApiError });
  t.is(error?.code, 404);
  t.is(error?.message, '[informer] cannot discover foos: not found (the server doesn\'t have a resource type "foos")');
  const paths = own.requests.map((r) => r.path);
  t.true(paths.includes('/api/v1') && paths.includes('/apis'), paths.join(' '));
  t.is(new Set(paths).size, paths.length, `each document once, no retries: ${paths.join(' ')}`);
});

test('a server without the discovery documents (not a Kubernetes API server) is its own 404: the path it lacks, the server\'s answer', async (t) => {
  const other = createServer((_req, res) => {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('404 page not found');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  t.teardown(() => void other.close());
  const kubeConfig = loopbackKubeConfig(other);
  for (const [text, path] of [['pods', '/api/v1'], ['deployments.apps', '/apis'], ['widgets', '/api/v1']] as const) {
    const error = await t.throwsAsync(firstValueFrom(discoverResource(kubeConfig, text)), { instanceOf: KubeApiError });
    t.like(error, { verb: 'discover', resource: path, code: 404, status: { message: '404 page not found' } }, text);
  }
});

test('bad arguments are a TypeError at call time', (t) => {
  t.throws(() => discoverResource({} as never, 'pods'), { instanceOf: TypeError, message: /KubeConfig/ });
  t.throws(() => discoverResource(server.kubeConfig, ' '), { instanceOf: TypeError, message: /non-empty string/ });
});

test('splitResourceText', (t) => {
  t.deepEqual(splitResourceText('pods'), { name: 'pods' });
  t.deepEqual(splitResourceText('deployments.apps'), { name: 'deployments', group: 'apps' });
  t.deepEqual(splitResourceText('widgets.example.com'), { name: 'widgets', group: 'example.com' });
  t.deepEqual(splitResourceText('cronjobs.v1beta1.batch'), { name: 'cronjobs', version: 'v1beta1', group: 'batch' });
});

test('a kind a built-in group version does not have fails the source at once (no CRD can add it); a group the server does not serve yet is waited for', async (t) => {
  // Issue 43: `{ apiVersion: 'v1', kind: 'Foo' }` retried at the slow end, so whenSynced waited its
  // whole timeout (5 s, the README's 60 s) to say "not found".
  const own = await createTestApiServer();
  t.teardown(() => own.close());
  const foos = informer(listWatch(own.kubeConfig, { apiVersion: 'v1', kind: 'Foo' }));
  const connection = foos.connect();
  t.teardown(() => connection.unsubscribe());
  const started = performance.now();
  const error = await t.throwsAsync(foos.whenSynced({ timeoutMs: 30_000 }), { instanceOf: NotSyncedError });
  t.is(error?.reason, 'failed');
  t.regex(error?.message ?? '', /cannot discover Foo in v1: not found \(the server has no resource of kind Foo in v1\)/);
  t.true(performance.now() - started < 10_000, `${Math.round(performance.now() - started)} ms`);
  const statuses: string[] = [];
  const gadgets = informer(listWatch(own.kubeConfig, { apiVersion: 'example.com/v1', kind: 'Gadget' }));
  const sub = gadgets.status$.subscribe((status) => statuses.push(status.type));
  const waiting = gadgets.connect();
  t.teardown(() => (waiting.unsubscribe(), sub.unsubscribe()));
  await t.throwsAsync(gadgets.whenSynced({ timeoutMs: 300 }), { instanceOf: NotSyncedError, message: /not synced after 300 ms/ });
  t.false(statuses.includes('FAILED'), statuses.join(' '));
});
