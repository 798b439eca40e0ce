/**
 * Tests of the widget sizer with node:test on a real API server, a namespace per test:
 *
 *   npx tsx --test --test-global-setup=examples/envtest/node-test/globalSetup.ts 'examples/envtest/node-test/*.test.ts'
 */
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testNamespace } from '../namespace.js';
import { sizeByColour, widgetInformer, widgets } from '../widgets.js';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault(); // KUBECONFIG, set by the global setup
const objects = kubeConfig.makeApiClient(CustomObjectsApi);

test('sizes add up per colour', async (t) => {
  const namespace = await testNamespace(kubeConfig, t.name);
  for (const [name, colour, size] of [['a', 'red', 2], ['b', 'red', 3], ['c', 'blue', 1]] as const) {
    await objects.createNamespacedCustomObject({ ...widgets, namespace, body: { apiVersion: 'envtest.rx-informer.dev/v1', kind: 'Widget', metadata: { name }, spec: { colour, size } } });
  }
  const cache = widgetInformer(kubeConfig, namespace);
  const connection = cache.connect();
  t.after(() => connection.unsubscribe());
  await cache.whenSynced({ timeoutMs: 10_000 });
  assert.deepEqual(sizeByColour(cache), { red: 5, blue: 1 });
});

test('the server applies the schema: a default size of 1, an unknown colour refused', async (t) => {
  const namespace = await testNamespace(kubeConfig, t.name);
  const created = (await objects.createNamespacedCustomObject({ ...widgets, namespace, body: { apiVersion: 'envtest.rx-informer.dev/v1', kind: 'Widget', metadata: { name: 'plain' }, spec: { colour: 'green' } } })) as { spec: { size: number } };
  assert.equal(created.spec.size, 1);
  await assert.rejects(objects.createNamespacedCustomObject({ ...widgets, namespace, body: { apiVersion: 'envtest.rx-informer.dev/v1', kind: 'Widget', metadata: { name: 'odd' }, spec: { colour: 'pink' } } }), /Unsupported value: [\\"]*pink/);
});
