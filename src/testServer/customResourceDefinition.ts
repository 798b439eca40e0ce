import type { ResourceType } from './resourceType.js';
import type { JsonObject } from './storedObject.js';

/**
 * The `apiextensions.k8s.io/v1` CustomResourceDefinition that serves `resource`: named
 * `<plural>.<group>`, one served and stored version with an open schema, a status subresource, the
 * resource's printer columns, and an `Established` status, as the API server reports an installed CRD.
 *
 * @internal
 */
export function customResourceDefinitionOf(resource: ResourceType): JsonObject {
  const names = {
    plural: resource.plural,
    singular: resource.singular ?? resource.kind.toLowerCase(),
    kind: resource.kind,
    listKind: `${resource.kind}List`,
    ...(resource.shortNames && resource.shortNames.length > 0 ? { shortNames: [...resource.shortNames] } : {}),
  };
  const version: Record<string, unknown> = {
    name: resource.version,
    served: true,
    storage: true,
    schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    subresources: { status: {} },
  };
  if (resource.printerColumns && resource.printerColumns.length > 0) version['additionalPrinterColumns'] = resource.printerColumns.map((column) => ({ ...column }));
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${resource.plural}.${resource.group}` },
    spec: { group: resource.group, names, scope: resource.namespaced ? 'Namespaced' : 'Cluster', versions: [version] },
    status: {
      acceptedNames: names,
      storedVersions: [resource.version],
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
        { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
      ],
    },
  };
}
