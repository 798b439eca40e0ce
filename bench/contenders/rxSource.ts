/**
 * Contender (opt-in, `BENCH_CONTENDERS=rx-source`): rx-informer's `listWatch` alone, no informer.
 * Counts the listed items and reads each MODIFIED object as it arrives, so the difference between
 * this and `rx` is the cost of the informer pipeline and the difference between this and `raw` is
 * the cost of the source (HTTP client, line reader, event objects, status bookkeeping).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { pathToFileURL } from 'node:url';
import type { KubeObject } from 'rx-informer';
import { harness } from './harness.js';

// The compiled library the driver built (BENCH_RX_LIB: its index.js; bench/core/library.ts).
const { listWatch } = (await import(pathToFileURL(process.env.BENCH_RX_LIB!).href)) as typeof import('rx-informer');

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(process.env.BENCH_KUBECONFIG!);
const h = harness();

h.start();
let listed = 0;
listWatch<KubeObject>(kubeConfig, { version: 'v1', plural: 'configmaps' }, {
  onStatus: (s) => s.type === 'ERROR' && console.error('[rx-source]', s.error.message),
}).subscribe((event) => {
  if (event.type === 'LIST_PAGE') listed += event.items.length;
  else if (event.type === 'LIST_DONE') h.synced(listed);
  else if (event.type === 'MODIFIED') h.seen(event.object as never);
});
