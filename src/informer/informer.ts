import {
  asyncScheduler,
  concat,
  defer,
  distinctUntilChanged,
  filter,
  finalize,
  firstValueFrom,
  from,
  map,
  mergeMap,
  share,
  startWith,
  Subject,
  tap,
  timer,
  type Observable,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { BufferByKeyConfig } from '../operators/bufferByKey.js';
import { toStore } from './toStore.js';
import type { RawEvent } from '../sources/rawEvent.js';
import type { StoreUpdate } from '../store/applyBatch.js';
import type { Tombstone } from '../store/delta.js';
import { type Indexers } from '../store/indexFunc.js';
import { handlerError, hookError, type InformerError } from '../errors.js';
import type { KeyFunc } from '../store/keyFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import { emptySnapshot, type Snapshot } from '../store/snapshot.js';

/** Options of {@link informer}. */
export interface InformerOptions<T extends KubeObject> {
  /** Cache key of an object; `namespace/name` by default. */
  readonly keyFunc?: KeyFunc<T>;
  /** Index functions by name, e.g. `{ namespace: byNamespace, node: (p) => [p.spec.nodeName] }`. */
  readonly indexers?: Indexers<T>;
  /** Period of the resync that re-delivers every cached object as a sync update; `0` (default) disables. */
  readonly resyncMs?: number;
  /** How deltas are batched before they reach the store; see {@link bufferByKey}. */
  readonly buffer?: BufferByKeyConfig;
  /** How long the source stays subscribed after the last subscriber leaves, in ms; `0` by default. */
  readonly graceMs?: number;
  /** Time source for resync and the grace period; `asyncScheduler` by default. */
  readonly scheduler?: SchedulerLike;
  /**
   * Called with every applied batch before any subscriber sees it, once however many subscribers
   * there are (for metrics). A throw is reported on `errors$`.
   */
  readonly onUpdate?: (update: StoreUpdate<T>) => void;
}

/** Callbacks in client-go / client-node style; every one is optional. */
export interface ResourceEventHandler<T> {
  onAdd?(object: T, isInInitialList: boolean): void;
  onUpdate?(oldObject: T, newObject: T): void;
  onDelete?(object: T | Tombstone<T>): void;
}

/** Options of {@link Informer.addHandler}. */
export interface HandlerOptions {
  /**
   * How often this handler wants the periodic re-delivery of every cached object, in ms. Defaults
   * to the informer's `resyncMs`; `0` means never. Periods under 1 s become 1 s, and periods under
   * the informer's `resyncMs` are raised to it (R24). Sync updates (old and new with the same
   * resourceVersion) reach a handler only when it is due (R23).
   */
  readonly resyncMs?: number;
}



/**
 * A shared, cached view of one collection. Every stream shares one subscription to the source.
 */
export interface Informer<T extends KubeObject> {
  /** Every applied batch: the snapshot after it and its notifications. Shares the source; no replay. */
  readonly updates$: Observable<StoreUpdate<T>>;
  /** Snapshots as they change; a late subscriber first gets the current one. */
  readonly snapshots$: Observable<Snapshot<T>>;
  /** Notifications, each delivered after the snapshot that contains it is current. No replay. */
  readonly changes$: Observable<Notification<T>>;
  /** `false` until the first list has been applied, then `true`; replays the current value. */
  readonly synced$: Observable<boolean>;
  /** Problems reported while the informer keeps working (bad objects, failing index functions, throwing handlers). */
  readonly errors$: Observable<InformerError>;
  /** The current snapshot (empty while nothing is subscribed). */
  readonly snapshot: Snapshot<T>;
  /** Resolves with the first synced snapshot; subscribes (and so connects) while it waits. */
  whenSynced(): Promise<Snapshot<T>>;
  /**
   * Registers callbacks, delivered one at a time in order. A handler added while objects are cached
   * first gets `onAdd(obj, true)` for each of them, then live notifications (R25). Sync updates are
   * filtered by the handler's resync period (R23/R24). Throws are reported on `errors$`.
   * Unsubscribe the returned subscription to remove it.
   */
  addHandler(handler: ResourceEventHandler<T>, options?: HandlerOptions): Subscription;
}

/**
 * Builds an informer over a source of raw List+Watch events: the whole chain, shared.
 *
 * ```text
 * source$ ─ toDeltas ─ bufferByKey ─ dedupDeltas ─ resync ─ indexReducer ─ share ─┬─ updates$
 *                                                                                 ├─ snapshots$ (replays latest)
 *                                                                                 ├─ changes$
 *                                                                                 └─ synced$
 * ```
 *
 * (The five store stages run fused in one operator with the same output; see the operators for
 * what each does.)
 *
 * Contract:
 * - **One upstream subscription** however many subscribers, across all the streams above; it
 *   starts with the first subscriber and ends `graceMs` after the last one leaves.
 * - **Eventual consistency**: after the source goes quiet, the snapshot equals the source's state.
 *   Each batch is applied atomically; a relist is swapped in whole at its end.
 * - **Per-key order**: a key's notifications come in the order of its events; repeated changes of
 *   the same type may be collapsed into the newest ({@link dedupDeltas}).
 * - **Synced** flips to true once, when the first complete list has been applied.
 * - **Ordering with the snapshot**: when a notification is delivered, `snapshot` and the latest
 *   `snapshots$` value already contain it.
 * - **Errors**: objects that cannot be keyed and failing index functions are reported on
 *   `errors$` and skipped; the cache keeps what it had. An error of the source itself ends every stream.
 * - **Memory**: the store holds one map entry per object (frozen, shared between snapshots), plus
 *   undo records for older snapshots while they are held; the delta converter (and resync, when on)
 *   keep one map entry per key.
 *
 * ## Example
 * ```ts
 * import { informer } from 'rx-informer';
 * import { fakeListWatch, configMap } from 'rx-informer/testing';
 *
 * const api = fakeListWatch([configMap('a', { namespace: 'ns' })]);
 * const cms = informer(api.events$);
 * cms.changes$.subscribe((c) => console.log(c.type, c.key));
 * await cms.whenSynced();
 * api.modify(configMap('a', { namespace: 'ns', data: { x: '1' } }));
 * // Logs:
 * // add ns/a
 * // update ns/a
 * ```
 *
 * @param source$ raw events: a cold List+Watch source such as `listWatch(...)`, or a fake.
 * @param options key function, indexers, resync, batching, grace period, scheduler.
 * @returns the shared streams and accessors.
 */
export function informer<T extends KubeObject>(source$: Observable<RawEvent<T>>, options: InformerOptions<T> = {}): Informer<T> {
  const { keyFunc, indexers = {}, resyncMs = 0, buffer, graceMs = 0, scheduler, onUpdate } = options;
  if (!(graceMs >= 0)) throw new TypeError(`[informer] graceMs must be >= 0, got ${String(graceMs)}`);
  const errors = new Subject<InformerError>();
  const empty = emptySnapshot<T>(Object.keys(indexers));
  let latest: Snapshot<T> | undefined;

  // Built once, here, so bad options throw at call time; the operator keeps its state per subscription.
  // toStore is toDeltas → bufferByKey → dedupDeltas → resync → indexReducer fused (same output).
  const store = toStore<T>({
    ...(keyFunc ? { keyFunc } : {}),
    onInvalidObject: (error) => errors.next(error),
    ...(buffer ? { buffer } : {}),
    resyncMs,
    ...(scheduler ? { resyncScheduler: scheduler } : {}),
    indexers,
  });

  const updates$ = defer(() =>
    source$.pipe(
      store,
      tap((update) => {
        latest = update.snapshot;
        for (const error of update.errors) errors.next(error);
        if (onUpdate !== undefined) {
          try {
            onUpdate(update);
          } catch (cause) {
            errors.next(hookError('onUpdate', cause));
          }
        }
      }),
      finalize(() => (latest = undefined)),
    ),
  ).pipe(
    share({
      resetOnError: true,
      resetOnComplete: true,
      resetOnRefCountZero: graceMs > 0 ? () => timer(graceMs, scheduler) : true,
    }),
  );

  const snapshots$ = defer(() => {
    const live = updates$.pipe(map((update) => update.snapshot));
    return latest === undefined ? live : live.pipe(startWith(latest));
  }).pipe(distinctUntilChanged());

  const changes$ = updates$.pipe(mergeMap((update) => update.changes));

  const synced$ = defer(() => snapshots$.pipe(map((snapshot) => snapshot.synced), startWith((latest ?? empty).synced))).pipe(distinctUntilChanged());

  return {
    updates$,
    snapshots$,
    changes$,
    synced$,
    errors$: errors.asObservable(),
    get snapshot() {
      return latest ?? empty;
    },
    whenSynced: () => firstValueFrom(snapshots$.pipe(filter((snapshot) => snapshot.synced))),
    addHandler(handler, handlerOptions = {}) {
      const period = handlerResyncPeriod(handlerOptions.resyncMs ?? resyncMs, resyncMs);
      const clock = scheduler ?? asyncScheduler;
      let nextResync = clock.now() + period;
      // Every handler starts flagged "syncing"; each resync tick re-flags it by whether it is due.
      let syncing = true;
      const deliver = (notification: Notification<T>): void => {
        if (notification.type === 'update' && notification.sync && !syncing) return;
        try {
          dispatch(handler, notification);
        } catch (cause) {
          errors.next(handlerError(notification, cause));
        }
      };
      return defer(() => {
        const replay: Notification<T>[] = [];
        latest?.forEach((object, key) => void replay.push({ type: 'add', key, object, isInInitialList: true }));
        return concat(from(replay), updates$.pipe(mergeMap(flagged)));
      }).subscribe(deliver);

      function flagged(update: StoreUpdate<T>): readonly Notification<T>[] {
        if (update.resync) {
          const now = clock.now();
          syncing = period > 0 && now >= nextResync;
          if (syncing) nextResync = now + period;
        }
        return update.changes;
      }
    },
  };
}

/** R24: sub-second periods become 1 s; with no informer resync there is none; else at least the check period. */
function handlerResyncPeriod(requested: number, check: number): number {
  if (!(requested >= 0)) throw new TypeError(`[informer] handler resyncMs must be >= 0, got ${String(requested)}`);
  const period = requested > 0 && requested < 1000 ? 1000 : requested;
  if (period === 0 || check === 0 || !Number.isFinite(check)) return 0;
  return Math.max(period, check);
}

function dispatch<T>(handler: ResourceEventHandler<T>, notification: Notification<T>): void {
  switch (notification.type) {
    case 'add':
      handler.onAdd?.(notification.object, notification.isInInitialList);
      return;
    case 'update':
      handler.onUpdate?.(notification.oldObject, notification.object);
      return;
    case 'delete':
      handler.onDelete?.(notification.object);
      return;
  }
}
