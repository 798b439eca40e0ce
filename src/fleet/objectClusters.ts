import type { KubeConfig } from '@kubernetes/client-node';
import { BehaviorSubject, Observable, type OperatorFunction } from 'rxjs';
import type { ClusterEngagement } from './clusterEngagement.js';
import type { Frozen } from '../store/frozen.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';

/** What an object says about its cluster; see {@link objectClusters}. */
export interface ObjectCluster {
  /** The cluster's name in the fleet. */
  readonly cluster: string;
  /** The text the credentials are made from: the cluster is re-engaged only when it changes (a resync or a status update is not a new credential). */
  readonly identity: string;
  /** Makes the credentials; a throw is reported to `onInvalid` and the object is skipped (an engaged cluster keeps its credentials). */
  kubeConfig(): KubeConfig;
  /** For namespaces as clusters: the namespace the cluster is. */
  readonly namespace?: string;
}

/**
 * Turns notifications of objects that describe clusters (kubeconfig Secrets, ClusterProfiles,
 * namespaces) into cluster engagements, one per object: an added object engages its cluster, an
 * update with new credentials re-engages it (or, when it names another cluster, releases the old
 * name and engages the new), a delete or an object that no longer describes a cluster
 * (`describe` returns `undefined`) releases it.
 *
 * ```text
 * notifications: --add(s1)--update(s1: new kubeconfig)--update(s1: same)--delete(s1)--|
 * engagements:   --a------------------------------------------------------------------|
 * a.credentials$:  k1-----k2------------------------------------------------|
 * ```
 *
 * When the notifications complete, every cluster is released; when they fail, the error ends the
 * engagements stream and the clusters stay engaged on their last credentials (a hub that cannot be
 * read does not take the fleet down).
 *
 * @param describe what an object says about its cluster, or `undefined` when it describes none.
 * @param onInvalid told of an object whose description or credentials threw.
 */
export function objectClusters<T extends KubeObject>(
  describe: (object: Frozen<T>) => ObjectCluster | undefined,
  onInvalid: (key: string, error: unknown) => void = () => undefined,
): OperatorFunction<Notification<T>, ClusterEngagement> {
  return (notifications$) =>
    new Observable<ClusterEngagement>((subscriber) => {
      const engaged = new Map<string, { readonly cluster: string; identity: string; readonly credentials: BehaviorSubject<KubeConfig> }>(); // by object key
      const release = (key: string): void => {
        const entry = engaged.get(key);
        if (entry === undefined) return;
        engaged.delete(key);
        entry.credentials.complete();
      };
      const seen = (key: string, object: Frozen<T>): void => {
        let found: ObjectCluster | undefined;
        let kubeConfig: KubeConfig;
        try {
          found = describe(object);
          if (found === undefined) return release(key);
          const current = engaged.get(key);
          if (current !== undefined && current.cluster === found.cluster && current.identity === found.identity) return;
          kubeConfig = found.kubeConfig();
        } catch (error) {
          return onInvalid(key, error);
        }
        const current = engaged.get(key);
        if (current !== undefined && current.cluster === found.cluster) {
          current.identity = found.identity;
          return current.credentials.next(kubeConfig);
        }
        release(key);
        const credentials = new BehaviorSubject(kubeConfig);
        engaged.set(key, { cluster: found.cluster, identity: found.identity, credentials });
        subscriber.next({ cluster: found.cluster, credentials$: credentials.asObservable(), ...(found.namespace !== undefined ? { namespace: found.namespace } : {}) });
      };
      const subscription = notifications$.subscribe({
        next: (notification) => (notification.type === 'delete' ? release(notification.key) : seen(notification.key, notification.object)),
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          for (const key of [...engaged.keys()]) release(key);
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        engaged.clear();
      };
    });
}
