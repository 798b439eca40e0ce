import type { Frozen } from '../store/frozen.js';
import { asyncScheduler, type Observable, type OperatorFunction, type SchedulerLike, Subscription } from 'rxjs';
import type { InformerError } from '../errors.js';
import { batchClosing, type BufferByKeyConfig } from '../operators/bufferByKey.js';
import { indexNamesOf } from '../operators/indexReducer.js';
import { operate } from '../operators/operate.js';
import { resyncEnabled, resyncTicks } from '../operators/resync.js';
import { objectKeying, unknownRawEvent } from '../operators/toDeltas.js';
import type { RawEvent } from '../sources/rawEvent.js';
import { applyBatch, applyListToEmpty, prepareForStore, type StoreUpdate } from '../store/applyBatch.js';
import type { Delta, DeltaBatch, DeltaEvent } from '../store/delta.js';
import { appendDelta, batchResourceVersion, relistDeltas, resyncEvents, skipsResync } from '../store/deltaRules.js';
import type { Indexers } from '../store/indexFunc.js';
import type { KeyFunc } from '../store/keyFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import { emptySnapshot, type Snapshot } from '../store/snapshot.js';

/** Options of {@link toStore}: those of the operators it fuses. */
export interface ToStoreConfig<T extends KubeObject> {
  /** As in {@link toDeltas}. */
  readonly keyFunc?: KeyFunc<T>;
  /** As in {@link toDeltas}; without it an object that cannot be keyed errors the stream. */
  readonly onInvalidObject?: (error: InformerError) => void;
  /** As in {@link bufferByKey}. */
  readonly buffer?: BufferByKeyConfig;
  /** As in {@link resync}: period in ms; `0` or `Infinity` disables. */
  readonly resyncMs?: number;
  /**
   * The resync period as it changes (the informer lowers it for a handler that asks for less):
   * the timer restarts at each new value. Overrides `resyncMs`; each value is checked like it.
   */
  readonly resyncPeriods?: Observable<number>;
  /** Time source of the resync timer; `asyncScheduler` by default. */
  readonly resyncScheduler?: SchedulerLike;
  /** As in {@link indexReducer}. */
  readonly indexers?: Indexers<T>;
}

/**
 * The informer's store stage in one operator: the same output as
 * `toDeltas() → resync() → bufferByKey() → dedupDeltas() → indexReducer()`, computed with less work.
 *
 * <span class="informal">Internal: `informer()` uses it; the separate operators stay the
 * documented, composable form, and a property test holds this one to their output.</span>
 *
 * ```text
 * source:  -S-P---D----M-M---X---|      S=LIST_START P=LIST_PAGE(a,b) D=LIST_DONE M=MODIFIED(a) X=DELETED(b)
 * toStore()                             (STATUS events are dropped)
 * result:  --------U----U----U---|      U = {snapshot, changes}: [add a, add b] · [update a] · [delete b]
 * ```
 *
 * What it saves over the composition:
 * - **No second copy of the keys.** `toDeltas` and `resync` each keep a map of every key and its
 *   latest object; here "known" is the store itself plus the open batch.
 * - **Per event, one hop and no intermediate batch pass.** An event is keyed and appended to the
 *   open batch directly, collapsing with the key's last delta as `dedupDeltas` would.
 * - **List pages are prepared as they arrive**: keyed and deep-frozen while the next page is on
 *   the wire, so `LIST_DONE` only has to apply them.
 *
 * What it shares with them: every rule. Keying and its rejections (`objectKeying`), the relist's
 * deltas and tombstones, the dedup collapse, the batch's resourceVersion and the resync batch
 * (src/store/deltaRules.ts) are the functions the operators call; only the bookkeeping differs.
 * Orders the composition leaves to map iteration are the store's order here: the tombstones a
 * relist makes and the keys of a resync batch (client-go leaves both to Go map order).
 */
export function toStore<T extends KubeObject>(config: ToStoreConfig<T> = {}): OperatorFunction<RawEvent<T>, StoreUpdate<T>> {
  const keying = objectKeying<T>(config);
  const { windowMs, scheduler: bufferScheduler } = batchClosing(config.buffer ?? {});
  const defaultClosing = windowMs === 0 && config.buffer?.scheduler === undefined;
  const resyncMs = config.resyncMs ?? 0;
  resyncEnabled(resyncMs); // checked at call time
  const periods = config.resyncPeriods ?? resyncMs;
  const resyncScheduler = config.resyncScheduler ?? asyncScheduler;
  const indexers = config.indexers ?? {};
  const indexNames = indexNamesOf(indexers);

  return operate<RawEvent<T>, StoreUpdate<T>>((subscriber) => {
    // The default closing, "at the end of the synchronous burst", is asapScheduler's microtask. On
    // real time it is taken with queueMicrotask: asapScheduler's action and flush cost ~6 µs of
    // every batch, and on a quiet watch every event is a batch. Inside TestScheduler.run, where
    // asapScheduler runs on virtual time (its now() is the frame, not the epoch), it stays the scheduler.
    const microtask = defaultClosing && Math.abs(bufferScheduler.now() - Date.now()) < 60_000;
    let snapshot: Snapshot<T> = emptySnapshot<T>(indexNames);
    // The list in progress: key → latest object (first position), frozen; and the rejections of
    // its items, reported when the list completes (as toDeltas does).
    let listing: Map<string, Frozen<T>> | null = null;
    let held: InformerError[] = [];
    // The open batch, as bufferByKey + dedupDeltas would hold it. A list applied to an empty
    // store with nothing else pending is kept as its map (`pendingList`) until anything else is
    // appended; flushed alone, it takes the fast path (the initial sync).
    let pending = new Map<string, Delta<T>[]>();
    let pendingList: Map<string, Frozen<T>> | null = null;
    let resourceVersion: string | undefined;
    let listed = false;
    let resynced = false; // a resync tick joined the open batch
    let open = false;
    let closing: Subscription | null = null;

    // Computes the next store update from the current snapshot and emits it (or the error). Also
    // called from timers, outside the source's next, so it catches for itself.
    const emit = (next: (current: Snapshot<T>) => StoreUpdate<T>): void => {
      let update: StoreUpdate<T>;
      try {
        update = next(snapshot);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      snapshot = update.snapshot;
      subscriber.next(update);
    };

    const flush = (): void => {
      closing?.unsubscribe();
      closing = null;
      if (!open) return;
      if (resynced) materializeList(); // the fast path knows nothing of resync batches
      const list = pendingList;
      const batch: DeltaBatch<T> = { deltas: pending, resourceVersion, ...(listed ? { listed } : {}), ...(resynced ? { resync: true } : {}) };
      pendingList = null;
      pending = new Map();
      resourceVersion = undefined;
      listed = false;
      resynced = false;
      open = false;
      if (list !== null) emit((current) => applyListToEmpty(current, list, batch.resourceVersion!, indexers));
      else emit((current) => applyBatch(current, batch, indexers));
    };

    // An event joined the open batch: bufferByKey's rules for the batch's resourceVersion and closing.
    const joined = (event: DeltaEvent<T>): void => {
      resourceVersion = batchResourceVersion(resourceVersion, event);
      if (event.type === 'Listed') listed = true;
      open = true;
      if (closing !== null) return;
      if (!microtask) {
        closing = bufferScheduler.schedule(flush, windowMs);
        return;
      }
      // Subscription.EMPTY marks the microtask as pending; flush and finalize clear it.
      closing = Subscription.EMPTY;
      queueMicrotask(() => {
        if (closing === Subscription.EMPTY) flush();
      });
    };

    // Turns a pending list back into ordinary deltas, before anything else joins the batch.
    const materializeList = (): void => {
      if (pendingList === null) return;
      for (const [key, object] of pendingList) pending.set(key, [{ type: 'Replaced', key, object }]);
      pendingList = null;
    };

    // Appends a delta to the open batch, collapsing it with the key's last one as dedupDeltas does.
    const append = (delta: Delta<T>): void => {
      materializeList();
      const list = pending.get(delta.key);
      if (list === undefined) pending.set(delta.key, [delta]);
      else appendDelta(list, delta);
      joined(delta);
    };

    // The latest object of a key the stages downstream of toDeltas would hold, or undefined.
    const knownObject = (key: string): Frozen<T> | undefined => {
      if (pendingList !== null) return pendingList.get(key);
      const list = pending.get(key);
      if (list !== undefined) {
        const last = list[list.length - 1]!;
        return last.type === 'Deleted' ? undefined : last.object;
      }
      return snapshot.get(key);
    };

    // Every key toDeltas would know, with its latest object: the store, then the open batch.
    function* knownEntries(): Generator<[string, Frozen<T>]> {
      for (const entry of snapshot.entries()) if (!pending.has(entry[0])) yield entry;
      for (const key of pending.keys()) {
        const object = knownObject(key);
        if (object !== undefined) yield [key, object];
      }
    }

    const finishList = (rv: string): void => {
      const items = listing ?? new Map<string, Frozen<T>>();
      const rejected = held;
      listing = null;
      held = [];
      keying.settle(rejected);
      materializeList();
      if (snapshot.size === 0 && pending.size === 0) {
        // The initial sync (or a relist of an empty store): nothing to tombstone, nothing to merge.
        pendingList = items;
      } else {
        for (const delta of relistDeltas(items, items, knownEntries())) append(delta);
      }
      joined({ type: 'Listed', resourceVersion: rv });
    };

    // R17: a tick queues a Resync marker and a Sync for every stored key that has nothing queued
    // in the open batch (a key with queued deltas is skipped: its stored object is out of date).
    // They join the open batch, or open one, as they would in bufferByKey.
    const tick = (): void => {
      for (const event of resyncEvents(snapshot.entries())) {
        if (event.type === 'Resync') {
          resynced = true;
          joined(event);
        } else if (event.type === 'Sync' && !skipsResync(pending, event)) append(event);
      }
    };
    const resyncs = resyncTicks(periods, resyncScheduler).subscribe({ next: tick, error: (error: unknown) => subscriber.error(error) });

    return {
      next(event) {
        switch (event.type) {
          case 'LIST_START':
            listing = new Map();
            held = [];
            return;
          case 'LIST_PAGE': {
            // Keyed and frozen as pages arrive, while the next page is still on the wire.
            const into = (listing ??= new Map());
            for (const object of event.items) {
              const key = keying.listKey(object, held);
              if (key !== undefined) into.set(key, prepareForStore(object, snapshot.get(key)));
            }
            return;
          }
          case 'LIST_DONE':
            finishList(event.resourceVersion);
            return;
          case 'BOOKMARK':
            joined({ type: 'Bookmark', resourceVersion: event.resourceVersion });
            return;
          case 'STATUS':
            return; // as toDeltas: a status changes no object
          case 'ADDED':
          case 'MODIFIED': {
            const key = keying.key(event.type, event.object);
            if (key !== undefined) append({ type: event.type === 'ADDED' ? 'Added' : 'Updated', key, object: event.object as Frozen<T> }); // read-only from here on
            return;
          }
          case 'DELETED': {
            const key = keying.key(event.type, event.object);
            if (key !== undefined && knownObject(key) !== undefined) append({ type: 'Deleted', key, object: event.object as Frozen<T> }); // R15
            return;
          }
          default:
            throw unknownRawEvent(event);
        }
      },
      complete() {
        flush();
        subscriber.complete();
      },
      finalize() {
        resyncs.unsubscribe();
        closing?.unsubscribe();
        closing = null;
        pending = new Map();
        pendingList = null;
        listing = null;
        held = [];
      },
    };
  });
}
