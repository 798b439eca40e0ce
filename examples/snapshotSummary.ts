/**
 * A snapshot stream rendered as a summary: the pods per phase and per namespace, computed from the
 * immutable snapshot (its frozen objects are read in place, never copied), printed at most once a
 * second and only when it changes.
 *
 * Run: npx tsx examples/snapshotSummary.ts   (uses $KUBECONFIG or ~/.kube/config)
 */
import { KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { distinctUntilChanged, filter, map, sampleTime } from 'rxjs';
import { informer, listWatch, stripManagedFields, type Json, type Snapshot } from 'rx-informer';

type Pod = Json<V1Pod>; // client-node's model as the cache holds it: plain JSON

const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault();
const pods = informer(listWatch<Pod>(kubeConfig, { version: 'v1', plural: 'pods' }, { transform: stripManagedFields }));

function summarize(snapshot: Snapshot<Pod>): string {
  const phases = new Map<string, number>();
  const namespaces = new Set<string>();
  for (const pod of snapshot.values()) {
    const phase = pod.status?.phase ?? 'Unknown';
    phases.set(phase, (phases.get(phase) ?? 0) + 1);
    namespaces.add(pod.metadata?.namespace ?? '');
  }
  const byPhase = [...phases].sort(([a], [b]) => a.localeCompare(b)).map(([phase, count]) => `${phase}=${count}`);
  return `${snapshot.size} pods in ${namespaces.size} namespaces: ${byPhase.join(' ')}`;
}

pods.snapshots$
  .pipe(
    filter((snapshot) => snapshot.synced),
    sampleTime(1000), // the newest snapshot of each second that saw one

    map(summarize),
    distinctUntilChanged(), // only a summary that differs from the last one printed
  )
  .subscribe((line) => console.log(line));
