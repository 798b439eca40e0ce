/**
 * Tests of the widget sizer with vitest on a real API server, a namespace per test:
 *
 *   cd examples/envtest/vitest && npm install && npm test
 */
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { expect, inject, test } from 'vitest';
import { testNamespace } from '../namespace.js';
import { sizeByColour, widgetInformer, widgets } from '../widgets.js';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(inject('kubeConfigPath'));
const objects = kubeConfig.makeApiClient(CustomObjectsApi);

test('sizes add up per colour', async ({ task, onTestFinished }) => {
  const namespace = await testNamespace(kubeConfig, task.name);
  for (const [name, colour, size] of [['a', 'red', 1], ['b', 'blue', 5]] as const) {
    await objects.createNamespacedCustomObject({ ...widgets, namespace, body: { apiVersion: 'envtest.rx-informer.dev/v1', kind: 'Widget', metadata: { name }, spec: { colour, size } } });
  }
  const cache = widgetInformer(kubeConfig, namespace);
  const connection = cache.connect();
  onTestFinished(() => connection.unsubscribe());
  await cache.whenSynced({ timeoutMs: 10_000 });
  expect(sizeByColour(cache)).toEqual({ red: 1, blue: 5 });
});
