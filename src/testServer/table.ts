import type { StoredObject } from './storedObject.js';

const columns = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
  { name: 'Age', type: 'string', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', priority: 0 },
];

/**
 * A `meta.k8s.io/v1` Table of `items` (columns Name and Age), as `kubectl get` asks for with
 * `Accept: application/json;as=Table;…`. Rows carry the object as PartialObjectMetadata, the full
 * object or nothing, per `includeObject` (`Metadata` by default, `Object`, `None`).
 *
 * @internal
 */
export function tableOf(items: readonly StoredObject[], rv: string, continueToken: string | undefined, includeObject: string | null, withColumns: boolean): unknown {
  const now = Date.now();
  const rows = items.map((stored) => {
    const meta = stored.object.metadata ?? {};
    const created = Date.parse(String(meta['creationTimestamp'] ?? ''));
    const cells = [meta.name ?? '', Number.isNaN(created) ? '<unknown>' : age(now - created)];
    if (includeObject === 'None') return { cells };
    const object = includeObject === 'Object' ? stored.object : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: meta };
    return { cells, object };
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: continueToken === undefined ? { resourceVersion: rv } : { resourceVersion: rv, continue: continueToken },
    ...(withColumns ? { columnDefinitions: columns } : {}),
    rows,
  };
}

function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h}h` : `${Math.floor(h / 24)}d`;
}
