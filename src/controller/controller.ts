import type { Frozen } from '../store/frozen.js';
import { defer, finalize, identity, map, merge, mergeMap, NEVER, Observable, share, take, takeUntil, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import { writeRecord as processWrites, type WriteRecord } from '../client/writeRecord.js';
import { optionChecks } from '../options/optionChecks.js';
import type { Leadership } from '../coordination/electionState.js';
import { whileLeading } from '../coordination/whileLeading.js';
import { ControllerError } from '../errors.js';
import type { Informer } from '../informer/informer.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import { holdUntilSynced } from './holdUntilSynced.js';
import { keepConnected } from './keepConnected.js';
import { refCacheKey, refOfCacheKey, type ObjectRef } from '../store/objectRef.js';
import { cacheFreshness } from './cacheFreshness.js';
import { initialPriorityOf, primaryRequest, relatedRequests, type InitialPriority } from './changeRequests.js';
import type { OwnerMatch } from '../store/ownerReferences.js';
import { resolveReconcileConfig } from './reconcileConfig.js';
import { lowPriority, type ReconcileReason } from './reconcileReason.js';
import { reconcileObjects, type ControllerOutcome, type ControllerRequest, type ErrorPolicy, type ReconcileObjectsConfig, type Reconciler } from './reconcileObjects.js';
import { ownerRefsOfChange, type OwnerType } from './toOwnerRefs.js';
import { refsOfChange } from './toRefs.js';

/** What the controller needs of an informer: its changes and snapshot, its sync (`synced$`, `whenSynced`), `connect()` and `status$` to keep it running and see it fail. */
export type ControllerInformer<T extends KubeObject> = Pick<Informer<T>, 'changes$' | 'snapshot' | 'synced$' | 'whenSynced' | 'connect' | 'status$'>;

/** A child informer whose objects map to their owner (controller-runtime's `Owns`, kube-rs's `owns`). */
export interface OwnsConfig {
  readonly informer: ControllerInformer<KubeObject>;
  /** `controller` (default): only the `controller: true` owner reference counts; `any`: every reference of the owner kind. */
  readonly match?: OwnerMatch;
  /** Applied to the child's notifications first, e.g. `predicateFilter(predicates.resourceVersion)`. */
  readonly filter?: MonoTypeOperatorFunction<Notification<KubeObject>>;
}

/** A related informer mapped to objects to reconcile by your function (kube-rs's `watches`). */
export interface WatchesConfig<C extends KubeObject = KubeObject> {
  readonly informer: ControllerInformer<C>;
  /** Object of this informer (as its cache holds it, frozen) → refs of primary objects to reconcile. */
  readonly map: (object: Frozen<C>) => readonly ObjectRef[];
  readonly filter?: MonoTypeOperatorFunction<Notification<C>>;
  /** Names this source in the reasons of the runs it asks for (`watched`). Default `watches[<index>]`. */
  readonly name?: string;
}

/**
 * Read-your-own-writes of {@link controller}: `true` (default) holds a run of an object while the
 * primary cache holds an older version than the newest this process wrote to it, or still holds
 * an object this process deleted; `false` turns it off.
 */
export type ReadYourWrites =
  | boolean
  | {
      /** The longest a run waits for the cache; then it starts, and its outcome says `freshness.behind`. Default 10 000. */
      readonly waitMs?: number;
      /** The writes to compare with. Default: the shared `writeRecord`, which every `resourceClient()` not given a record of its own writes to. */
      readonly record?: WriteRecord;
    };

/** Options of {@link controller}. Queue options (`concurrency`, backoff, `scheduler`, `metrics`) are {@link reconcile}'s. */
export interface ControllerConfig<T extends KubeObject> extends Omit<ReconcileObjectsConfig<T>, 'drain' | 'kind' | 'freshness' | 'freshnessWaitMs'> {
  /** Reconciles one object of the primary informer. */
  readonly reconcile: Reconciler<T>;
  /** What happens after a failure; see {@link ErrorPolicy}. Default: per-key backoff. */
  readonly errorPolicy?: ErrorPolicy<T>;
  /**
   * The primary's kind, which `owns` matches owner references against. Taken from a factory's
   * informer when it knows it (`SharedInformer.kind`: asked for by kind, a built-in, or named by
   * discovery or its first list); needed otherwise when `owns` is used.
   */
  readonly kind?: OwnerType;
  /** Applied to the primary's notifications, e.g. `predicateFilter(predicates.generation)`. */
  readonly filter?: MonoTypeOperatorFunction<Notification<T>>;
  /**
   * The priority an object of the primary's initial list waits at (an integer; `undefined`:
   * {@link lowPriority}, the default for all of them). Real changes wait at 0. A member of a
   * server-side ring passes its `ServerShard.initialPriority`, so that the objects it has just been
   * given run before the ones it already had.
   */
  readonly initialPriority?: (object: Frozen<T>) => number | undefined;
  /** Child informers: a child's change reconciles its owner. An informer alone means `{ informer }`. */
  readonly owns?: readonly (OwnsConfig | ControllerInformer<KubeObject>)[];
  /** Related informers mapped through a function. */
  readonly watches?: readonly WatchesConfig<KubeObject>[];
  /** Every emission reconciles every object of the primary cache (kube-rs's `reconcile_all_on`). */
  readonly reconcileAllOn?: Observable<unknown>;
  /** Refs to reconcile from anywhere (kube-rs's `reconcile_on`). */
  readonly triggers?: Observable<ObjectRef>;
  /**
   * The first emission starts a graceful shutdown (kube-rs's `graceful_shutdown_on`): no more
   * triggers are taken, queued runs are dropped, running ones may finish within `shutdownGraceMs`;
   * then the output completes.
   */
  readonly shutdownOn?: Observable<unknown>;
  /** How long running reconciles may take after `shutdownOn`; then they are aborted and the output errors with `shutdownTimeout`. Default 30 000 (controller-runtime's `GracefulShutdownTimeout`). */
  readonly shutdownGraceMs?: number;
  /**
   * How long to wait for every informer's first list (`whenSynced({ timeoutMs })`, on the informer's
   * scheduler) before erroring with its `NotSyncedError` (`timeout`). Default 120 000; `0` waits for ever.
   */
  readonly syncTimeoutMs?: number;
  /** Read-your-own-writes; on by default. See {@link ReadYourWrites}. */
  readonly readYourWrites?: ReadYourWrites;
  /**
   * Runs the reconciles only while this replica leads (`leaderElection()`; what
   * `pipe(whileLeading(election))` does, plus `warmReplicas`). The output ends when the leadership does.
   */
  readonly leadership?: Observable<Leadership>;
  /**
   * With `leadership`: followers keep every informer of the controller connected and synced, so a
   * new leader starts reconciling from a warm cache instead of a full List (controller-runtime's
   * `EnableWarmup`); the primary's real changes seen while following (deletes included) run first.
   * Default `false`, as there: warm, every follower holds a full cache and a watch per informer,
   * which multiplies the API server's watch load and the memory by the replicas. A follower is cold
   * only if its informers run while held: a factory's informers do so with `lifetime: 'held'`; with
   * the factory's default lifetime they are connected from the start whatever the controller does,
   * so the followers hold full caches either way (without `warmReplicas`, a new leader then runs
   * every cached object as `initial`).
   */
  readonly warmReplicas?: boolean;
}

/**
 * A controller over informers, as one cold Observable of reconcile outcomes: kube-rs's
 * `Controller` and controller-runtime's builder rebuilt from operators you can also use alone.
 *
 * ```text
 * primary.changes$ ──────────────────────── refs ─┐
 * owns:    child.changes$ ── toOwnerRefs ─── refs ─┤
 * watches: other.changes$ ── toRefs(map) ─── refs ─┼─ holdUntilSynced ─ takeUntil(shutdownOn) ─ reconcileObjects ─► outcomes
 * reconcileAllOn ─────────── reconcileAllOf ─ refs ─┤
 * triggers ───────────────────────────────── refs ─┘
 * ```
 *
 * - Every object of the primary cache is reconciled once at the start, then whenever it, one of its
 *   children (`owns`), or a related object (`watches`) changes. Deleted objects are reconciled too,
 *   with `undefined` (use a finalizer for cleanup that must happen).
 * - The reconciler reads the object from the cache when its run starts, never the event that
 *   triggered it; one object is never reconciled twice at once; a change during a run makes one
 *   more run after it; failures retry with per-key exponential backoff (5 ms doubling to 1,000 s,
 *   under a 10/s bucket); `{ requeueAfterMs }` runs it again later; a `terminal()` error stops
 *   retrying; the `errorPolicy` may choose the delay instead.
 * - Real changes run first: objects of the initial list, resyncs and `reconcileAllOn` wait behind
 *   them (`priority`, on by default); `debounceMs` folds bursts; `timeoutMs` aborts long runs; the
 *   reconciler's context and each outcome carry the `reasons` of the run.
 * - Read-your-own-writes (`readYourWrites`, on by default): a run does not start while the primary
 *   cache is older than this process's newest write of the object (any `resourceClient()` write,
 *   by uid) or still holds one it deleted, for up to 10 s; then it starts and its outcome says
 *   `freshness.behind`.
 * - With `leadership`, reconciles run only while this replica leads; `warmReplicas` keeps the
 *   informers synced on followers.
 * - Nothing runs before every informer has synced (requests meanwhile are deduplicated); a sync
 *   that takes longer than `syncTimeoutMs` errors with the informer's `NotSyncedError`.
 * - Cold, like every stage here: nothing starts until subscribed; it keeps its informers running
 *   while subscribed (`connect()`). Unsubscribing stops at once (running reconciles see their signal aborted);
 *   `shutdownOn` stops gracefully. An informer's failure errors the output.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { fromEvent } from 'rxjs';
 * import { informerFactory, type KubeObject } from 'rx-informer';
 * import { byControllerOwner, controller } from 'rx-informer/controller';
 *
 * interface ConfigMapSet extends KubeObject { readonly spec?: { readonly names?: readonly string[] } }
 * declare function ensureChildren(set: ConfigMapSet, signal: AbortSignal): Promise<void>; // assuming: your writes
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const factory = informerFactory(kubeConfig);
 * const sets = factory.informer<ConfigMapSet>({ apiVersion: 'demo.rx-informer.dev/v1', kind: 'ConfigMapSet' });
 * const children = factory.informer({ version: 'v1', plural: 'configmaps' }, { indexers: { owner: byControllerOwner } });
 * controller(sets, {
 *   owns: [children],
 *   reconcile: async (set, { signal }) => (set ? ensureChildren(set, signal) : undefined),
 *   shutdownOn: fromEvent(process, 'SIGTERM'),
 * }).subscribe((outcome) => outcome.result !== 'success' && console.error(outcome.key, outcome.error));
 * ```
 *
 * @param primary the informer of the objects to reconcile (keyed `namespace/name`, the default).
 * @param config the reconciler, triggers, shutdown, queue options.
 * @returns a cold Observable of {@link ControllerOutcome}s.
 */
export function controller<T extends KubeObject>(primary: ControllerInformer<T>, config: ControllerConfig<T>): Observable<ControllerOutcome> {
  const c = resolveControllerConfig(primary, config);
  const { owned, watches, reconcileAllOn, triggers, shutdownOn, shutdownGraceMs, filter, ownerType, scheduler } = c;
  const informers = [primary, ...owned.map((o) => o.informer), ...watches.map((w) => w.informer)];
  const hold = holdUntilSynced<ControllerRequest>(informers, { timeoutMs: c.syncTimeoutMs });

  /** One term of the work; `pending`: real changes seen while following (warm replicas), run first. */
  const run$ = (pending?: Map<string, ControllerRequest>) => defer(() => {
    const stop$ = (shutdownOn ?? NEVER).pipe(take(1), share());
    // Which objects are being reconciled, to name them if the shutdown grace runs out.
    const running = new Set<string>();
    const user = c.queue.metrics;
    const work = reconcileObjects<T>(primary, c.reconcile, {
      ...c.queue,
      metrics: {
        ...user,
        started: (concurrency) => user?.started?.(concurrency),
        added: (key, now, priority) => user?.added(key, now, priority),
        taken: (key, now, priority) => (running.add(key), user?.taken(key, now, priority)),
        done: (key, now, result) => (running.delete(key), user?.done(key, now, result)),
        retried: (key) => user?.retried(key),
        stopped: () => (running.clear(), user?.stopped?.()),
      },
    });
    const requests$ = merge(
      // What changed while this replica followed, what is cached already (an informer that was running), then every change.
      defer(() => initialRequests(primary, pending, c.initial)),
      primary.changes$.pipe(filter ?? identity, map((change) => primaryRequest(change, c.initial))),
      ...owned.map((o) =>
        o.informer.changes$.pipe(
          o.filter ?? identity,
          mergeMap((change) => relatedRequests(change, ownerRefsOfChange(change, ownerType!, o.match ?? 'controller'), { type: 'owned', child: refOfCacheKey(change.key) })),
        ),
      ),
      ...watches.map((w, i) =>
        w.informer.changes$.pipe(
          w.filter ?? identity,
          mergeMap((change) => relatedRequests(change, refsOfChange(change, w.map), { type: 'watched', source: w.name ?? `watches[${i}]`, object: refOfCacheKey(change.key) })),
        ),
      ),
      ...(reconcileAllOn ? [reconcileAllOn.pipe(mergeMap(() => [...primary.snapshot.keys()].map((key): ControllerRequest => ({ ref: refOfCacheKey(key), priority: lowPriority, reasons: all }))))] : []),
      ...(triggers ? [triggers.pipe(map((ref): ControllerRequest => ({ ref, reasons: triggered })))] : []),
    );
    return withShutdown(requests$.pipe(hold, takeUntil(stop$), work), stop$, keepConnected(informers), shutdownGraceMs, scheduler, running).pipe(finalize(() => pending?.clear()));
  });
  if (c.leadership === undefined) return run$();
  const leadership = c.leadership;
  if (!c.warmReplicas) return run$().pipe(whileLeading(leadership));
  const primaryChanges$ = primary.changes$.pipe(filter ?? identity, map((change) => primaryRequest(change)));
  return warm((pending) => run$(pending).pipe(whileLeading(leadership)), keepConnected(informers), primaryChanges$);
}

/**
 * The requests a term starts with: the real changes of the primary seen while this replica
 * followed (`pending`: with their priority and reasons, deletes included, as controller-runtime's
 * warm-up queues them), then every other cached object as `initial`, at `initial`'s priority
 * ({@link lowPriority} unless the controller's `initialPriority` says otherwise).
 */
function initialRequests<T extends KubeObject>(primary: ControllerInformer<T>, pending: ReadonlyMap<string, ControllerRequest> | undefined, initial: InitialPriority): ControllerRequest[] {
  const changed = [...(pending?.values() ?? [])];
  const unchanged = [...primary.snapshot.entries()]
    .filter(([key]) => !pending?.has(key))
    .map(([key, object]): ControllerRequest => ({ ref: refOfCacheKey(key), priority: initial(key, object), reasons: [{ type: 'initial', ...rvOf(object) }] }));
  return [...changed, ...unchanged];
}

/**
 * Warm replicas: the informers kept connected for as long as the output is subscribed, and the
 * primary's real changes noted while no term runs (a term clears them when it ends), so that the
 * next term runs them first instead of as unchanged objects of the cache.
 */
function warm(terms: (pending: Map<string, ControllerRequest>) => Observable<ControllerOutcome>, keep$: Observable<never>, changes$: Observable<ControllerRequest>): Observable<ControllerOutcome> {
  return new Observable<ControllerOutcome>((subscriber) => {
    const pending = new Map<string, ControllerRequest>();
    const keep = keep$.subscribe({ error: (error: unknown) => subscriber.error(error) });
    // The newest real change of each object (its reason carries the newest resourceVersion).
    const noted = changes$.subscribe((request) => void ((request.priority ?? 0) >= 0 && pending.set(refCacheKey(request.ref), request)));
    const main = terms(pending).subscribe(subscriber);
    return () => {
      main.unsubscribe(); // the work stops before the informers are let go
      noted.unsubscribe();
      keep.unsubscribe();
    };
  });
}

/**
 * Checks {@link controller}'s options and fills in its defaults (every controller default is
 * here; the queue's are {@link resolveReconcileConfig}'s).
 */
function resolveControllerConfig<T extends KubeObject>(primary: ControllerInformer<T>, config: ControllerConfig<T>) {
  const check = optionChecks('controller', config, false);
  if (!isInformer(primary)) check.fail('the primary must be an informer');
  const { reconcile, errorPolicy, kind, filter, initialPriority, owns = [], watches = [], reconcileAllOn, triggers, shutdownOn, shutdownGraceMs, syncTimeoutMs, readYourWrites, leadership, warmReplicas, ...queue } = config;
  if (leadership !== undefined && !(leadership instanceof Observable)) check.fail('leadership must be an Observable of Leadership (from leaderElection())');
  if (warmReplicas === true && leadership === undefined) check.fail('warmReplicas needs leadership: followers are what it keeps warm');
  if (typeof reconcile !== 'function') check.fail(`config.reconcile must be a function, got ${typeof reconcile}`);
  check.func('config.errorPolicy', errorPolicy);
  check.func('initialPriority', initialPriority);
  const owned = owns.map((entry, i): OwnsConfig => {
    const own = isInformer(entry) ? { informer: entry } : entry;
    if (!isInformer(own?.informer)) check.fail(`owns[${i}] is not an informer`);
    return own;
  });
  watches.forEach((entry, i) => {
    if (!isInformer(entry?.informer) || typeof entry.map !== 'function') check.fail(`watches[${i}] needs an informer and a map function`);
  });
  const ownerType = kind ?? kindOf(primary);
  if (owned.length > 0 && ownerType === undefined) {
    check.fail("owns needs the primary's kind: pass kind: { apiVersion, kind }, or use a factory informer that knows its kind (asked for by { apiVersion, kind }, a built-in, or synced once)");
  }
  const ryw = readYourWrites ?? true;
  if (typeof ryw !== 'boolean' && (ryw === null || typeof ryw !== 'object')) check.fail('readYourWrites must be a boolean or { waitMs?, record? }');
  const rywWaitMs = typeof ryw === 'object' ? check.nonNegative('readYourWrites.waitMs', ryw.waitMs) : undefined;
  const record = typeof ryw === 'object' && ryw.record !== undefined ? ryw.record : processWrites;
  const queueConfig = {
    ...queue,
    drain: false,
    ...(errorPolicy ? { errorPolicy } : {}),
    ...(ownerType ? { kind: ownerType } : {}),
    ...(ryw !== false ? { freshness: cacheFreshness(primary as ControllerInformer<KubeObject>, record, ownerType) } : {}),
    ...(rywWaitMs !== undefined ? { freshnessWaitMs: rywWaitMs } : {}),
  };
  // Bad queue options throw now, not at subscribe (the queue is built per subscription).
  const resolvedQueue = resolveReconcileConfig(queueConfig, 'controller');
  return {
    reconcile,
    filter,
    initial: initialPriorityOf(initialPriority as ((object: KubeObject) => number | undefined) | undefined),
    owned,
    watches,
    reconcileAllOn,
    triggers,
    shutdownOn,
    ownerType,
    queue: queueConfig,
    scheduler: resolvedQueue.scheduler,
    shutdownGraceMs: check.nonNegative('shutdownGraceMs', shutdownGraceMs) ?? 30_000,
    syncTimeoutMs: check.nonNegative('syncTimeoutMs', syncTimeoutMs) ?? 120_000,
    leadership,
    warmReplicas: check.boolean('warmReplicas', warmReplicas) ?? false,
  };
}

const all: readonly ReconcileReason[] = [{ type: 'reconcileAll' }];
const triggered: readonly ReconcileReason[] = [{ type: 'trigger' }];

function rvOf(object: KubeObject | undefined): { resourceVersion?: string } {
  const rv = object?.metadata?.resourceVersion;
  return typeof rv === 'string' ? { resourceVersion: rv } : {};
}

/**
 * The outcomes, with the informers held running alongside; after `stop$`, an error once
 * `graceMs` have passed without the outcomes completing (which aborts the running reconciles).
 */
function withShutdown(
  outcomes$: Observable<ControllerOutcome>,
  stop$: Observable<unknown>,
  keep$: Observable<never>,
  graceMs: number,
  scheduler: SchedulerLike,
  running: ReadonlySet<string>,
): Observable<ControllerOutcome> {
  return new Observable<ControllerOutcome>((subscriber) => {
    const keep = keep$.subscribe({ error: (error: unknown) => subscriber.error(error) });
    const deadline = stop$.subscribe(() => {
      subscriber.add(
        scheduler.schedule(() => {
          subscriber.error(new ControllerError('shutdownTimeout', `controller: reconciles still running ${graceMs} ms (shutdownGraceMs) after shutdown began${running.size > 0 ? `: ${[...running].join(', ')}` : ''}; aborted`));
        }, graceMs),
      );
    });
    const main = outcomes$.subscribe({
      next: (outcome) => subscriber.next(outcome),
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    return () => {
      main.unsubscribe();
      deadline.unsubscribe();
      keep.unsubscribe();
    };
  });
}

function isInformer(value: unknown): value is ControllerInformer<KubeObject> {
  const candidate = value as Partial<ControllerInformer<KubeObject>> | null;
  return candidate !== null && typeof candidate === 'object' && candidate.changes$ instanceof Observable && candidate.synced$ instanceof Observable && candidate.status$ instanceof Observable && typeof candidate.connect === 'function' && typeof candidate.whenSynced === 'function' && 'snapshot' in candidate;
}

/**
 * The kind of a factory's informer: the one it knows (see `SharedInformer.kind`), whatever the
 * request it was handed back for named; else the kind its `resource` names, if it names one.
 */
function kindOf(informer: object): OwnerType | undefined {
  const { kind, resource } = informer as { kind?: { apiVersion?: unknown; kind?: unknown }; resource?: { apiVersion?: unknown; kind?: unknown } };
  for (const named of [kind, resource]) {
    if (typeof named?.apiVersion === 'string' && typeof named.kind === 'string') return { apiVersion: named.apiVersion, kind: named.kind };
  }
  return undefined;
}
