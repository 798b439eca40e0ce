import type { Frozen } from '../store/frozen.js';
import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { writeRecord as processWrites, type WriteRecord } from '../client/writeRecord.js';
import type { Leadership } from '../coordination/electionState.js';
import type { Informer } from '../informer/informer.js';
import { optionChecks } from '../options/optionChecks.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import type { ObjectRef } from '../store/objectRef.js';
import type { OwnerMatch } from '../store/ownerReferences.js';
import { cacheFreshness } from './cacheFreshness.js';
import { initialPriorityOf, type InitialPriority } from './changeRequests.js';
import { syncTimeoutDefaultMs } from './holdUntilSynced.js';
import { resolveReconcileConfig, type QueueOptions, type ResolvedReconcileConfig } from './queue/reconcileConfig.js';
import type { ErrorPolicy, Reconciler } from './reconcileObjects.js';
import type { OwnerType } from './toOwnerRefs.js';

/** What the controller needs of an informer: its changes and snapshot, its sync (`synced$`, `whenSynced`), `connect()` and `status$` to keep it running and see it fail. */
export type ControllerInformer<T extends KubeObject> = Pick<Informer<T>, 'changes$' | 'snapshot' | 'synced$' | 'whenSynced' | 'connect' | 'status$'>;

/** A child informer whose objects map to their owner (controller-runtime's `Owns`, kube-rs's `owns`). */
export interface OwnsConfig {
  /** The child informer; its objects' owner references name the primaries to reconcile. */
  readonly informer: ControllerInformer<KubeObject>;
  /** `controller` (default): only the `controller: true` owner reference counts; `any`: every reference of the owner kind. */
  readonly match?: OwnerMatch;
  /** Applied to the child's notifications first, e.g. `predicateFilter(predicates.resourceVersion)`. */
  readonly filter?: MonoTypeOperatorFunction<Notification<KubeObject>>;
}

/** A related informer mapped to objects to reconcile by your function (kube-rs's `watches`). */
export interface WatchesConfig<C extends KubeObject = KubeObject> {
  /** The related informer whose objects `map` turns into refs of primaries. */
  readonly informer: ControllerInformer<C>;
  /** Object of this informer (as its cache holds it, frozen) → refs of primary objects to reconcile. */
  readonly map: (object: Frozen<C>) => readonly ObjectRef[];
  /** Applied to this informer's notifications before `map`, e.g. `predicateFilter(predicates.resourceVersion)`. Default: none. */
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

/** Options of {@link controller}: the work queue's {@link QueueOptions} (`concurrency`, backoff, `scheduler`, `metrics`, …) and the controller's own. */
export interface ControllerConfig<T extends KubeObject> extends QueueOptions {
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

/** {@link ControllerConfig} checked, with every default filled in: what `controller()` composes. */
export interface ResolvedControllerConfig<T extends KubeObject> {
  readonly reconcile: Reconciler<T>;
  readonly errorPolicy: ErrorPolicy<T> | undefined;
  readonly filter: MonoTypeOperatorFunction<Notification<T>> | undefined;
  /** The option as given, for `toSelfRefs`. */
  readonly initialPriority: ((object: Frozen<T>) => number | undefined) | undefined;
  /** The same, checked per object, for the objects already cached at the start of a term. */
  readonly initial: InitialPriority;
  readonly owned: readonly OwnsConfig[];
  readonly watches: readonly WatchesConfig<KubeObject>[];
  readonly reconcileAllOn: Observable<unknown> | undefined;
  readonly triggers: Observable<ObjectRef> | undefined;
  readonly shutdownOn: Observable<unknown> | undefined;
  /** The owner kind `owns` matches (given, or the informer's). */
  readonly ownerType: OwnerType | undefined;
  /** The work queue's options, resolved once (`drain: false`, the shutdown grace, read-your-own-writes). */
  readonly queue: ResolvedReconcileConfig;
  readonly syncTimeoutMs: number;
  readonly leadership: Observable<Leadership> | undefined;
  readonly warmReplicas: boolean;
}

/**
 * Checks `controller()`'s options and fills in its defaults: every controller default is written
 * here once (the queue's in {@link resolveReconcileConfig}, which this calls once, the sync
 * timeout's in {@link syncTimeoutDefaultMs}). A new controller option has its home in
 * {@link ControllerConfig} and one line here.
 *
 * @throws TypeError naming the option, the rule and the value given.
 */
export function resolveControllerConfig<T extends KubeObject>(primary: ControllerInformer<T>, config: ControllerConfig<T>): ResolvedControllerConfig<T> {
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
    shutdownGraceMs: shutdownGraceMs ?? 30_000, // controller-runtime's GracefulShutdownTimeout
    ...(ryw !== false ? { freshness: cacheFreshness(primary as ControllerInformer<KubeObject>, record, ownerType) } : {}),
    ...(rywWaitMs !== undefined ? { freshnessWaitMs: rywWaitMs } : {}),
  };
  return {
    reconcile,
    errorPolicy,
    filter,
    initialPriority,
    initial: initialPriorityOf(initialPriority as ((object: KubeObject) => number | undefined) | undefined),
    owned,
    watches,
    reconcileAllOn,
    triggers,
    shutdownOn,
    ownerType,
    // Bad queue options throw now, not at subscribe (the queue is built per subscription).
    queue: resolveReconcileConfig(queueConfig, 'controller'),
    syncTimeoutMs: check.nonNegative('syncTimeoutMs', syncTimeoutMs) ?? syncTimeoutDefaultMs,
    leadership,
    warmReplicas: check.boolean('warmReplicas', warmReplicas) ?? false,
  };
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
