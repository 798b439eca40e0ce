import { BehaviorSubject, combineLatest, concat, defer, distinctUntilChanged, finalize, from, isObservable, map, of, tap, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { resyncEnabled } from '../operators/resync.js';
import { spread } from './spread.js';
import { handlerError, type InformerError } from '../errors.js';
import type { StoreUpdate } from '../store/applyBatch.js';
import type { Tombstone } from '../store/delta.js';
import type { Frozen } from '../store/frozen.js';
import type { Notification } from '../store/notification.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Snapshot } from '../store/snapshot.js';

/** Callbacks in client-go / client-node style; every one is optional. The objects are the cache's, read-only ({@link Frozen}). */
export interface ResourceEventHandler<T> {
  /** An object came into the cache; `isInInitialList` when it came with the first list. */
  onAdd?(object: Frozen<T>, isInInitialList: boolean): void;
  /** An object in the cache changed (or a resync re-delivered it unchanged): its old and new versions. */
  onUpdate?(oldObject: Frozen<T>, newObject: Frozen<T>): void;
  /** An object left the cache: the last version seen, or a {@link Tombstone} when a relist found it gone. */
  onDelete?(object: Frozen<T> | Tombstone<T>): void;
}

/** Options of {@link Informer.addHandler}. */
export interface HandlerOptions {
  /**
   * How often this handler wants the periodic re-delivery of every cached object, in ms. Defaults
   * to the informer's `resyncMs` (its current value, when that is an Observable); `0` means never. Periods under 1 s become 1 s. The informer's
   * resync timer runs at the smallest period of the informer and its current handlers, so a handler
   * gets its period even on an informer without `resyncMs`, whenever it is added (R24). Sync
   * updates (old and new with the same resourceVersion) reach a handler only when it is due (R23).
   */
  readonly resyncMs?: number;
}

/**
 * @internal The resync check period of an informer (R24): the smallest of its own `resyncMs` and
 * the periods of the handlers registered now; `0` when there is none. It changes as handlers come
 * and go, and the store restarts its timer at each new value.
 */
export interface ResyncCheck {
  readonly periods$: Observable<number>;
  /** The informer's own period now (its latest value while `periods$` is subscribed), ms; 0: none. */
  own(): number;
  /** Counts a handler's period in (when above 0); returns the function that takes it out again. */
  register(period: number): () => void;
}

/**
 * @internal Creates the {@link ResyncCheck} of an informer whose own period is `informerMs`, a
 * number or an Observable of numbers (each checked as `resync` checks a period).
 */
export function resyncCheck(informerMs: number | Observable<number>): ResyncCheck {
  const valid = (period: number): number => (resyncEnabled(period, 'informer', 'resyncMs') ? period : 0);
  let own = isObservable(informerMs) ? 0 : valid(informerMs);
  const own$ = isObservable(informerMs) ? informerMs.pipe(map(valid), tap((period) => (own = period))) : of(own);
  const handlers = new Map<number, number>(); // period → handlers asking for it
  const changed = new BehaviorSubject<void>(undefined);
  const smallest = (ownPeriod: number): number => {
    const asked = [...handlers.keys(), ...(ownPeriod > 0 ? [ownPeriod] : [])];
    return asked.length === 0 ? 0 : Math.min(...asked);
  };
  return {
    periods$: combineLatest([own$, changed]).pipe(
      map(([ownPeriod]) => smallest(ownPeriod)),
      distinctUntilChanged(),
    ),
    own: () => own,
    register(period) {
      if (period === 0) return () => undefined;
      handlers.set(period, (handlers.get(period) ?? 0) + 1);
      changed.next();
      let registered = true;
      return () => {
        if (!registered) return;
        registered = false;
        const left = handlers.get(period)! - 1;
        if (left === 0) handlers.delete(period);
        else handlers.set(period, left);
        changed.next();
      };
    },
  };
}

/** @internal What {@link addHandler} needs of its informer. */
export interface HandlerHost<T extends KubeObject> {
  /** The shared updates, resync ticks with no change included (subscribing holds the informer). */
  readonly updates$: Observable<StoreUpdate<T>>;
  /** The snapshot a new handler is replayed from, if the informer holds one. */
  current(): Snapshot<T> | undefined;
  readonly errors: { next(error: InformerError): void };
  /** The informer's resync period, ms (0: none), or `undefined` when it changes (`resync.own()` then). */
  readonly resyncMs: number | undefined;
  readonly resync: ResyncCheck;
  readonly clock: SchedulerLike;
}

/**
 * @internal `Informer.addHandler`: replays the current snapshot as initial adds, then delivers the
 * shared notifications one at a time, sync updates only when the handler is due (R23/R24). A throw
 * is reported on `errors$`; an error of the source ends the handler without escaping as an
 * unhandled error (the informer reports it as a `FAILED` status).
 */
export function addHandler<T extends KubeObject>(host: HandlerHost<T>, handler: ResourceEventHandler<T>, options: HandlerOptions): Subscription {
  // A handler without a period of its own follows the informer's, also when that changes.
  const fixed = options.resyncMs ?? host.resyncMs;
  const fixedPeriod = fixed === undefined ? undefined : handlerResyncPeriod(fixed);
  const periodNow = (): number => fixedPeriod ?? handlerResyncPeriod(host.resync.own());
  let lastResync = host.clock.now();
  // Every handler starts flagged "syncing"; each resync tick re-flags it by whether it is due.
  let syncing = true;
  const deliver = (notification: Notification<T>): void => {
    if (notification.type === 'update' && notification.sync && !syncing) return;
    try {
      dispatch(handler, notification);
    } catch (cause) {
      host.errors.next(handlerError(notification, cause));
    }
  };
  const flagged = (update: StoreUpdate<T>): readonly Notification<T>[] => {
    if (update.resync) {
      const now = host.clock.now();
      const period = periodNow();
      syncing = period > 0 && now >= lastResync + period;
      if (syncing) lastResync = now;
    }
    return update.changes;
  };
  return defer(() => {
    // Counted in before the subscription below starts the informer, so its timer starts at the right period.
    // (One that follows the informer's period adds nothing to the check period: the informer's is in it.)
    const unregister = host.resync.register(fixedPeriod ?? 0);
    const replay: Notification<T>[] = [];
    host.current()?.forEach((object, key) => void replay.push({ type: 'add', key, object, isInInitialList: true }));
    return concat(from(replay), host.updates$.pipe(spread(flagged))).pipe(finalize(unregister));
  }).subscribe({ next: deliver, error: () => undefined });
}

/** R24: sub-second periods become 1 s; `0` and `Infinity` mean none. */
function handlerResyncPeriod(requested: number): number {
  if (!resyncEnabled(requested, 'addHandler', 'resyncMs')) return 0;
  return requested < 1000 ? 1000 : requested;
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
