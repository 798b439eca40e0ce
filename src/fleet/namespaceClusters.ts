import type { KubeConfig } from '@kubernetes/client-node';
import { defer } from 'rxjs';
import { informer } from '../informer/informer.js';
import { listWatch } from '../sources/listWatch.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { FleetProvider } from './clusterEngagement.js';
import { objectClusters } from './objectClusters.js';

/** Options of {@link namespaceClusters}. */
export interface NamespaceClustersOptions {
  /** Only the namespaces with these labels are clusters (selector text, e.g. `fleet=demo`). */
  readonly labelSelector?: string;
}

/**
 * A provider that makes each namespace of one server a cluster (multicluster-runtime's
 * `namespace` provider): for tests and demos of fleets with one API server. The cluster is named
 * after the namespace, its credentials are `kubeConfig`, and its informers read namespaced
 * resources in that namespace (a cluster-scoped resource is the whole server's in every one).
 * A namespace created joins the fleet, one deleted leaves it. Namespaces are followed with an
 * informer of the provider's own, which runs while the provider is subscribed.
 *
 * @param kubeConfig the server's credentials.
 * @param options which namespaces are clusters.
 */
export function namespaceClusters(kubeConfig: KubeConfig, options: NamespaceClustersOptions = {}): FleetProvider {
  const config = options.labelSelector !== undefined ? { labelSelector: options.labelSelector } : {};
  // An informer per subscription: each subscriber is told every namespace from the first list on.
  return defer(() => informer<KubeObject>(listWatch(kubeConfig, { version: 'v1', plural: 'namespaces' }, config), { name: 'namespaces (fleet provider)' }).changes$).pipe(
    objectClusters((namespace) => {
      const name = namespace.metadata?.name;
      return name === undefined ? undefined : { cluster: name, identity: '', kubeConfig: () => kubeConfig, namespace: name };
    }),
  );
}
