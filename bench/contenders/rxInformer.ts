/**
 * Contender: rx-informer, `listWatch` + `informer()` with default options; with `--strip`, the
 * source's `transform` is `stripManagedFields`. Watches `changes$` (each notification is delivered
 * once the snapshot holding it is current), so "seen" means "visible in a snapshot".
 * With `--src=<dir>`, imports the library from `<dir>/index.ts` instead: a patched copy of src/,
 * so a proposed fix is measured against the original in the same run (BENCH_RX_SRC in run.ts).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KubeObject } from 'rx-informer';
import { harness } from './harness.js';

const src = process.argv.find((arg) => arg.startsWith('--src='))?.slice('--src='.length);
const { informer, listWatch, stripManagedFields } = (src ? await import(pathToFileURL(resolve(src, 'index.ts')).href) : await import('rx-informer')) as typeof import('rx-informer');

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
