import type { Observable } from 'rxjs';
import type { ListWatchResource } from '../client/listWatchResource.js';
import type { InformerMetrics, ReconcileOutcomeReading } from '../metrics/informerMetrics.js';
import type { LatencyObjective, LatencyObjectiveStatus } from '../metrics/latencyObjective.js';
import type { ListWatchConfig } from '../sources/listWatchConfig.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { CollectionKind } from './factoryIdentity.js';
import type { Informer, InformerOptions } from './informer.js';

/**
 * Options of a shared informer. The resource, its namespace, the selectors, the transform and
 * metadata-only identify it; the rest is fixed by the first request for it.
 */
export interface SharedInformerOptions<T extends KubeObject> extends Omit<InformerOptions<T>, 'onUpdate' | 'name'>, Omit<ListWatchConfig<T>, 'onStatus' | 'signal'> {
  /**
   * A latency objective for this informer's metrics (e.g. `{ quantile: 0.95, targetMs: 200,
   * alertMs: 5000 }`): its state is in `metrics().objective`, on `objective$` and in
   * `rx-informer/prometheus`.
   */
  readonly objective?: LatencyObjective;
  /**
   * How long the factory keeps the informer: `'factory'` (default) connects it until `dispose()`, as
   * client-go's factory does; `'held'` lets it run only while something holds it (`connect()`, a
   * handler, a subscriber, a controller) and, `graceMs` after the last holder lets go, stops it and
   * forgets it: its requests, timers and cache are gone, `informers` no longer lists it, and the
   * next request for it makes a new one. For services that watch resources chosen at run time.
   */
  readonly lifetime?: 'factory' | 'held';
}

/**
 * An informer made by a factory: the informer (connected by the factory until `dispose()`; its
 * `status$` tells what its source is doing), its resource and name, and its metrics.
 */
export interface SharedInformer<T extends KubeObject> extends Informer<T> {
  /** The resource of the request that made it (a later request for the same collection may have named it otherwise). */
  readonly resource: ListWatchResource;
  /**
   * The kind of its objects, however the collection was asked for: the one a request named, a
   * built-in kind's for its plural, or the one discovery or the first list named (`undefined` until
   * then, for a plural of another API). A controller's `owns` matches owner references against it.
   */
  readonly kind: CollectionKind | undefined;
  /** How messages name it: the resource, its namespace and selectors (`pods in namespace web`). */
  readonly name: string;
  /** Counters of this informer: requests, relists and why, events, notifications, sync time, reconciles. */
  metrics(): InformerMetrics;
  /** The latency objective's status as it changes (see `informerMetrics()`); never emits without `objective`. */
  readonly objective$: Observable<LatencyObjectiveStatus>;
  /**
   * Counts one reconcile outcome in {@link SharedInformer.metrics} (`reconciles`: successes,
   * failures, the queue depth after the last run; `rx_informer_reconciles_total` and
   * `rx_informer_reconcile_queue_depth` in `rx-informer/prometheus`). `tap` it on the output of the
   * `reconcile()` that works on this informer's keys: `keys$.pipe(reconcile(h), tap(pods.onReconcile))`.
   */
  readonly onReconcile: (outcome: ReconcileOutcomeReading) => void;
}
