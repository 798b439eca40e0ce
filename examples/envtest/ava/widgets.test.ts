/**
 * Tests of the widget sizer with ava on a real API server, a namespace per test (run through
 * withControlPlane.ts, which starts one control plane for the run).
 */
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import test from 'ava';
import { testNamespace } from '../namespace.js';
import { sizeByColour, widgetInformer, widgets } from '../widgets.js';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault(); // KUBECONFIG, set by withControlPlane.ts
const objects = kubeConfig.makeApiClient(CustomObjectsApi);

test('sizes add up per colour, and follow an update', async (t) => {
  const namespace = await testNamespace(kubeConfig, t.title);
  for (const [name, colour, size] of [['a', 'green', 4], ['b', 'blue', 2]] as const) {
    await objects.createNamespacedCustomObject({ ...widgets, namespace, body: { apiVersion: 'envtest.rx-informer.dev/v1', kind: 'Widget', metadata: { name }, spec: { colour, size } } });
  }
  const cache = widgetInformer(kubeConfig, namespace);
  const connection = cache.connect();
  t.teardown(() => connection.unsubscribe());
  await cache.whenSynced({ timeoutMs: 10_000 });
  t.deepEqual(sizeByColour(cache), { green: 4, blue: 2 });
  await objects.patchNamespacedCustomObject({ ...widgets, namespace, name: 'b', body: [{ op: 'replace', path: '/spec/colour', value: 'green' }] });
  const deadline = Date.now() + 10_000;
  while (sizeByColour(cache)['green'] !== 6 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  t.deepEqual(sizeByColour(cache), { green: 6 });
});

test('tests of one run share the control plane and stay apart by namespace', async (t) => {
  const namespace = await testNamespace(kubeConfig, t.title);
  const cache = widgetInformer(kubeConfig, namespace);
  const connection = cache.connect();
  t.teardown(() => connection.unsubscribe());
  t.is((await cache.whenSynced({ timeoutMs: 10_000 })).size, 0, 'the other test\'s widgets are not here');
});
