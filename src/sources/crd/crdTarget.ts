import type { ListWatchResource } from '../../client/listWatchResource.js';
import { kubernetesGroups } from '../../client/kubernetesGroups.js';
import { splitApiVersion } from '../../client/discoverResource.js';
import type { CrdGateTarget } from './crdGateStep.js';

/** @internal A resource followed through its CRD: the CRD's group, and its plural or kind. */
export interface CrdTarget extends CrdGateTarget {
  readonly group: string;
  readonly plural?: string;
  readonly kind?: string;
}

/** @internal The CRD target of a resource, or `undefined` for a resource of a group Kubernetes serves itself. */
export function crdTargetOf(resource: ListWatchResource): CrdTarget | undefined {
  if ('plural' in resource) {
    const group = resource.group ?? '';
    return kubernetesGroups.has(group) ? undefined : { crd: `${resource.plural}.${group}`, group, version: resource.version, plural: resource.plural };
  }
  const [group, version] = splitApiVersion(resource.apiVersion);
  return kubernetesGroups.has(group) ? undefined : { crd: `${resource.kind} in ${group}`, group, version, kind: resource.kind };
}
