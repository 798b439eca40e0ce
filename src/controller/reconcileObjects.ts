import type { Frozen } from '../store/frozen.js';
import { map, type ObservableInput, type OperatorFunction } from 'rxjs';
import type { KubeObject } from '../store/kubeObject.js';
import type { Snapshot } from '../store/snapshot.js';
import { refOfCacheKey, type ObjectRef } from '../store/objectRef.js';
import { queueRuntime } from './queue/queueRuntime.js';
import { resolveReconcileConfig, type ReconcileConfig, type ResolvedReconcileConfig } from './queue/reconcileConfig.js';
import type { ReconcileOutcome, ReconcileResult } from './queue/reconcileTypes.js';
import type { ReconcileReason } from './reconcileReason.js';
import type { ControllerRequest } from './controllerRequest.js';
import { argumentError } from '../options/optionChecks.js';

/**
 * What a reconciler returns (kube-rs's `Action`, controller-runtime's `Result`): nothing to wait
 * for a change (`await_change`), or `{ requeueAfterMs }` to run again after that long (which also
 * forgets the object's failures). Throwing is an error: retried with per-key backoff, or not at all
 * when it is a `terminal()` error.
 */
export type Action = ReconcileResult;

/** What a reconciler is given besides the object. */
export interface ControllerContext<T extends KubeObject> {
  /** The object the run is for (it may be gone from the cache: then the object argument is `undefined`). */
  readonly ref: ObjectRef;
  /** Failures of this object since its last success. */
  readonly retries: number;
  /** Aborted when the controller is stopped for good; pass it to your requests. */
  readonly signal: AbortSignal;
  /** The primary cache at the start of the run; read related objects from snapshots, never from the API server. */
  readonly snapshot: Snapshot<T>;
  /** Why it runs: every distinct reason gathered since the object's last run started (past `maxReasonsPerRun`, the first and the newest, and a `folded` count). */
  readonly reasons: readonly ReconcileReason[];
}

export type { ControllerRequest } from './controllerRequest.js';

/**
 * Reconciles one object, read from the cache when the run starts (the newest version, not the one
 * that triggered it); `undefined` when it is not in the cache (deleted). Return an {@link Action},
 * a Promise or an Observable of one (its last value counts).
 */
export type Reconciler<T extends KubeObject> = (object: Frozen<T> | undefined, context: ControllerContext<T>) => ObservableInput<Action> | Action;

/**
 * Chooses what happens after a failure (kube-rs's `error_policy`): `{ requeueAfterMs }` replaces the
 * per-key backoff for this failure; nothing keeps the backoff. Not asked for terminal errors.
 */
export type ErrorPolicy<T extends KubeObject> = (
  error: unknown,
  object: Frozen<T> | undefined,
  context: {
    /** The object whose run failed. */
    readonly ref: ObjectRef;
    /** The key's failures so far, this one included. */
    readonly retries: number;
  },
) => Action;

/** One reconcile run of a controller: {@link ReconcileOutcome} with the object's ref. */
export type ControllerOutcome = ReconcileOutcome & {
  /** The object the run reconciled (with `kind` and `apiVersion` when the config names the kind). */
  readonly ref: ObjectRef;
};

/** Options of {@link reconcileObjects}: {@link reconcile}'s, an error policy, and the kind for refs. */
export interface ReconcileObjectsConfig<T extends KubeObject> extends Omit<ReconcileConfig, 'retryDelay'> {
  /** Chooses the delay after a failure instead of the per-key backoff; absent: the backoff alone. */
  readonly errorPolicy?: ErrorPolicy<T>;
  /** `kind` and `apiVersion` put on the refs handed to the reconciler and on outcomes. */
  readonly kind?: {
    /** `group/version` of the primary kind (`v1` for the core group), e.g. `apps/v1`. */
    readonly apiVersion: string;
    /** The primary kind, e.g. `Deployment`. */
    readonly kind: string;
  };
}

/**
 * The work loop of a controller on refs: {@link reconcile}'s queue (deduplicated, never two runs
 * of one object at once, per-key backoff, bounded concurrency) whose handler reads the object from
 * the primary cache at run time and hands it to your reconciler (kube-rs's applier).
 *
 * Refs may come as {@link ControllerRequest}s, with a priority and a reason.
 *
 * ```text
 * refs:      -a-a--b---------|
 * reconcileObjects(sets, reconciler)             reconciler takes 2 frames
 * outcomes:  ---x---y--------|      x = { ref: a, result: 'success' }  y = { ref: b, … }
 * ```
 *
 * @param primary the informer whose objects are reconciled (keyed `namespace/name`).
 * @param reconciler reconciles one object.
 * @param config queue options, error policy, kind.
 * @returns an operator from refs to {@link ControllerOutcome}s.
 */
export function reconcileObjects<T extends KubeObject>(
  primary: {
    /** The primary cache, read at run time for the object behind each ref. */
    readonly snapshot: Snapshot<T>;
  },
  reconciler: Reconciler<T>,
  config: ReconcileObjectsConfig<T> = {},
): OperatorFunction<ObjectRef | ControllerRequest, ControllerOutcome> {
  if (primary === null || typeof primary !== 'object' || !('snapshot' in primary)) throw argumentError('reconcileObjects', 'expected the primary informer');
  if (typeof reconciler !== 'function') throw argumentError('reconcileObjects', 'reconciler must be a function');
  const { errorPolicy, kind, ...queueConfig } = config;
  if (errorPolicy !== undefined && typeof errorPolicy !== 'function') throw argumentError('reconcileObjects', 'errorPolicy must be a function');
  // Resolved once, so bad queue options throw here; the queue's state is per subscription.
  return objectsQueue(primary, reconciler, resolveReconcileConfig(queueConfig, 'reconcileObjects'), errorPolicy, kind);
}

/**
 * {@link reconcileObjects} over resolved queue options: the queue runtime with a handler that reads
 * the object from the primary cache, and the outcomes named by ref. `controller()` resolves its
 * options once and calls this.
 */
export function objectsQueue<T extends KubeObject>(
  primary: { readonly snapshot: Snapshot<T> },
  reconciler: Reconciler<T>,
  resolved: ResolvedReconcileConfig,
  errorPolicy: ErrorPolicy<T> | undefined,
  kind: ReconcileObjectsConfig<T>['kind'],
): OperatorFunction<ObjectRef | ControllerRequest, ControllerOutcome> {
  const refOf = (key: string): ObjectRef => ({ ...refOfCacheKey(key), ...(kind ? { kind: kind.kind, apiVersion: kind.apiVersion } : {}) });
  const retryDelay = errorPolicy && ((error: unknown, key: string, retries: number) => errorPolicy(error, primary.snapshot.get(key), { ref: refOf(key), retries })?.requeueAfterMs);
  const queue = queueRuntime((key, { retries, signal, reasons }) => {
    const snapshot = primary.snapshot;
    return reconciler(snapshot.get(key), { ref: refOf(key), retries, signal, snapshot, reasons });
  }, retryDelay ? { ...resolved, retryDelay } : resolved);
  return (refs$) => refs$.pipe(queue, map((outcome): ControllerOutcome => ({ ...outcome, ref: refOf(outcome.key) })));
}
