import { defer, finalize, identity, map, merge, NEVER, Observable, takeUntil } from 'rxjs';
import { whileLeading } from '../coordination/whileLeading.js';
import type { KubeObject } from '../store/kubeObject.js';
import { refCacheKey, refOfCacheKey, type ObjectRef } from '../store/objectRef.js';
import type { InitialPriority } from './changeRequests.js';
import { resolveControllerConfig, type ControllerConfig, type ControllerInformer } from './controllerConfig.js';
import { triggerRequest, type ControllerRequest } from './controllerRequest.js';
import { holdUntilSynced } from './holdUntilSynced.js';
import { keepConnected } from './keepConnected.js';
import { reconcileAllOf } from './reconcileAllOf.js';
import { lowPriority } from './reconcileReason.js';
import { objectsQueue, type ControllerOutcome } from './reconcileObjects.js';
import { toOwnerRefs } from './toOwnerRefs.js';
import { toRefs } from './toRefs.js';
import { toSelfRefs } from './toSelfRefs.js';

export type { ControllerConfig, ControllerInformer, OwnsConfig, ReadYourWrites, WatchesConfig } from './controllerConfig.js';

/**
 * A controller over informers, as one cold Observable of reconcile outcomes: kube-rs's
 * `Controller` and controller-runtime's builder rebuilt from operators you can also use alone.
 *
 * ```text
 * primary.changes$ ───────── toSelfRefs ───── requests ─┐
 * owns:    child.changes$ ── toOwnerRefs ──── requests ─┤
 * watches: other.changes$ ── toRefs(map) ──── requests ─┼─ holdUntilSynced ─ takeUntil(shutdownOn) ─ reconcileObjects ─► outcomes
 * reconcileAllOn ─────────── reconcileAllOf ─ requests ─┤
 * triggers ───────────────────────────────────── refs ─┘
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
  const { owned, watches, reconcileAllOn, triggers, shutdownOn, filter, ownerType, initialPriority } = c;
  const informers = [primary, ...owned.map((o) => o.informer), ...watches.map((w) => w.informer)];
  const hold = holdUntilSynced<ControllerRequest | ObjectRef>(informers, { timeoutMs: c.syncTimeoutMs });

  /** One term of the work; `pending`: real changes seen while following (warm replicas), run first. */
  const run$ = (pending?: Map<string, ControllerRequest>) => defer(() => {
    // The queue drops what is queued when the triggers stop, and errors past shutdownGraceMs.
    const work = objectsQueue<T>(primary, c.reconcile, c.queue, c.errorPolicy, c.ownerType);
    // Every trigger is a public operator emitting ControllerRequests; a new one is one line here.
    const requests$ = merge<(ControllerRequest | ObjectRef)[]>(
      // What changed while this replica followed, what is cached already (an informer that was running), then every change.
      defer(() => initialRequests(primary, pending, c.initial)),
      primary.changes$.pipe(filter ?? identity, toSelfRefs<T>({ initialPriority })),
      ...owned.map((o) => o.informer.changes$.pipe(o.filter ?? identity, toOwnerRefs(ownerType!, { match: o.match ?? 'controller' }))),
      ...watches.map((w, i) => w.informer.changes$.pipe(w.filter ?? identity, toRefs(w.map, { name: w.name ?? `watches[${i}]` }))),
      ...(reconcileAllOn ? [reconcileAllOn.pipe(reconcileAllOf(primary))] : []),
      ...(triggers ? [triggers.pipe(map(triggerRequest))] : []),
    );
    return alongside(requests$.pipe(hold, takeUntil(shutdownOn ?? NEVER), work), keepConnected(informers)).pipe(finalize(() => pending?.clear()));
  });
  if (c.leadership === undefined) return run$();
  const leadership = c.leadership;
  if (!c.warmReplicas) return run$().pipe(whileLeading(leadership));
  const primaryChanges$ = primary.changes$.pipe(filter ?? identity, toSelfRefs<T>());
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

function rvOf(object: KubeObject | undefined): { resourceVersion?: string } {
  const rv = object?.metadata?.resourceVersion;
  return typeof rv === 'string' ? { resourceVersion: rv } : {};
}

/**
 * The outcomes, with the informers held running alongside (their failure errors the output). The
 * outcomes go straight to the subscriber, which stops the work before the informers are let go.
 */
function alongside(outcomes$: Observable<ControllerOutcome>, keep$: Observable<never>): Observable<ControllerOutcome> {
  return new Observable<ControllerOutcome>((subscriber) => {
    const keep = keep$.subscribe({ error: (error: unknown) => subscriber.error(error) });
    outcomes$.subscribe(subscriber);
    return () => keep.unsubscribe();
  });
}
