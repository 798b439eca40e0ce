/**
 * A kind of object the test API server serves: where it lives in the API and how it is scoped.
 *
 * The built-ins are in {@link builtinResources}; a test adds a custom resource by passing one of
 * these to `createTestApiServer({ resources })` or to `server.addResource()`. A custom resource
 * (a group with a dot that is not a `*.k8s.io` group, such as `example.com`) also gets its
 * CustomResourceDefinition, named `<plural>.<group>`, under `customresourcedefinitions`, as
 * installing a CRD does on a real cluster.
 */
export interface ResourceType {
  /** API group; `""` for the core group (`/api/v1`). */
  readonly group: string;
  /** API version within the group, e.g. `v1`. */
  readonly version: string;
  /** Lower-case plural used in URLs, e.g. `configmaps`. */
  readonly plural: string;
  /** Kind of one object, e.g. `ConfigMap`. Lists are `<kind>List`. */
  readonly kind: string;
  /** Whether objects live in a namespace (`ns/name` keys) or at the cluster scope (`name` keys). */
  readonly namespaced: boolean;
  /** Lower-case singular; defaults to the lower-cased kind. */
  readonly singular?: string;
  /** Short names kubectl accepts (`cm` for `configmaps`), listed in discovery and the CRD. Default: none. */
  readonly shortNames?: readonly string[];
  /**
   * Field-selector fields besides `metadata.name` and `metadata.namespace`, as dotted paths
   * (e.g. `spec.nodeName` for pods). Other fields are refused with 400 like the real server does.
   */
  readonly selectableFields?: readonly string[];
  /**
   * The CRD's `additionalPrinterColumns` for this version (custom resources only): the columns
   * `kubectl get` shows. Absent: the CRD has none, and clients show NAME and AGE.
   */
  readonly printerColumns?: readonly PrinterColumn[];
  /**
   * `true`: the resource has a status subresource, as a CRD with `subresources.status` does: a
   * create, PUT or PATCH of the object leaves `status` alone and `/status` writes change only
   * `status`. Absent or `false` (the built-ins here, so tests can set a pod's phase directly):
   * `status` is an ordinary field, and `/status` writes change only `status` too.
   */
  readonly statusSubresource?: boolean;
}

/** One of a CRD version's `additionalPrinterColumns` (`apiextensions.k8s.io/v1` CustomResourceColumnDefinition). */
export interface PrinterColumn {
  /** The header, e.g. `Replicas` (kubectl upper-cases it). */
  readonly name: string;
  /** `string`, `integer`, `number`, `boolean` or `date` (shown as an age). */
  readonly type: string;
  /** A simple JSONPath into the object, e.g. `.spec.replicas`. */
  readonly jsonPath: string;
  /** What the column shows, for people (the table's column definition). */
  readonly description?: string;
  /** Above 0: shown only with `-o wide`. */
  readonly priority?: number;
  /** A hint on how to show the value, as in OpenAPI (`name` for the name column, `date`, …). */
  readonly format?: string;
}

/** ConfigMaps, Pods, Namespaces, Nodes, CustomResourceDefinitions, events.k8s.io Events and coordination.k8s.io Leases: the built-in resources every test server serves. */
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
  { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'] },
  // What controllers record (events.k8s.io/v1, as kube-rs's and controller-runtime's recorders write them).
  { group: 'events.k8s.io', version: 'v1', plural: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'] },
  // Leader election and shard membership.
  { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true },
];

/** Collection id of the CustomResourceDefinitions (`server.list(customResourceDefinitions)`). @internal */
export const customResourceDefinitions = 'customresourcedefinitions.apiextensions.k8s.io';

/**
 * Whether a resource type is a custom resource, which gets a CRD: its group has a dot and is not a
 * Kubernetes group (`*.k8s.io`, served by the API server itself or an aggregated API).
 */
export function isCustomResource(resource: Pick<ResourceType, 'group'>): boolean {
  return resource.group.includes('.') && !resource.group.endsWith('.k8s.io');
}

/** `group/version`, or just `version` for the core group: the `apiVersion` of the resource's objects. */
export function apiVersionOf(resource: ResourceType): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}
