import type { KubeConfig } from '@kubernetes/client-node';
import type { Observable } from 'rxjs';

/**
 * One cluster joining a fleet, for as long as it stays: its name and a stream of its credentials.
 *
 * The engagement lasts while `credentials$` runs. Each value engages the cluster with those
 * credentials (the first) or re-engages it (a later one: a rotated token, a moved server); the
 * cluster leaves when `credentials$` completes. An error of `credentials$` also ends the
 * engagement (the fleet reports it). A cluster is thus shaped like a group of RxJS's `groupBy`: a
 * stream of clusters, each a stream of its own life, so a release cannot be forgotten and
 * unsubscribing the fleet ends every cluster with it.
 *
 * ```text
 * provider:      --a--------b-------------|        (engagements)
 * a.credentials$:   k1---k2------|                  (engage, re-engage with k2, leave)
 * b.credentials$:            k3------------...      (engaged until the fleet stops)
 * ```
 */
export interface ClusterEngagement {
  /** The cluster's name in the fleet: unique among the engaged clusters, printed in `cluster://<name>/…` keys. */
  readonly cluster: string;
  /** Its credentials, a client-node KubeConfig whose current context reaches the cluster; each value (re-)engages, completion releases. */
  readonly credentials$: Observable<KubeConfig>;
  /**
   * When the cluster is one namespace of a server (namespaces as clusters): its informers read
   * namespaced resources in this namespace only. Absent for a whole cluster.
   */
  readonly namespace?: string;
}

/**
 * Finds clusters: an Observable of {@link ClusterEngagement}s. Cold: subscribing starts the
 * discovery (a directory watch, an informer on a hub) and unsubscribing stops it and ends every
 * engagement it made. An error ends the provider (the fleet reports it; see `fleetFactory` for
 * what happens to the clusters it engaged).
 */
export type FleetProvider = Observable<ClusterEngagement>;
