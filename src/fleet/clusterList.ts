import type { KubeConfig } from '@kubernetes/client-node';
import { BehaviorSubject, Observable, Subject } from 'rxjs';
import type { ClusterEngagement, FleetProvider } from './clusterEngagement.js';

/** Clusters engaged and released from code: the provider of {@link clusterList}. */
export interface ClusterList {
  /** The provider: every subscriber gets the clusters engaged now, then each one engaged later. */
  readonly provider: FleetProvider;
  /** Engages `cluster` with `kubeConfig`, or re-engages it with new credentials when it is engaged already. */
  engage(
    cluster: string,
    kubeConfig: KubeConfig,
    options?: {
      /** For namespaces as clusters: the namespace the cluster is. Default: none (a whole cluster). */
      readonly namespace?: string;
    },
  ): void;
  /** Releases `cluster` (nothing when it is not engaged). */
  release(cluster: string): void;
  /** The names engaged now. */
  readonly clusters: readonly string[];
}

/**
 * A provider whose clusters are engaged and released by calls (multicluster-runtime's `clusters`
 * provider): for clusters a program finds itself, for tests and for demos.
 *
 * ## Example
 * ```ts
 * import type { KubeConfig } from '@kubernetes/client-node';
 * import { clusterList, fleetFactory } from 'rx-informer/fleet';
 *
 * declare const eastKubeConfig: KubeConfig, westKubeConfig: KubeConfig; // assuming: loaded from their files
 * const list = clusterList();
 * const fleet = fleetFactory(list.provider);
 * list.engage('east', eastKubeConfig);
 * list.engage('west', westKubeConfig);
 * list.release('east'); // every fleet informer delivers deletes for east's objects, then its watches end
 * ```
 */
export function clusterList(): ClusterList {
  const engaged = new Map<string, { readonly credentials: BehaviorSubject<KubeConfig>; readonly namespace: string | undefined }>();
  const added = new Subject<ClusterEngagement>();
  const engagementOf = (cluster: string, entry: { readonly credentials: BehaviorSubject<KubeConfig>; readonly namespace: string | undefined }): ClusterEngagement => ({
    cluster,
    credentials$: entry.credentials.asObservable(),
    ...(entry.namespace !== undefined ? { namespace: entry.namespace } : {}),
  });
  return {
    provider: new Observable<ClusterEngagement>((subscriber) => {
      const live = added.subscribe(subscriber);
      for (const [cluster, entry] of engaged) subscriber.next(engagementOf(cluster, entry));
      return live;
    }),
    engage(cluster, kubeConfig, options = {}) {
      const entry = engaged.get(cluster);
      if (entry !== undefined) return entry.credentials.next(kubeConfig);
      const fresh = { credentials: new BehaviorSubject(kubeConfig), namespace: options.namespace };
      engaged.set(cluster, fresh);
      added.next(engagementOf(cluster, fresh));
    },
    release(cluster) {
      const entry = engaged.get(cluster);
      if (entry === undefined) return;
      engaged.delete(cluster);
      entry.credentials.complete();
    },
    get clusters() {
      return [...engaged.keys()];
    },
  };
}
