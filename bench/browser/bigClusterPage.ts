/// <reference lib="dom" />
/**
 * The page of `npm run bench:browser`: pods and nodes through the relay, the pods in a windowed
 * table redrawn at most ten times a second. It keeps, for the driver to read: the renders, and per
 * render the lag of the DOM behind the server (now minus the `bench/at` annotation of the newest
 * change the drawn snapshot holds).
 */
import { informer, type KubeObject } from 'rx-informer';
import { relayConnection } from 'rx-informer/web';
import { windowedTable } from '../../examples/web/windowedTable.js';

const relay = relayConnection({ url: '/k8s-relay' });
const pods = informer<KubeObject>(relay.listWatch({ version: 'v1', plural: 'pods' }));
const nodes = informer<KubeObject>(relay.listWatch({ version: 'v1', plural: 'nodes' }));
const stats = { renders: 0, lags: [] as number[], newestAt: 0, synced: false, pods: 0, nodes: 0 };
(globalThis as { benchStats?: typeof stats }).benchStats = stats;

const at = (object: KubeObject): number => Number(object.metadata?.annotations?.['bench/at'] ?? 0);
for (const source of [pods, nodes]) {
  source.changes$.subscribe((change) => {
    if (change.type !== 'delete') stats.newestAt = Math.max(stats.newestAt, at(change.object as KubeObject));
  });
}
const viewport = document.createElement('div');
viewport.style.height = '600px';
document.body.append(viewport);
windowedTable(viewport, pods.snapshots$, [(pod) => pod.metadata?.namespace ?? '', (pod) => pod.metadata?.name ?? '', (pod) => String(at(pod))], { perSecond: 10 });
new MutationObserver(() => {
  stats.renders++;
  stats.synced = pods.snapshot.synced && nodes.snapshot.synced;
  stats.pods = pods.snapshot.size;
  stats.nodes = nodes.snapshot.size;
  if (stats.newestAt > 0) stats.lags.push(Date.now() - stats.newestAt);
}).observe(viewport, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-size'] });
pods.connect();
nodes.connect();
