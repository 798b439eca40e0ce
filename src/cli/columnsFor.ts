import type { KubeObject } from '../index.js';

/** A per-kind column of the table: its header and how to get its text from an object. */
export interface Column {
  readonly header: string;
  readonly value: (object: KubeObject) => string;
}

type Json = Record<string, unknown>;

const field = (object: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Json)[key] : undefined), object);
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const text = (value: unknown, fallback = '<none>'): string => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : fallback);

/** The columns `kubectl get` shows between NAME and AGE, for the kinds it knows; none for others. */
const byKind: Record<string, readonly Column[]> = {
  Pod: [
    { header: 'READY', value: (p) => { const s = list(field(p, 'status', 'containerStatuses')); const n = Math.max(s.length, list(field(p, 'spec', 'containers')).length); return `${s.filter((c) => c['ready'] === true).length}/${n}`; } },
    { header: 'STATUS', value: podStatus },
    { header: 'RESTARTS', value: (p) => String(list(field(p, 'status', 'containerStatuses')).reduce((sum, c) => sum + (typeof c['restartCount'] === 'number' ? c['restartCount'] : 0), 0)) },
    { header: 'NODE', value: (p) => text(field(p, 'spec', 'nodeName')) },
  ],
  Node: [
    { header: 'STATUS', value: nodeStatus },
    { header: 'VERSION', value: (n) => text(field(n, 'status', 'nodeInfo', 'kubeletVersion'), '') },
  ],
  Namespace: [{ header: 'STATUS', value: (n) => text(field(n, 'status', 'phase'), 'Active') }],
  ConfigMap: [{ header: 'DATA', value: (c) => String(Object.keys(field(c, 'data') ?? {}).length + Object.keys(field(c, 'binaryData') ?? {}).length) }],
  Secret: [
    { header: 'TYPE', value: (s) => text(field(s, 'type'), 'Opaque') },
    { header: 'DATA', value: (s) => String(Object.keys(field(s, 'data') ?? {}).length) },
  ],
  Deployment: [
    { header: 'READY', value: (d) => `${text(field(d, 'status', 'readyReplicas'), '0')}/${text(field(d, 'spec', 'replicas'), '1')}` },
    { header: 'UP-TO-DATE', value: (d) => text(field(d, 'status', 'updatedReplicas'), '0') },
    { header: 'AVAILABLE', value: (d) => text(field(d, 'status', 'availableReplicas'), '0') },
  ],
  Service: [
    { header: 'TYPE', value: (s) => text(field(s, 'spec', 'type'), 'ClusterIP') },
    { header: 'CLUSTER-IP', value: (s) => text(field(s, 'spec', 'clusterIP')) },
  ],
};

/**
 * The kind-specific columns for a resource (pods: READY, STATUS, RESTARTS, NODE; nodes: STATUS,
 * VERSION; …). Metadata-only watches get none, as the objects have no spec or status.
 *
 * @param kind the resource's kind, e.g. `Pod`.
 * @param metadataOnly whether objects are `PartialObjectMetadata`.
 */
export function columnsFor(kind: string, metadataOnly = false): readonly Column[] {
  return metadataOnly ? [] : (byKind[kind] ?? []);
}

/** kubectl's pod STATUS, simplified: Terminating, a waiting/terminated container reason, the pod reason, or the phase. */
function podStatus(pod: KubeObject): string {
  if (field(pod, 'metadata', 'deletionTimestamp')) return 'Terminating';
  for (const c of list(field(pod, 'status', 'containerStatuses'))) {
    const reason = field(c, 'state', 'waiting', 'reason') ?? field(c, 'state', 'terminated', 'reason');
    if (typeof reason === 'string' && reason !== '') return reason;
  }
  return text(field(pod, 'status', 'reason'), text(field(pod, 'status', 'phase'), 'Pending'));
}

function nodeStatus(node: KubeObject): string {
  const ready = list(field(node, 'status', 'conditions')).find((c) => c['type'] === 'Ready');
  const status = ready?.['status'] === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  return field(node, 'spec', 'unschedulable') === true ? `${status},SchedulingDisabled` : status;
}
