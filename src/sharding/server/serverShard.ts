import type { KubeConfigLike } from '../../client/kubeConfigLike.js';
import { isObservable, Observable, type Subscriber } from 'rxjs';
import type { ListWatchResource } from '../../client/listWatchResource.js';
import { listWatch } from '../../sources/listWatch.js';
import type { ListWatchConfig } from '../../sources/listWatchConfig.js';
import type { RawEvent } from '../../sources/rawEvent.js';
import type { Reconciler } from '../../controller/reconcileObjects.js';
import type { KubeObject } from '../../store/kubeObject.js';
import { lowPriority } from '../../controller/reconcileReason.js';
import { shardSelectorMatches, type ShardField, type ShardRange } from '../../sources/shardSelector.js';
import { argumentError } from '../../options/optionChecks.js';

/**
 * One stretch of a membership term of a replica in a server-side ring (`mode: 'server'`): the hash
 * ranges it works on until they change. Build the stretch's informers with `selector` (the API
 * server then lists and watches only these ranges) and its controller with `reconciler(…)`.
 */
export interface ServerShard {
  /** The member's identity in this term. */
  readonly identity: string;
  /** The ring's name. */
  readonly ring: string;
  /** The ranges of the hashed field (uid by default) this stretch works on; never empty. */
  readonly ranges: readonly ShardRange[];
  /**
   * The part of `ranges` the member did not work on in its stretch before (all of `ranges` in a
   * term's first stretch): what it has just been given, from a member that left or died.
   */
  readonly gained: readonly ShardRange[];
  /** The `shardSelector` of `ranges`. */
  readonly shardSelector: string;
  /** `{ shardSelector }`, to spread into a source's options. */
  readonly selector: {
    /** The `shardSelector` of `ranges`, as in {@link ServerShard.shardSelector}. */
    readonly shardSelector: string;
  };
  /**
   * {@link listWatch} of `resource` with this stretch's `shardSelector` put in (and the ring's
   * `kubeConfig`): the stretch's source, its selector not to be forgotten.
   */
  listWatch<T = KubeObject>(resource: ListWatchResource, config?: Omit<ListWatchConfig<T>, 'shardSelector'>): Observable<RawEvent<T>>;
  /**
   * Wraps a reconciler of the primary objects for this stretch, so the ranges move only once its
   * runs have finished: when they change, the stretch's work is unsubscribed (runs see their
   * `AbortSignal`), and the ranges are given up when the last run has settled.
   */
  reconciler<T extends KubeObject>(reconcile: Reconciler<T>): Reconciler<T>;
  /**
   * For the controller's `initialPriority`: −50 for an object in `gained` (after real changes at 0,
   * before the rest of the initial list at −100), `undefined` for one the member had before. A new
   * stretch lists and reconciles all its ranges; with this, the objects a dead member left run
   * first, not mixed in among the many the survivor has just reconciled.
   */
  readonly initialPriority: (object: KubeObject) => number | undefined;
}

/** The priority of a gained object of a new stretch's initial list: between real changes (0) and the objects kept ({@link lowPriority}). */
const gainedPriority = lowPriority / 2;

/** @internal Counts the runs in flight across the stretches of one term. */
export interface RunCounter {
  /** Emits once (and completes) when no run is in flight: at once, or when the last one settles. */
  readonly idle: () => Observable<void>;
  /** A run's result, counted until it settles: a promise until it settles, an Observable until it ends or is unsubscribed. */
  readonly track: <R>(result: R) => R;
}

/** @internal A run counter. */
export function runCounter(): RunCounter {
  let running = 0;
  const waiters = new Set<Subscriber<void>>();
  const leave = (): void => {
    running -= 1;
    if (running > 0) return;
    const done = [...waiters];
    waiters.clear();
    for (const waiter of done) waiter.next(), waiter.complete();
  };
  return {
    idle: () =>
      new Observable<void>((waiter) => {
        if (running === 0) return void (waiter.next(), waiter.complete());
        waiters.add(waiter);
        return () => waiters.delete(waiter);
      }),
    track: <R>(result: R): R => {
      if (isObservable(result)) {
        return new Observable((subscriber) => {
          running += 1;
          const inner = result.subscribe(subscriber);
          return () => {
            inner.unsubscribe();
            leave();
          };
        }) as R;
      }
      if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') {
        running += 1;
        return Promise.resolve(result).finally(leave) as R;
      }
      return result;
    },
  };
}

/** @internal The shard of one stretch. */
export function createServerShard(kubeConfig: KubeConfigLike, identity: string, ring: string, ranges: readonly ShardRange[], gained: readonly ShardRange[], field: ShardField, shardSelector: string, runs: RunCounter): ServerShard {
  const gainedSelector = { field, ranges: gained };
  return {
    listWatch: (resource, config = {}) => listWatch(kubeConfig, resource, { ...config, shardSelector }),
    identity,
    ring,
    ranges,
    gained,
    initialPriority: (object) => (gained.length > 0 && shardSelectorMatches(gainedSelector, object) ? gainedPriority : undefined),
    shardSelector,
    selector: { shardSelector },
    reconciler(reconcile) {
      if (typeof reconcile !== 'function') throw argumentError('ServerShard.reconciler', 'reconcile must be a function');
      return (object, context) => runs.track(reconcile(object, context));
    },
  };
}
