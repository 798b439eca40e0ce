import type { StoredObject } from './storedObject.js';

/** A column of a Table, as `meta.k8s.io/v1` defines it, with how the server fills its cells. */
interface Column {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
  readonly cell: (object: StoredObject['object'], now: number) => unknown;
}

type Json = StoredObject['object'];
const record = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const nameColumn: Column = { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0, cell: (object) => object.metadata?.name ?? '' };
const ageColumn: Column = {
  name: 'Age',
  type: 'string',
  format: '',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  priority: 0,
  cell: (object, now) => {
    const created = Date.parse(String(object.metadata?.['creationTimestamp'] ?? ''));
    return Number.isNaN(created) ? '<unknown>' : age(now - created);
  },
};

/** The number of keys in `data` and `binaryData` (ConfigMaps, Secrets). */
const dataCount = (object: Json): number => Object.keys(record(object['data'])).length + Object.keys(record(object['binaryData'])).length;

/**
 * The columns kube-apiserver's printers give these kinds (the ones `kubectl get` shows, wide ones
 * at priority 1); every other kind gets Name and Age, as a CRD without printer columns does.
 */
const columnsByKind: Readonly<Record<string, readonly Column[]>> = {
  Pod: [
    nameColumn,
    { name: 'Ready', type: 'string', format: '', description: 'The aggregate readiness state of this pod for accepting traffic.', priority: 0, cell: podReady },
    { name: 'Status', type: 'string', format: '', description: 'The aggregate status of the containers in this pod.', priority: 0, cell: podStatus },
    {
      name: 'Restarts',
      type: 'string',
      format: '',
      description: 'The number of times the containers in this pod have been restarted.',
      priority: 0,
      cell: (object) => String(list(record(object['status'])['containerStatuses']).reduce<number>((sum, status) => sum + (Number(record(status)['restartCount']) || 0), 0)),
    },
    ageColumn,
    { name: 'IP', type: 'string', format: '', description: 'IP address allocated to the pod.', priority: 1, cell: (object) => record(object['status'])['podIP'] ?? '<none>' },
    { name: 'Node', type: 'string', format: '', description: 'Name of the node the pod is assigned to.', priority: 1, cell: (object) => record(object['spec'])['nodeName'] ?? '<none>' },
  ],
  ConfigMap: [nameColumn, { name: 'Data', type: 'integer', format: '', description: 'The number of keys in data and binaryData.', priority: 0, cell: dataCount }, ageColumn],
  Secret: [
    nameColumn,
    { name: 'Type', type: 'string', format: '', description: 'The type of the secret.', priority: 0, cell: (object) => object['type'] ?? 'Opaque' },
    { name: 'Data', type: 'integer', format: '', description: 'The number of keys in data.', priority: 0, cell: dataCount },
    ageColumn,
  ],
};

/**
 * A `meta.k8s.io/v1` Table of `items` of `kind`, as `kubectl get` asks for with
 * `Accept: application/json;as=Table;…`: the columns kube-apiserver gives Pods, ConfigMaps and
 * Secrets, Name and Age for the rest. Rows carry the object as PartialObjectMetadata, the full
 * object or nothing, per `includeObject` (`Metadata` by default, `Object`, `None`).
 *
 * @internal
 */
export function tableOf(kind: string, items: readonly StoredObject[], rv: string, continueToken: string | undefined, includeObject: string | null, withColumns: boolean): unknown {
  const now = Date.now();
  const columns = columnsByKind[kind] ?? [nameColumn, ageColumn];
  const rows = items.map((stored) => {
    const cells = columns.map((column) => column.cell(stored.object, now));
    if (includeObject === 'None') return { cells };
    const object = includeObject === 'Object' ? stored.object : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: stored.object.metadata ?? {} };
    return { cells, object };
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: continueToken === undefined ? { resourceVersion: rv } : { resourceVersion: rv, continue: continueToken },
    ...(withColumns ? { columnDefinitions: columns.map(({ cell: _cell, ...definition }) => definition) } : {}),
    rows,
  };
}

/** `ready/total` containers. */
function podReady(object: Json): string {
  const statuses = list(record(object['status'])['containerStatuses']);
  const ready = statuses.filter((status) => record(status)['ready'] === true).length;
  return `${ready}/${list(record(object['spec'])['containers']).length}`;
}

/** The phase, or the pod's or a container's reason (waiting, terminated), or Terminating, as kubectl shows it. */
function podStatus(object: Json): string {
  const status = record(object['status']);
  let reason = String(status['reason'] ?? status['phase'] ?? '');
  for (const container of list(status['containerStatuses'])) {
    const state = record(record(container)['state']);
    const waiting = record(state['waiting'])['reason'];
    const terminated = record(state['terminated']);
    if (typeof waiting === 'string' && waiting !== '') reason = waiting;
    else if (typeof terminated['reason'] === 'string' && terminated['reason'] !== '') reason = terminated['reason'];
  }
  if (object.metadata?.['deletionTimestamp'] !== undefined) reason = status['reason'] === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h}h` : `${Math.floor(h / 24)}d`;
}
