import { concat, defer, from, mergeMap, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
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
   * to the informer's `resyncMs`; `0` means never. Periods under 1 s become 1 s, and periods under
   * the informer's `resyncMs` are raised to it (R24). Sync updates (old and new with the same
   * resourceVersion) reach a handler only when it is due (R23).
   */
  readonly resyncMs?: number;
}

/** @internal What {@link addHandler} needs of its informer. */
export interface HandlerHost<T extends KubeObject> {
  /** The shared updates (subscribing counts as a subscriber of the informer). */
  readonly updates$: Observable<StoreUpdate<T>>;
  /** The snapshot a new handler is replayed from, if the informer holds one. */
  current(): Snapshot<T> | undefined;
  readonly errors: { next(error: InformerError): void };
  /** The informer's resync period, ms (0: none). */
  readonly resyncMs: number;
  readonly clock: SchedulerLike;
}

/**
 * @internal `Informer.addHandler`: replays the current snapshot as initial adds, then delivers the
 * shared notifications one at a time, sync updates only when the handler is due (R23/R24). A throw
 * is reported on `errors$`; an error of the source ends the handler without escaping as an
 * unhandled error (the informer reports it as a `FAILED` status).
 */
export function addHandler<T extends KubeObject>(host: HandlerHost<T>, handler: ResourceEventHandler<T>, options: HandlerOptions): Subscription {
  const period = handlerResyncPeriod(options.resyncMs ?? host.resyncMs, host.resyncMs);
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
    const replay: Notification<T>[] = [];
    host.current()?.forEach((object, key) => void replay.push({ type: 'add', key, object, isInInitialList: true }));
    return concat(from(replay), host.updates$.pipe(mergeMap(flagged)));
  }).subscribe({ next: deliver, error: () => undefined });
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
