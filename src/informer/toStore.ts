import { asyncScheduler, interval, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { deepFreeze } from '../store/internal/deepFreeze.js';
import type { RawEvent } from '../sources/rawEvent.js';
import { applyBatch, applyListToEmpty, type StoreUpdate } from '../store/applyBatch.js';
import { isTombstone, tombstone, type Delta, type DeltaBatch } from '../store/delta.js';
import type { Indexers } from '../store/indexFunc.js';
import { metaNamespaceKey, type KeyFunc } from '../store/keyFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import { resourceVersionOf } from '../store/resourceVersionOf.js';
import { emptySnapshot, type Snapshot } from '../store/snapshot.js';
import { batchClosing, type BufferByKeyConfig } from '../operators/bufferByKey.js';
import { indexNamesOf } from '../operators/indexReducer.js';
import { resyncEnabled } from '../operators/resync.js';
import { objectKeying } from '../operators/toDeltas.js';
import { invalidObjectError, type InformerError } from '../errors.js';

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
  /** Time source of the resync timer; `asyncScheduler` by default. */
  readonly resyncScheduler?: SchedulerLike;
  /** As in {@link indexReducer}. */
  readonly indexers?: Indexers<T>;
}

/**
 * The informer's store stage in one operator: the same output as
 * `toDeltas() → bufferByKey() → dedupDeltas() → resync() → indexReducer()`, computed with less work.
 *
 * <span class="informal">Internal: `informer()` uses it; the separate operators stay the
 * documented, composable form, and a property test holds this one to their output.</span>
 *
 * ```text
 * source:  -S-P---D----M-M---X---|      S=LIST_START P=LIST_PAGE(a,b) D=LIST_DONE M=MODIFIED(a) X=DELETED(b)
 * toStore()
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
 * Orders the composition leaves to map iteration are the store's order here: the tombstones a
 * relist makes and the keys of a resync batch (client-go leaves both to Go map order).
 */
export function toStore<T extends KubeObject>(config: ToStoreConfig<T> = {}): OperatorFunction<RawEvent<T>, StoreUpdate<T>> {
  const keyOf = objectKeying<T>(config);
  const keyFunc: KeyFunc<T> = config.keyFunc ?? metaNamespaceKey;
  const { onInvalidObject } = config;
  const { windowMs, scheduler: bufferScheduler } = batchClosing(config.buffer ?? {});
  const resyncMs = config.resyncMs ?? 0;
  const resyncOn = resyncEnabled(resyncMs);
  const resyncScheduler = config.resyncScheduler ?? asyncScheduler;
  const indexers = config.indexers ?? {};
  const indexNames = indexNamesOf(indexers);

  return (source) =>
    new Observable<StoreUpdate<T>>((subscriber) => {
      let snapshot: Snapshot<T> = emptySnapshot<T>(indexNames);
      // The list in progress: key → latest object (first position), frozen; and the objects that
      // could not be keyed, reported when the list completes (as toDeltas does).
      let listing: Map<string, T> | null = null;
      let listErrors: InformerError[] = [];
      // The open batch, as bufferByKey + dedupDeltas would hold it. A list applied to an empty
      // store with nothing else pending is kept as its map (`pendingList`) until anything else is
      // appended; flushed alone, it takes the fast path (the initial sync).
      let pending = new Map<string, Delta<T>[]>();
      let pendingList: Map<string, T> | null = null;
      let resourceVersion: string | undefined;
      let listed = false;
      let open = false;
      let closing: Subscription | null = null;

      // Computes the next store update from the current snapshot and emits it (or the error).
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
        const list = pendingList;
        const batch: DeltaBatch<T> = { deltas: pending, resourceVersion, ...(listed ? { listed } : {}) };
        pendingList = null;
        pending = new Map();
        resourceVersion = undefined;
        listed = false;
        open = false;
        if (list !== null) emit((current) => applyListToEmpty(current, list, batch.resourceVersion!, indexers));
        else emit((current) => applyBatch(current, batch, indexers));
      };

      const opened = (): void => {
        open = true;
        if (closing === null) closing = bufferScheduler.schedule(flush, windowMs);
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
        else {
          const last = list[list.length - 1]!;
          if (last.type !== delta.type) list.push(delta);
          else if (!(delta.type === 'Deleted' && isTombstone(delta.object) && !isTombstone(last.object))) list[list.length - 1] = delta;
        }
        if (!isTombstone(delta.object)) resourceVersion = resourceVersionOf(delta.object) ?? resourceVersion;
        opened();
      };

      const marker = (rv: string, isList: boolean): void => {
        resourceVersion = rv;
        if (isList) listed = true;
        opened();
      };

      // The latest object of a key the stages downstream of toDeltas would hold, or undefined.
      const knownObject = (key: string): T | undefined => {
        if (pendingList !== null) return pendingList.get(key);
        const list = pending.get(key);
        if (list !== undefined) {
          const last = list[list.length - 1]!;
          return last.type === 'Deleted' ? undefined : last.object;
        }
        return snapshot.get(key);
      };

      const page = (items: readonly T[]): void => {
        const into = (listing ??= new Map());
        for (const object of items) {
          let key: string;
          try {
            key = keyFunc(object);
          } catch (cause) {
            listErrors.push(invalidObjectError('LIST_DONE', cause));
            continue;
          }
          into.set(key, deepFreeze(object));
        }
      };

      const finishList = (rv: string): void => {
        const items = listing ?? new Map<string, T>();
        const errors = listErrors;
        listing = null;
        listErrors = [];
        for (const error of errors) {
          if (onInvalidObject === undefined) throw error;
          onInvalidObject(error);
        }
        materializeList();
        if (snapshot.size === 0 && pending.size === 0) {
          // The initial sync (or a relist of an empty store): nothing to tombstone, nothing to merge.
          pendingList = items;
          marker(rv, true);
          return;
        }
        // Keys known before the list that it lacks get a tombstone with their last known object.
        const gone: [string, T][] = [];
        for (const [key, object] of snapshot.entries()) if (!items.has(key) && !pending.has(key)) gone.push([key, object]);
        for (const [key] of pending) {
          if (items.has(key)) continue;
          const object = knownObject(key);
          if (object !== undefined) gone.push([key, object]);
        }
        for (const [key, object] of items) append({ type: 'Replaced', key, object });
        for (const [key, object] of gone) append({ type: 'Deleted', key, object: tombstone(key, object) });
        marker(rv, true);
      };

      const onEvent = (event: RawEvent<T>): void => {
        switch (event.type) {
          case 'LIST_START':
            listing = new Map();
            listErrors = [];
            return;
          case 'LIST_PAGE':
            page(event.items);
            return;
          case 'LIST_DONE':
            finishList(event.resourceVersion);
            return;
          case 'BOOKMARK':
            marker(event.resourceVersion, false);
            return;
          case 'ADDED':
          case 'MODIFIED': {
            const key = keyOf(event.type, event.object);
            if (key === undefined) return;
            append({ type: event.type === 'ADDED' ? 'Added' : 'Updated', key, object: event.object });
            return;
          }
          case 'DELETED': {
            const key = keyOf(event.type, event.object);
            if (key === undefined || knownObject(key) === undefined) return;
            append({ type: 'Deleted', key, object: event.object });
            return;
          }
          default:
            throw new TypeError(`[informer] toDeltas: unknown raw event type ${JSON.stringify((event as { type?: unknown }).type)}`);
        }
      };

      const resyncs = resyncOn
        ? interval(resyncMs, resyncScheduler).subscribe(() => {
            if (snapshot.size === 0) return;
            const deltas = new Map<string, readonly Delta<T>[]>();
            for (const [key, object] of snapshot.entries()) deltas.set(key, [{ type: 'Sync', key, object }]);
            emit((current) => applyBatch(current, { deltas, resync: true }, indexers));
          })
        : null;

      const subscription = source.subscribe({
        next: (event) => {
          try {
            onEvent(event);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error) => subscriber.error(error),
        complete: () => {
          flush();
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        resyncs?.unsubscribe();
        closing?.unsubscribe();
        closing = null;
        pending = new Map();
        pendingList = null;
        listing = null;
        listErrors = [];
      };
    });
}
