import type { KubeConfig } from '@kubernetes/client-node';
import { firstValueFrom, fromEvent, takeUntil } from 'rxjs';
import { httpListerWatcher, type DiscoveredResource } from 'rx-informer';
import type { Column } from './column.js';
import { printerColumns } from './printerColumns.js';

/** A custom resource's columns, or why there are none. */
export interface CrdColumns {
  /** After NAME; undefined when the resource has no CRD (a built-in or an aggregated API). */
  readonly columns?: readonly Column[];
  /** What could not be used, to say once. */
  readonly warning?: string;
}

/**
 * Reads the CustomResourceDefinition of a resource (`<plural>.<group>`, one LIST with a field
 * selector) and gives the printer columns of the version being watched, as `kubectl get` shows
 * them. Only a group with a dot can be a CRD's; a resource with none (an aggregated API) or a CRD
 * the user may not read leaves NAME and AGE, with a warning for the latter.
 *
 * @param kubeConfig the cluster.
 * @param resource the resource being watched.
 * @param signal aborts the request.
 */
export async function crdColumns(kubeConfig: KubeConfig, resource: DiscoveredResource, signal: AbortSignal): Promise<CrdColumns> {
  if (!resource.group.includes('.')) return {};
  const name = `${resource.plural}.${resource.group}`;
  const crds = httpListerWatcher(kubeConfig, { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' }, { fieldSelector: `metadata.name=${name}` });
  try {
    const page = await firstValueFrom(crds.list({}).pipe(takeUntil(fromEvent(signal, 'abort'))));
    const crd = page.items[0];
    if (crd === undefined) return {};
    const { columns, problems } = printerColumns(crd, resource.version);
    return problems.length === 0 ? { columns } : { columns, warning: `the CustomResourceDefinition ${name}: ${problems.join('; ')}` };
  } catch (error) {
    if (signal.aborted) throw error;
    return { warning: `cannot read the CustomResourceDefinition ${name} (${(error as Error).message.replace(/^\[informer\] /, '')}); showing NAME and AGE` };
  } finally {
    crds.closeIdleConnections?.();
  }
}
