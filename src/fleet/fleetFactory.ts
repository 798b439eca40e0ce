import type { KubeConfig } from '@kubernetes/client-node';
import { BehaviorSubject, Subject, type Observable, type Subscription } from 'rxjs';
import { informerFactory, type InformerFactoryDefaults, type SharedInformerOptions } from '../informer/informerFactory.js';
import type { ListWatchResource } from '../client/listWatchResource.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { ClusterEngagement, FleetProvider } from './clusterEngagement.js';
import { FleetError } from './fleetError.js';
import { fleetInformer, type FleetInformer } from './fleetInformer.js';
import type { EngagedCluster } from './engagedCluster.js';
import { argumentError } from '../options/optionChecks.js';

export type { EngagedCluster } from './engagedCluster.js';

/** Options of {@link fleetFactory}. */
export interface FleetFactoryOptions {
  /** Defaults of every cluster's informer factory (a `transform`, `pageSize`, `backoff`, …). */
  readonly defaults?: InformerFactoryDefaults;
  /**
   * Told of every {@link FleetError}, as `errors$` is; unlike `errors$` it also hears those
   * reported while `fleetFactory()` runs (a provider that engages at once with bad credentials).
   */
  readonly onError?: (error: FleetError) => void;
}

/**
 * Informers over a fleet of clusters that come and go: an informer factory per engaged cluster,
 * under one factory whose informers merge the clusters' (see {@link fleetFactory}).
 */
export interface FleetFactory {
  /**
   * The fleet informer of `resource`: the same resource in every engaged cluster, now and later,
   * through each cluster's factory (so one informer per cluster and identity however many ask).
   * The options are those of a cluster factory's informers.
   * @throws {TypeError} after `dispose()`.
   */
  informer<T extends KubeObject = KubeObject>(resource: ListWatchResource, options?: SharedInformerOptions<T>): FleetInformer<T>;
  /** The clusters engaged now, by name. */
  readonly clusters: ReadonlyMap<string, EngagedCluster>;
  /** The engaged clusters as they change (a new map each time); replays the current one; completes on `dispose()`. */
  readonly clusters$: Observable<ReadonlyMap<string, EngagedCluster>>;
  /** Problems that did not stop the fleet: a failed provider, a cluster named twice, bad credentials, a throwing handler. */
  readonly errors$: Observable<FleetError>;
  /** Resolves when every informer of every cluster engaged now has applied its first list (see `InformerFactory.whenAllSynced`). */
  whenAllSynced(options?: {
    /** Stop waiting after this many ms: rejects with a `NotSyncedError` (`timeout`). Default: no limit. */
    readonly timeoutMs?: number;
    /** Stop waiting when it aborts: rejects with a `NotSyncedError` (`aborted`). */
    readonly signal?: AbortSignal;
  }): Promise<void>;
  /** Stops the providers, tells every fleet informer's readers that every cluster left, then disposes every cluster's factory. */
  dispose(): void;
}

interface Owner {
  readonly engagement: ClusterEngagement;
  subscription: Subscription | undefined;
}

/**
 * Creates a {@link FleetFactory} over cluster providers, subscribed at once (as an informer
 * factory starts its informers): each engaged cluster gets an informer factory over its
 * credentials, and every fleet informer an informer in it.
 *
 * - **Engage**: the cluster's factory is made and every fleet informer's informer in it starts.
 * - **Re-engage** (new credentials): a new factory replaces the old one; readers switch to its
 *   informers and are told the difference once they synced, then the old factory is disposed.
 * - **Leave**: every reader is told a delete per object of the cluster, then the cluster's factory
 *   is disposed: its watches, timers and sockets end.
 * - **The same cluster from two providers** (or twice from one): the first engagement wins; the
 *   second is reported (`duplicateCluster`) and waits, and takes over when the first leaves.
 * - **A provider error** is reported (`provider`) and ends that provider only: the clusters it
 *   engaged stay engaged on their last credentials, until they leave or the fleet is disposed; the
 *   other providers go on.
 * - **Bad credentials** (a KubeConfig the factory refuses) are reported (`credentials`): a new
 *   cluster is not engaged, an engaged one keeps its credentials.
 *
 * ## Example
 * ```ts
 * import { fleetFactory, kubeconfigDirectory } from 'rx-informer/fleet';
 *
 * const fleet = fleetFactory(kubeconfigDirectory('/etc/fleet'));
 * const pods = fleet.informer({ version: 'v1', plural: 'pods' });
 * pods.changes$.subscribe((c) => console.log(c.cluster, c.type, c.key));
 * // later: fleet.dispose()
 * ```
 *
 * @param providers one provider or several.
 * @param options the defaults of every cluster's informer factory.
 */
export function fleetFactory(providers: FleetProvider | readonly FleetProvider[], options: FleetFactoryOptions = {}): FleetFactory {
  const defaults = options.defaults ?? {};
  const clusters = new BehaviorSubject<ReadonlyMap<string, EngagedCluster>>(new Map());
  const errorsSubject = new Subject<FleetError>();
  const onError = options.onError;
  const errors = {
    next(error: FleetError): void {
      onError?.(error);
      errorsSubject.next(error);
    },
  };
  const owners = new Map<string, Owner>(); // the engagement each cluster name is held by
  const waiting = new Map<string, ClusterEngagement[]>(); // the engagements that named a held cluster, in order
  const recipes: Array<{ readonly resource: ListWatchResource; readonly options: SharedInformerOptions<KubeObject> }> = [];
  let disposed = false;

  const informerIn = <T extends KubeObject>(cluster: EngagedCluster, resource: ListWatchResource, informerOptions: SharedInformerOptions<T>) =>
    cluster.factory.informer<T>(cluster.namespace !== undefined && resource.namespace === undefined ? { ...resource, namespace: cluster.namespace } : resource, informerOptions);

  const publish = (name: string, cluster: EngagedCluster | undefined): void => {
    const next = new Map(clusters.value);
    if (cluster === undefined) next.delete(name);
    else next.set(name, cluster);
    clusters.next(next);
  };

  const engage = (engagement: ClusterEngagement, kubeConfig: KubeConfig): void => {
    const name = engagement.cluster;
    const old = clusters.value.get(name);
    let cluster: EngagedCluster | undefined;
    try {
      cluster = { name, kubeConfig, namespace: engagement.namespace, factory: informerFactory(kubeConfig, defaults) };
      for (const recipe of recipes) informerIn(cluster, recipe.resource, recipe.options);
    } catch (cause) {
      cluster?.factory.dispose();
      errors.next(new FleetError('credentials', `cluster ${name}: ${old === undefined ? 'not engaged' : 'kept its previous credentials'}: ${cause instanceof Error ? cause.message : String(cause)}`, { cluster: name, cause }));
      return;
    }
    publish(name, cluster); // readers switch to the new informers…
    old?.factory.dispose(); // …before the old ones stop
  };

  const release = (name: string): void => {
    owners.delete(name);
    const old = clusters.value.get(name);
    if (old !== undefined) {
      publish(name, undefined); // readers are told the deletes…
      old.factory.dispose(); // …then the watches end
    }
    const next = waiting.get(name)?.shift();
    if (waiting.get(name)?.length === 0) waiting.delete(name);
    if (next !== undefined && !disposed) own(next);
  };

  const own = (engagement: ClusterEngagement): void => {
    const name = engagement.cluster;
    const owner: Owner = { engagement, subscription: undefined };
    owners.set(name, owner);
    const subscription = engagement.credentials$.subscribe({
      next: (kubeConfig) => {
        if (owners.get(name) === owner) engage(engagement, kubeConfig);
      },
      error: (cause: unknown) => {
        if (owners.get(name) !== owner) return;
        errors.next(new FleetError('credentials', `cluster ${name}: its credentials failed; released: ${cause instanceof Error ? cause.message : String(cause)}`, { cluster: name, cause }));
        release(name);
      },
      complete: () => {
        if (owners.get(name) === owner) release(name);
      },
    });
    if (owners.get(name) === owner) owner.subscription = subscription;
  };

  const offered = (engagement: ClusterEngagement): void => {
    if (disposed) return;
    const name = engagement.cluster;
    if (owners.has(name)) {
      errors.next(new FleetError('duplicateCluster', `cluster ${name} is engaged already; this engagement waits until it leaves`, { cluster: name }));
      waiting.set(name, [...(waiting.get(name) ?? []), engagement]);
      return;
    }
    own(engagement);
  };

  const running = (Array.isArray(providers) ? (providers as readonly FleetProvider[]) : [providers as FleetProvider]).map((provider, index) =>
    provider.subscribe({
      next: offered,
      error: (cause: unknown) => errors.next(new FleetError('provider', `provider ${index} failed; its clusters stay engaged: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })),
    }),
  );

  return {
    informer<T extends KubeObject = KubeObject>(resource: ListWatchResource, informerOptions: SharedInformerOptions<T> = {}): FleetInformer<T> {
      if (disposed) throw argumentError('fleetFactory', 'used after dispose()');
      const recipe = { resource, options: informerOptions as SharedInformerOptions<KubeObject> };
      for (const cluster of clusters.value.values()) informerIn(cluster, resource, informerOptions); // throws as a factory does (a conflicting option)
      recipes.push(recipe);
      return fleetInformer<T>({
        clusters$: clusters,
        clusters: () => clusters.value,
        informerIn: (cluster) => informerIn<T>(cluster, resource, informerOptions),
        report: (error) => errors.next(error),
      });
    },
    get clusters() {
      return clusters.value;
    },
    clusters$: clusters.asObservable(),
    errors$: errorsSubject.asObservable(),
    async whenAllSynced(waitOptions = {}) {
      await Promise.all([...clusters.value.values()].map((cluster) => cluster.factory.whenAllSynced(waitOptions)));
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const subscription of running) subscription.unsubscribe();
      waiting.clear();
      for (const owner of owners.values()) owner.subscription?.unsubscribe();
      owners.clear();
      const left = [...clusters.value.values()];
      clusters.next(new Map()); // readers are told the deletes…
      clusters.complete();
      for (const cluster of left) cluster.factory.dispose(); // …then every watch ends
      errorsSubject.complete();
    },
  };
}
