import { defer, filter, finalize, share, tap, timer, type Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { hookError, type InformerError } from '../errors.js';
import type { RawEvent } from '../sources/rawEvent.js';
import type { ListWatchStatus } from '../sources/reflector/listWatchStatus.js';
import type { StoreUpdate } from '../store/applyBatch.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Snapshot } from '../store/snapshot.js';
import type { SyncTracker } from './syncTracker.js';

/** What an {@link informerRun} reports to, and the hooks it calls. @internal */
export interface InformerRunConfig<T extends KubeObject> {
  /** The fused store stage the source's events go through. */
  readonly store: OperatorFunction<RawEvent<T>, StoreUpdate<T>>;
  /** The sync waiters: told when a run starts and ends, of each status and of each snapshot. */
  readonly sync: SyncTracker<T>;
  /** Every status of the source, in band or the one that ended it (`FAILED`). */
  readonly report: (status: ListWatchStatus) => void;
  /** Objects that could not be stored, failing index functions, throwing hooks. */
  readonly errors: (error: InformerError) => void;
  readonly onUpdate: ((update: StoreUpdate<T>) => void) | undefined;
  readonly onSynced: ((snapshot: Snapshot<T>) => void) | undefined;
  /** How long the run outlives its last holder, ms (0: not at all). */
  readonly graceMs: number;
  readonly scheduler: SchedulerLike;
}

/**
 * The lifetime of an informer: one shared, reference-counted run of `source$` through the store.
 * While the run holds, `latest()` is its newest snapshot; it starts when the first holder
 * subscribes and ends `graceMs` after the last one leaves, or when the source ends, and then the
 * cache is dropped (`latest()` is `undefined`) and the next holder starts afresh. @internal
 */
export interface InformerRun<T extends KubeObject> {
  /** Every update of the store, resync ticks that changed nothing included (handlers re-flag on them, R23). */
  readonly updates$: Observable<StoreUpdate<T>>;
  /** A resync tick that found nothing to sync and changed nothing: only handlers are told of it. */
  isIdle(update: StoreUpdate<T>): boolean;
  /** The newest snapshot of the run; `undefined` while nothing runs. */
  latest(): Snapshot<T> | undefined;
  /** Whether a run holds now. */
  running(): boolean;
}

/** Builds the {@link InformerRun} of `source$`. @internal */
export function informerRun<T extends KubeObject>(source$: Observable<RawEvent<T>>, c: InformerRunConfig<T>): InformerRun<T> {
  let latest: Snapshot<T> | undefined;
  let running = false;
  const idle = new WeakSet<StoreUpdate<T>>();
  const hook = <A>(name: 'onUpdate' | 'onSynced', call: ((value: A) => void) | undefined, value: A): void => {
    if (call === undefined) return;
    try {
      call(value);
    } catch (cause) {
      c.errors(hookError(name, cause));
    }
  };

  const updates$ = defer(() => {
    running = true;
    c.sync.connected();
    let failureReported = false;
    let syncedThisRun = false;
    return source$.pipe(
      // In-band statuses go to status$ here, on the one shared subscription; the store drops them anyway.
      filter((event) => {
        if (event.type !== 'STATUS') return true;
        if (event.status.type === 'FAILED') failureReported = true;
        c.report(event.status);
        return false;
      }),
      c.store,
      tap({
        next: (update) => {
          // A resync tick that found nothing to sync and changed nothing: handlers re-flag on it (it
          // stays in updates$ here); nobody else is told (the informer's updates$ leaves it out).
          if (update.resync === true && update.changes.length === 0 && update.snapshot === latest) idle.add(update);
          latest = update.snapshot;
          for (const error of update.errors) c.errors(error);
          if (!idle.has(update)) hook('onUpdate', c.onUpdate, update);
          if (update.snapshot.synced && !syncedThisRun) {
            syncedThisRun = true;
            hook('onSynced', c.onSynced, update.snapshot);
          }
          c.sync.snapshot(update.snapshot);
        },
        // Whatever ended the source, it is told on status$ before the streams error.
        error: (error: unknown) => failureReported || c.report({ type: 'FAILED', error: error instanceof Error ? error : new Error(String(error)) }),
      }),
      finalize(() => {
        latest = undefined;
        running = false;
        c.sync.disconnected();
      }),
    );
  }).pipe(
    share({
      resetOnError: true,
      resetOnComplete: true,
      resetOnRefCountZero: c.graceMs > 0 ? () => timer(c.graceMs, c.scheduler) : true,
    }),
  );

  return { updates$, isIdle: (update) => idle.has(update), latest: () => latest, running: () => running };
}
