/**
 * An index by node name: which pods run where, kept up to date by the informer, queried with
 * `byIndex` / `indexKeys` / `indexValues` without scanning the cache.
 *
 * Run: npx tsx examples/indexByNode.ts   (uses $KUBECONFIG or ~/.kube/config)
 */
import { KubeConfig } from '@kubernetes/client-node';
import { debounceTime } from 'rxjs';
import { informer, listWatch, stripManagedFields, type KubeObject, type Snapshot } from 'rx-informer';

interface Pod extends KubeObject {
  readonly spec?: { readonly nodeName?: string };
}

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

// Print once synced, then at most once a second while pods change.
pods.snapshots$.pipe(debounceTime(1000)).subscribe((snapshot) => snapshot.synced && report(snapshot));
