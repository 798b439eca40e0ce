/*
 * Conformance of the test API server against @kubernetes/client-node's own informer (makeInformer):
 * its list, its watch, and its handling of an in-stream 410.
 */
import test from 'ava';
import { CoreV1Api, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { createTestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';
import { configMap } from './apiServerClient.js';


test('client-node makeInformer sees adds, updates and deletes, and relists after an in-stream 410', async (t) => {
  const server = await createTestApiServer();
  const informer = makeInformer<V1ConfigMap>(server.kubeConfig, '/api/v1/namespaces/default/configmaps', () =>
    server.kubeConfig.makeApiClient(CoreV1Api).listNamespacedConfigMap({ namespace: 'default' }),
  );
  const seen: string[] = [];
  const errors: unknown[] = [];
  informer.on('add', (o) => seen.push(`add ${o.metadata?.name} ${o.data?.['k']}`));
  informer.on('update', (o) => seen.push(`update ${o.metadata?.name} ${o.data?.['k']}`));
  informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
  informer.on('error', (e) => errors.push(e));
  try {
    server.create('configmaps', configMap('default', 'one'));
    server.create('configmaps', configMap('other', 'elsewhere'));
    await informer.start();
    await server.waitForWatches(1);
    server.create('configmaps', configMap('default', 'two'));
    server.patch('configmaps', 'default', 'two', { data: { k: 'changed' } });
    server.delete('configmaps', 'default', 'one');
    await until(() => seen.length === 4, 'four events');
    t.deepEqual(seen, ['add one v', 'add two v', 'update two changed', 'delete one']);
    t.deepEqual(informer.list().map((o) => o.metadata?.name), ['two']);

    // A delete its watch never saw, then a compaction: the re-watch gets the 410 ERROR event,
    // and client-node relists and notices the delete.
    server.delete('configmaps', 'default', 'two', { broadcast: false });
    server.create('configmaps', configMap('default', 'three'), { broadcast: false });
    server.compact();
    server.closeWatches();
    await until(() => seen.length === 6, 'the relist', 8000);
    t.deepEqual(seen.slice(4).sort(), ['add three v', 'delete two']);
    await server.waitForWatches(1);
    const verbs = server.requests.filter((r) => r.verb !== undefined).map((r) => r.verb);
    t.deepEqual(verbs, ['list', 'watch', 'watch', 'list', 'watch']);
    t.deepEqual(errors, []);
  } finally {
    await informer.stop();
    await server.close();
  }
});
