/**
 * An index by node name: which pods run where, kept up to date by the informer, queried with
 * `indexValues` / `indexKeys` without scanning the cache. It prints the counts once synced, then at
 * most once a second while pods change (and the last state after the changes stop).
 *
 * Run: npx tsx examples/indexByNode.ts   (uses $KUBECONFIG or ~/.kube/config)
 */
import { KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { asyncScheduler, filter, throttleTime } from 'rxjs';
import { informer, listWatch, stripManagedFields, type Json, type Snapshot } from 'rx-informer';

type Pod = Json<V1Pod>; // client-node's model as the cache holds it: plain JSON

const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault();
const pods = informer(listWatch<Pod>(kubeConfig, { version: 'v1', plural: 'pods' }, { transform: stripManagedFields }), {
  indexers: { node: (pod) => [pod.spec?.nodeName ?? '(unscheduled)'] },
});

function report(snapshot: Snapshot<Pod>): void {
  const rows = snapshot
    .indexValues('node')
    .map((node) => [node, snapshot.indexKeys('node', node).length] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  console.log(`pods by node at resourceVersion ${snapshot.resourceVersion}:`);
  for (const [node, count] of rows) console.log(`  ${node}: ${count}`);
}

// The synced snapshot at once; then the newest one at most once a second (throttle's leading and
// trailing edges: a busy cluster still gets a report every second, a quiet one its last change).
pods.snapshots$
  .pipe(
    filter((snapshot) => snapshot.synced),
    throttleTime(1000, asyncScheduler, { leading: true, trailing: true }),
  )
  .subscribe(report);
