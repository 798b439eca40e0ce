import { asyncScheduler, defer, distinctUntilChanged, filter, map, ReplaySubject, startWith, Subject, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { BufferByKeyConfig } from '../operators/bufferByKey.js';
import { addHandler, resyncCheck, type HandlerOptions, type ResourceEventHandler } from './handlers.js';
import { syncTracker, type WhenSyncedOptions } from './syncTracker.js';
import { spread } from './spread.js';
import { toStore } from './toStore.js';
import { informerRun } from './informerRun.js';
import { describe, optionChecks } from '../options/optionChecks.js';
import type { RawEvent } from '../sources/rawEvent.js';
import type { ListWatchStatus } from '../sources/reflector/listWatchStatus.js';
import type { StoreUpdate } from '../store/applyBatch.js';
import { type Indexers } from '../store/indexFunc.js';
import type { InformerError } from '../errors.js';
import type { KeyFunc } from '../store/keyFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import { emptySnapshot, type Snapshot } from '../store/snapshot.js';

export type { HandlerOptions, ResourceEventHandler } from './handlers.js';
export type { WhenSyncedOptions } from './syncTracker.js';

/** Options of {@link informer}. */
export interface InformerOptions<T extends KubeObject> {
  /** Cache key of an object; `namespace/name` by default. */
  readonly keyFunc?: KeyFunc<T>;
  /** Index functions by name, e.g. `{ namespace: byNamespace, node: (p) => [p.spec.nodeName] }`. */
  readonly indexers?: Indexers<T>;
  /**
   * Period of the resync that re-delivers every cached object as a sync update, and the default
   * period of handlers; `0` (default) disables it (a handler can still ask for its own, R24).
   * An Observable of periods tunes it while the informer runs: the timer restarts at each new
   * value, `0` stops it, and handlers without a period of their own follow it. Each tick costs a
   * notification per cached object: a 1 s period over 10,000 objects is 10,000 sync updates a
   * second for every handler and `changes$` subscriber. A negative or NaN value fails the
   * informer with a `TypeError` (reported as `FAILED`), as an error of the Observable does.
   */
  readonly resyncMs?: number | Observable<number>;
  /** How deltas are batched before they reach the store; see {@link bufferByKey}. */
  readonly buffer?: BufferByKeyConfig;
  /** How long the source stays subscribed after the last subscriber leaves, in ms; `0` by default. */
  readonly graceMs?: number;
  /** Time source for resync, the grace period and `whenSynced`'s timeout; `asyncScheduler` by default. */
  readonly scheduler?: SchedulerLike;
  /** What the informer is called in error messages (`[informer] pods: not synced after …`); a factory names each after its resource. */
  readonly name?: string;
  /**
   * Called with every applied batch before any subscriber sees it, once however many subscribers
   * there are (for metrics). A throw is reported on `errors$`.
   */
  readonly onUpdate?: (update: StoreUpdate<T>) => void;
  /**
   * Called once per run with the first synced snapshot: right after the first complete list is
   * applied, before any subscriber, handler or `whenSynced()` sees it (`informer.snapshot` already
   * is it). The point to check the cache is complete or to build local state from it. It only
   * observes: it cannot delay the watch, which is already running (to act between a list and its
   * watch, use the source's `afterList`). A throw is reported on `errors$`
   * ({@link InformerError}, reason `hook`); the informer goes on.
   */
  readonly onSynced?: (snapshot: Snapshot<T>) => void;
}

/**
 * A shared, cached view of one collection. Every stream shares one subscription to the source,
 * which runs while anything holds it: a {@link Informer.connect} subscription, a handler, or a
 * subscriber of one of the streams (see {@link informer} for the lifetime).
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
  /**
   * What the source is doing: listing (with page progress), watching, an error, backing off,
   * relisting, and `FAILED` when it gave up (the streams error right after). Hot: it replays the
   * latest status and never connects the informer by itself; it never errors or completes. Statuses
   * come from sources that emit them in band (`listWatch()`, `reflector()`); any error that ends a
   * source is reported as `FAILED` whatever the source.
   */
  readonly status$: Observable<ListWatchStatus>;
  /** The current snapshot (empty while the informer is not running). */
  readonly snapshot: Snapshot<T>;
  /**
   * Starts the informer (if it is not running) and keeps it running until the returned
   * subscription is unsubscribed, like `connect()` of RxJS's `connectable()`. Connections are
   * counted with every other subscriber: the source stops `graceMs` after the last one leaves.
   * An error of the source ends the connection; it is reported on `status$` (`FAILED`), never
   * thrown. Connecting again after that starts the source afresh.
   */
  connect(): Subscription;
  /**
   * Resolves with the first synced snapshot (at once if it is already synced). It does not start
   * the informer and does not keep it running: call {@link Informer.connect} first. It rejects with
   * a {@link NotSyncedError} at once when nothing runs the informer (`notConnected`), when it stops
   * before syncing (`disconnected`), when the source gives up (`failed`, and so does every call
   * after that until the next connection starts the source afresh), when `signal` aborts
   * (`aborted`) or after `timeoutMs` (`timeout`); the message ends with the source's last error.
   */
  whenSynced(options?: WhenSyncedOptions): Promise<Snapshot<T>>;
  /**
   * Registers callbacks, delivered one at a time in order. A handler added while objects are cached
   * first gets `onAdd(obj, true)` for each of them, then live notifications (R25). Sync updates are
   * filtered by the handler's resync period (R23/R24). Throws are reported on `errors$`; an error
   * of the source ends the handler (it is reported on `status$`), it is not thrown. A handler
   * keeps the informer running until the returned subscription is unsubscribed.
   */
  addHandler(handler: ResourceEventHandler<T>, options?: HandlerOptions): Subscription;
}

/**
 * Builds an informer over a source of raw List+Watch events: the whole chain, shared.
 *
 * ```text
 * source$ ─ toDeltas ─ resync ─ bufferByKey ─ dedupDeltas ─ indexReducer ─ share ─┬─ updates$
 *                                                                                 ├─ snapshots$ (replays latest)
 *                                                                                 ├─ changes$
 *                                                                                 └─ synced$
 * ```
 *
 * (The five store stages run fused in one operator with the same output; see the operators for
 * what each does.)
 *
 * Contract:
 * - **Lifetime, in RxJS terms**: the informer is a shared, reference-counted connection to
 *   `source$`, like `share()`. It runs while anything holds it — a {@link Informer.connect}
 *   subscription, a handler from {@link Informer.addHandler}, or a subscriber of one of the streams
 *   — and stops `graceMs` (default 0) after the last one leaves; then the cache is dropped, and the
 *   next holder starts over with a new List+Watch. `whenSynced()`, `status$` and `snapshot` only
 *   look: they never start it. The usual sequence is `connect()`, `await whenSynced()`, then read
 *   `snapshot` (client-go: `Run`, `WaitForCacheSync`, then the lister), and unsubscribe the
 *   connection to stop.
 * - **One upstream subscription** however many holders, across all the streams above.
 * - **Eventual consistency**: after the source goes quiet, the snapshot equals the source's state.
 *   Each batch is applied atomically; a relist is swapped in whole at its end.
 * - **Per-key order**: a key's notifications come in the order of its events; repeated changes of
 *   the same type may be collapsed into the newest ({@link dedupDeltas}).
 * - **Synced** flips to true once, when the first complete list has been applied.
 * - **Ordering with the snapshot**: when a notification is delivered, `snapshot` and the latest
 *   `snapshots$` value already contain it.
 * - **Errors**: objects that cannot be keyed and failing index functions are reported on
 *   `errors$` and skipped; the cache keeps what it had. What the source is doing, its transient
 *   errors included, is on `status$`. An error that ends the source is reported on `status$` as
 *   `FAILED`, rejects `whenSynced()`, ends `connect()` and handlers quietly, and errors every stream.
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
 * const connection = cms.connect();
 * const synced = await cms.whenSynced({ timeoutMs: 10_000 });
 * console.log(synced.size, cms.snapshot.get('ns/a') === synced.get('ns/a'));
 * api.modify(configMap('a', { namespace: 'ns', data: { x: '1' } }));
 * // later: connection.unsubscribe()
 * // Logs:
 * // add ns/a
 * // 1 true
 * // update ns/a
 * ```
 *
 * @param source$ raw events: a cold List+Watch source such as `listWatch(...)`, or a fake.
 * @param options key function, indexers, resync, batching, grace period, scheduler, name.
 * @returns the shared streams and accessors.
 */
export function informer<T extends KubeObject>(source$: Observable<RawEvent<T>>, options: InformerOptions<T> = {}): Informer<T> {
  const o = resolveInformerOptions(options);
  const errors = new Subject<InformerError>();
  const status = new ReplaySubject<ListWatchStatus>(1);
  const sync = syncTracker<T>(o.name, o.scheduler);
  const empty = emptySnapshot<T>(Object.keys(o.indexers));

  // Built once, here, so bad options throw at call time; the operator keeps its state per subscription.
  // toStore is toDeltas → resync → bufferByKey → dedupDeltas → indexReducer fused (same output); its
  // resync timer runs at the check period of the informer and its handlers (R24).
  const resync = resyncCheck(o.resyncMs);
  const store = toStore<T>({
    ...(o.keyFunc ? { keyFunc: o.keyFunc } : {}),
    onInvalidObject: (error) => errors.next(error),
    ...(o.buffer ? { buffer: o.buffer } : {}),
    ...(typeof o.resyncMs === 'number' ? { resyncMs: o.resyncMs } : {}),
    resyncPeriods: resync.periods$,
    ...(options.scheduler ? { resyncScheduler: options.scheduler } : {}),
    indexers: o.indexers,
  });

  // Its lifetime: one shared run of the source through the store (informerRun.ts).
  const run = informerRun(source$, {
    store,
    sync,
    // The tracker first, so that a status$ subscriber reacting to an error (aborting a wait, say)
    // finds it already counted as the last error.
    report: (value) => {
      sync.status(value);
      status.next(value);
    },
    errors: (error) => errors.next(error),
    onUpdate: o.onUpdate,
    onSynced: o.onSynced,
    graceMs: o.graceMs,
    scheduler: o.scheduler,
  });

  // Its streams: views of that run.
  const updates$ = run.updates$.pipe(filter((update) => !run.isIdle(update)));
  const snapshots$ = defer(() => {
    const live = updates$.pipe(map((update) => update.snapshot));
    const latest = run.latest();
    return latest === undefined ? live : live.pipe(startWith(latest));
  }).pipe(distinctUntilChanged());
  const changes$ = updates$.pipe(spread((update) => update.changes));
  const synced$ = defer(() => snapshots$.pipe(map((snapshot) => snapshot.synced), startWith((run.latest() ?? empty).synced))).pipe(distinctUntilChanged());

  const host = { updates$: run.updates$, current: run.latest, errors, resyncMs: typeof o.resyncMs === 'number' ? o.resyncMs : undefined, resync, clock: o.scheduler };

  return {
    updates$,
    snapshots$,
    changes$,
    synced$,
    errors$: errors.asObservable(),
    status$: status.asObservable(),
    get snapshot() {
      return run.latest() ?? empty;
    },
    // The error is already on status$ (FAILED) and rejects whenSynced; a connection ends quietly.
    connect: () => run.updates$.subscribe({ error: () => undefined }),
    whenSynced: (waitOptions = {}) => sync.whenSynced(run.latest(), run.running(), waitOptions),
    addHandler: (handler, handlerOptions = {}) => addHandler(host, handler, handlerOptions),
  };
}

/** {@link InformerOptions} checked, with every default filled in. */
type ResolvedInformerOptions<T extends KubeObject> = Required<Pick<InformerOptions<T>, 'indexers' | 'resyncMs' | 'graceMs' | 'scheduler'>> &
  Pick<InformerOptions<T>, 'keyFunc' | 'buffer' | 'name' | 'onUpdate' | 'onSynced'>;

/**
 * Checks the options of {@link informer} at call time (one wording, `optionChecks`) and fills in
 * every default in one literal. The key function, indexers, buffer and resync period are checked
 * by the stages that use them (toStore, and the resync rule).
 */
function resolveInformerOptions<T extends KubeObject>(options: InformerOptions<T>): ResolvedInformerOptions<T> {
  const check = optionChecks('informer', options, false);
  if (options.name !== undefined && typeof options.name !== 'string') check.fail(`name must be a string, got ${describe(options.name)}`);
  const indexers: unknown = options.indexers;
  if (indexers !== undefined && (indexers === null || typeof indexers !== 'object' || Array.isArray(indexers))) {
    check.fail(`indexers must be an object of index functions, like { byNode: (pod) => [pod.spec.nodeName] }, got ${describe(indexers)}`);
  }
  return {
    keyFunc: options.keyFunc,
    indexers: options.indexers ?? {},
    resyncMs: options.resyncMs ?? 0,
    buffer: options.buffer,
    graceMs: check.nonNegative('graceMs', options.graceMs) ?? 0,
    scheduler: options.scheduler ?? asyncScheduler,
    name: options.name,
    onUpdate: check.func('onUpdate', options.onUpdate),
    onSynced: check.func('onSynced', options.onSynced),
  };
}
