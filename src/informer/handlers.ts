import { BehaviorSubject, concat, defer, distinctUntilChanged, finalize, from, mergeMap, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { handlerError, type InformerError } from '../errors.js';
import type { StoreUpdate } from '../store/applyBatch.js';
import type { Tombstone } from '../store/delta.js';
import type { Notification } from '../store/notification.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Snapshot } from '../store/snapshot.js';

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
   * to the informer's `resyncMs`; `0` means never. Periods under 1 s become 1 s. The informer's
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
  /** Counts a handler's period in (when above 0); returns the function that takes it out again. */
  register(period: number): () => void;
}

/** @internal Creates the {@link ResyncCheck} of an informer whose own period is `informerMs`. */
export function resyncCheck(informerMs: number): ResyncCheck {
  const own = informerMs > 0 && Number.isFinite(informerMs) ? informerMs : 0;
  const handlers = new Map<number, number>(); // period → handlers asking for it
  const periods = new BehaviorSubject(own);
  const recompute = (): void => {
    const asked = [...handlers.keys(), ...(own > 0 ? [own] : [])];
    periods.next(asked.length === 0 ? 0 : Math.min(...asked));
  };
  return {
    periods$: periods.pipe(distinctUntilChanged()),
    register(period) {
      if (period === 0) return () => undefined;
      handlers.set(period, (handlers.get(period) ?? 0) + 1);
      recompute();
      let registered = true;
      return () => {
        if (!registered) return;
        registered = false;
        const left = handlers.get(period)! - 1;
        if (left === 0) handlers.delete(period);
        else handlers.set(period, left);
        recompute();
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
  /** The informer's resync period, ms (0: none): the default of a handler's. */
  readonly resyncMs: number;
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
  const period = handlerResyncPeriod(options.resyncMs ?? host.resyncMs);
  let nextResync = host.clock.now() + period;
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
      syncing = period > 0 && now >= nextResync;
      if (syncing) nextResync = now + period;
    }
    return update.changes;
  };
  return defer(() => {
    // Counted in before the subscription below starts the informer, so its timer starts at the right period.
    const unregister = host.resync.register(period);
    const replay: Notification<T>[] = [];
    host.current()?.forEach((object, key) => void replay.push({ type: 'add', key, object, isInInitialList: true }));
    return concat(from(replay), host.updates$.pipe(mergeMap(flagged))).pipe(finalize(unregister));
  }).subscribe({ next: deliver, error: () => undefined });
}

/** R24: sub-second periods become 1 s; `0` and `Infinity` mean none. */
function handlerResyncPeriod(requested: number): number {
  if (!(typeof requested === 'number' && requested >= 0)) throw new TypeError(`[informer] handler resyncMs must be >= 0, got ${String(requested)}`);
  if (requested === 0 || requested === Infinity) return 0;
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
