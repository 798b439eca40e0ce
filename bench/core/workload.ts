/** The objects of the benchmark: ConfigMaps of ~1.5 KB as a Helm-managed cluster holds them. */

const NAMESPACES = 50;

export const namespaceOf = (i: number): string => `team-${i % NAMESPACES}`;
export const nameOf = (i: number): string => `app-config-${i}`;

/** ConfigMap number `i`: labels, annotations, a managedFields entry, and ~600 bytes of data. */
export function benchObject(i: number): object {
  const app = `service-${i % 400}`;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: nameOf(i),
      namespace: namespaceOf(i),
      labels: {
        'app.kubernetes.io/name': app,
        'app.kubernetes.io/instance': `${app}-prod`,
        'app.kubernetes.io/component': i % 3 === 0 ? 'frontend' : 'backend',
        'app.kubernetes.io/part-of': `platform-${i % 12}`,
        'app.kubernetes.io/managed-by': 'Helm',
        'helm.sh/chart': `${app}-1.${i % 20}.3`,
      },
      annotations: {
        'meta.helm.sh/release-name': `${app}-prod`,
        'meta.helm.sh/release-namespace': namespaceOf(i),
        'checksum/config': (i * 2654435761 >>> 0).toString(16).padStart(8, '0').repeat(8),
      },
      managedFields: [
        {
          manager: 'helm',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-11-01T08:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:data': { '.': {}, 'f:application.yaml': {}, 'f:LOG_LEVEL': {}, 'f:FEATURE_FLAGS': {} },
            'f:metadata': {
              'f:annotations': { '.': {}, 'f:meta.helm.sh/release-name': {}, 'f:meta.helm.sh/release-namespace': {}, 'f:checksum/config': {} },
              'f:labels': {
                '.': {},
                'f:app.kubernetes.io/component': {},
                'f:app.kubernetes.io/instance': {},
                'f:app.kubernetes.io/managed-by': {},
                'f:app.kubernetes.io/name': {},
                'f:app.kubernetes.io/part-of': {},
                'f:helm.sh/chart': {},
              },
            },
          },
        },
      ],
    },
    data: {
      'application.yaml': `server:\n  port: ${8000 + (i % 100)}\n  threads: ${4 + (i % 8)}\ndatabase:\n  url: postgres://db-${i % 16}.${namespaceOf(i)}.svc:5432/${app}\n  pool: ${10 + (i % 10)}\ncache:\n  ttl: ${60 * (1 + (i % 5))}s\n`,
      LOG_LEVEL: i % 10 === 0 ? 'debug' : 'info',
      FEATURE_FLAGS: 'checkout-v2,search-ranking,async-export',
    },
  };
}

/**
 * ConfigMap number `i` as JSON, with a resourceVersion, a uid and a creation time (as a server
 * would stamp it) and, when `seq` is given, the benchmark's sequence annotation: the text the
 * in-process benchmarks (floor, pipeline, stages) parse.
 */
export function stampedJson(i: number, rv: number, seq?: number): string {
  const object = benchObject(i) as { metadata: Record<string, unknown> };
  object.metadata.resourceVersion = String(rv);
  object.metadata.uid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  object.metadata.creationTimestamp = '2026-11-01T08:00:00Z';
  if (seq !== undefined) object.metadata.annotations = { ...(object.metadata.annotations as object), 'bench.rx-informer.dev/seq': String(seq) };
  return JSON.stringify(object);
}
