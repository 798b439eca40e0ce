/**
 * rx-informer/fleet: informers over a fleet of clusters that join and leave at run time. Providers
 * find the clusters (kubeconfig files in a directory, kubeconfig Secrets in a hub cluster,
 * ClusterProfiles of the Cluster Inventory API, namespaces as clusters, clusters from code); a
 * fleet factory gives each engaged cluster an informer factory, and its fleet informers merge the
 * clusters' informers into one stream of cluster-qualified changes, with each cluster's informer
 * at hand. Node only (the directory
 * provider uses `node:fs`); needs @kubernetes/client-node.
 *
 * @module rx-informer/fleet
 */

/* Clusters and their providers */
export type { ClusterEngagement, FleetProvider } from './clusterEngagement.js';
export { clusterList } from './clusterList.js';
export type { ClusterList } from './clusterList.js';
export { namespaceClusters } from './namespaceClusters.js';
export type { NamespaceClustersOptions } from './namespaceClusters.js';
export { kubeconfigDirectory } from './kubeconfigDirectory.js';
export type { KubeconfigDirectoryOptions } from './kubeconfigDirectory.js';
export { kubeconfigSecrets, kubeconfigSecretLabel } from './kubeconfigSecrets.js';
export type { KubeconfigSecret, KubeconfigSecretsOptions } from './kubeconfigSecrets.js';
export { clusterProfiles } from './clusterProfiles.js';
export type { ClusterProfile, ClusterProfileAccess, ClusterProfileCluster, ClusterProfilesOptions, ExecPluginConfig } from './clusterProfiles.js';
export { objectClusters } from './objectClusters.js';
export type { ObjectCluster } from './objectClusters.js';

/* The fleet factory and its informers */
export { fleetFactory } from './fleetFactory.js';
export type { FleetFactory, FleetFactoryOptions } from './fleetFactory.js';
export type { EngagedCluster } from './engagedCluster.js';
export type { FleetEventHandler, FleetInformer, FleetSnapshot } from './fleetInformer.js';
export { fleetUpdates } from './fleetUpdates.js';
export type { FleetNotification, FleetUpdate } from './fleetUpdates.js';
export { snapshotDiff } from './snapshotDiff.js';
export { FleetError } from './fleetError.js';
export type { FleetErrorReason } from './fleetError.js';
