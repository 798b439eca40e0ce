/**
 * Contender: @kubernetes/client-node 2.x `makeInformer` on /api/v1/configmaps, listing with
 * CoreV1Api.listConfigMapForAllNamespaces (one unpaged LIST, as its examples do). `start()`
 * resolves once the list is cached and the watch is started. The test server's kubeconfig sets
 * skipTLSVerify, without which client-node refuses http://.
 */
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { harness } from './harness.js';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(process.env.BENCH_KUBECONFIG!);
const api = kubeConfig.makeApiClient(CoreV1Api);
const h = harness();

h.start();
const inf = makeInformer<V1ConfigMap>(kubeConfig, '/api/v1/configmaps', () => api.listConfigMapForAllNamespaces());
inf.on('update', (object) => h.seen(object as never));
inf.on('error', (error) => {
  console.error('[client-node]', error);
  process.exit(1);
});
await inf.start();
h.synced(inf.list().length);
