import type { KubeConfig } from '@kubernetes/client-node';
import type { InformerFactory } from '../informer/informerFactory.js';

/** One engaged cluster of a fleet: its name, credentials and informer factory. A re-engagement makes a new one. */
export interface EngagedCluster {
  /** The cluster's name in the fleet, as its provider gave it. */
  readonly name: string;
  /** The credentials the cluster was engaged with. */
  readonly kubeConfig: KubeConfig;
  /** For namespaces as clusters: the namespace the cluster is (its informers read namespaced resources there). */
  readonly namespace: string | undefined;
  /** The cluster's informer factory: every fleet informer has its informer here, and other informers of the cluster can be asked for. Disposed when the cluster leaves or is re-engaged. */
  readonly factory: InformerFactory;
}
