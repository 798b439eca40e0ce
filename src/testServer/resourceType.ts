/**
 * A kind of object the test API server serves: where it lives in the API and how it is scoped.
 *
 * The built-ins are in {@link builtinResources}; a test adds a CRD-like resource by passing one of
 * these to `createTestApiServer({ resources })` or to `server.addResource()`.
 */
export interface ResourceType {
  /** API group; `""` for the core group (`/api/v1`). */
  readonly group: string;
  readonly version: string;
  /** Lower-case plural used in URLs, e.g. `configmaps`. */
  readonly plural: string;
  /** Kind of one object, e.g. `ConfigMap`. Lists are `<kind>List`. */
  readonly kind: string;
  /** Whether objects live in a namespace (`ns/name` keys) or at the cluster scope (`name` keys). */
  readonly namespaced: boolean;
  /** Lower-case singular; defaults to the lower-cased kind. */
  readonly singular?: string;
  readonly shortNames?: readonly string[];
  /**
   * Field-selector fields besides `metadata.name` and `metadata.namespace`, as dotted paths
   * (e.g. `spec.nodeName` for pods). Other fields are refused with 400 like the real server does.
   */
  readonly selectableFields?: readonly string[];
}

/** ConfigMaps, Pods, Namespaces and Nodes: the built-in resources every test server serves. */
export const builtinResources: readonly ResourceType[] = [
  { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
  {
    group: '',
    version: 'v1',
    plural: 'pods',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    selectableFields: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP'],
  },
  { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], selectableFields: ['status.phase'] },
  { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], selectableFields: ['spec.unschedulable'] },
];

/** `group/version`, or just `version` for the core group: the `apiVersion` of the resource's objects. */
export function apiVersionOf(resource: ResourceType): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}
