/**
 * A pod controller: shared informers for pods and nodes, a reconcile queue fed by pod changes, and
 * a handler that reads the listers (the snapshots) instead of calling the API server.
 *
 * It reports pods bound to a node that does not exist and pods waiting in Pending, and looks at
 * them again every 30 s (`RECHECK_SECONDS`) until they are fixed.
 *
 * Run: npx tsx examples/podController.ts   (uses $KUBECONFIG or ~/.kube/config)
 */
import { KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { from, map, merge, mergeMap } from 'rxjs';
import { informerFactory, predicateFilter, predicates, reconcile, stripManagedFields, type Json } from 'rx-informer';

type Pod = Json<V1Pod>; // client-node's model as the cache holds it: plain JSON
const recheckMs = Number(process.env['RECHECK_SECONDS'] ?? 30) * 1000;

const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault();
const factory = informerFactory(kubeConfig, { transform: stripManagedFields });
const pods = factory.informer<Pod>(
  { version: 'v1', plural: 'pods' },
  { indexers: { node: (pod) => (pod.spec?.nodeName ? [pod.spec.nodeName] : []) } },
);
const nodes = factory.informer({ version: 'v1', plural: 'nodes' });

await factory.whenAllSynced();
console.log(`synced: ${pods.snapshot.size} pods on ${nodes.snapshot.size} nodes`);

// Every pod once at start (the caches are synced, so the handler sees the whole picture), then pods
// whose spec or phase changed, and, when a node comes or goes, the pods bound to it.
const changedPods = pods.changes$.pipe(
  predicateFilter(predicates.combine<Pod>(predicates.generation, (pod) => pod.status?.phase ?? '')),
  map((change) => change.key),
);
const podsOfChangedNodes = nodes.changes$.pipe(
  predicateFilter(predicates.resourceVersion),
  mergeMap((change) => pods.snapshot.indexKeys('node', change.key)),
);

const work = merge(from([...pods.snapshot.keys()]), changedPods, podsOfChangedNodes)
  .pipe(reconcile((key) => check(key), { concurrency: 4 }))
  .subscribe((outcome) => {
    if (outcome.result === 'error') console.error(`reconcile ${outcome.key} failed: ${String(outcome.error)}`);
  });

/** The reconcile handler: reads the caches, never the API server. */
function check(key: string): { requeueAfterMs: number } | undefined {
  const pod = pods.snapshot.get(key);
  if (pod === undefined) return undefined; // deleted meanwhile: nothing to do
  const node = pod.spec?.nodeName;
  if (node !== undefined && !nodes.snapshot.has(node)) {
    console.log(`${key}: bound to missing node ${node}`);
    return { requeueAfterMs: recheckMs };
  }
  if (pod.status?.phase === 'Pending') {
    console.log(`${key}: pending`);
    return { requeueAfterMs: recheckMs };
  }
  return undefined;
}

process.once('SIGINT', () => {
  work.unsubscribe();
  factory.dispose();
});
