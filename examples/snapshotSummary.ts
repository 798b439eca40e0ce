/**
 * A snapshot stream rendered as a summary: every second, the pods per phase and per namespace,
 * computed from the immutable snapshot (iteration without copying).
 *
 * Run: npx tsx examples/snapshotSummary.ts   (uses $KUBECONFIG or ~/.kube/config)
 */
import { KubeConfig } from '@kubernetes/client-node';
import { distinctUntilChanged, filter, map, sampleTime } from 'rxjs';
import { informer, listWatch, stripManagedFields, type KubeObject, type Snapshot } from 'rx-informer';

interface Pod extends KubeObject {
  readonly status?: { readonly phase?: string };
}

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
    sampleTime(1000),
    map(summarize),
    distinctUntilChanged(),
  )
  .subscribe((line) => console.log(line));
