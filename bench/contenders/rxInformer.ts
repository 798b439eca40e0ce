/**
 * Contender: rx-informer, `listWatch` + `informer()` with default options; with `--strip`, the
 * source's `transform` is `stripManagedFields`. Watches `changes$` (each notification is delivered
 * once the snapshot holding it is current), so "seen" means "visible in a snapshot".
 */
import { KubeConfig } from '@kubernetes/client-node';
import { informer, listWatch, stripManagedFields, type KubeObject } from 'rx-informer';
import { harness } from './harness.js';

const strip = process.argv.includes('--strip');
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(process.env.BENCH_KUBECONFIG!);
const h = harness();

h.start();
const cms = informer<KubeObject>(
  listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, {
    ...(strip ? { transform: stripManagedFields } : {}),
    onStatus: (s) => s.type === 'ERROR' && console.error('[rx-informer]', s.error.message),
  }),
);
cms.changes$.subscribe((change) => {
  if (change.type === 'update') h.seen(change.object as never);
});
const snapshot = await cms.whenSynced();
h.synced(snapshot.size);
