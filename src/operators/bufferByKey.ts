import { asapScheduler, asyncScheduler, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { isMarker, type Delta, type DeltaBatch, type DeltaEvent } from '../store/delta.js';
import { batchResourceVersion, skipsResync } from '../store/deltaRules.js';
import { operate } from './operate.js';
import { optionChecks } from '../options/optionChecks.js';

/** Options of {@link bufferByKey}. */
export interface BufferByKeyConfig {
  /**
   * How long a batch stays open after its first delta, in milliseconds. `0` (the default) closes
   * it at the end of the current synchronous burst, so a whole page or network chunk becomes one
   * batch and nothing waits for a timer.
   */
  readonly windowMs?: number;
  /** Scheduler of the closing action: `asapScheduler` when `windowMs` is 0, else `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** @internal The validated window and scheduler of a {@link BufferByKeyConfig} (shared with toStore). */
export function batchClosing(config: BufferByKeyConfig): { readonly windowMs: number; readonly scheduler: SchedulerLike } {
  const windowMs = optionChecks('bufferByKey', config).nonNegative('windowMs', config.windowMs) ?? 0;
  return { windowMs, scheduler: config.scheduler ?? (windowMs === 0 ? asapScheduler : asyncScheduler) };
}

/**
 * The DeltaFIFO as an operator: accumulates deltas per key and emits them as batches.
 *
 * <span class="informal">Keys keep the position of their first delta until their batch is emitted,
 * so one busy key cannot starve the others, and a burst becomes one atomic store update.</span>
 *
 * ```text
 * source:   -a1-b1-a2-------(c1 L)---|     a1,a2 = deltas of key a; L = Listed(rv) marker
 * bufferByKey({ windowMs: 5 })
 * result:   -------------x--------y--(z|)  x = {a:[a1,a2], b:[b1]}  y = {c:[c1], listed, rv}
 * ```
 *
 * - Per-key accumulation in an insertion-ordered map; appending to a pending key does not move it
 *   (R13). A key emitted in a batch goes to the end when it comes back.
 * - A batch closes when the consumer can take it: by default at the end of the synchronous burst
 *   that opened it (`asapScheduler`), or `windowMs` after its first delta.
 * - Markers are folded into the batch: `Listed` sets `listed`, `Resync` sets `resync`, and
 *   `resourceVersion` is the collection's version after the batch's last event in arrival order
 *   (a `Listed` or `Bookmark` marker's, or the last stored object's, R28).
 * - A `Sync` for a key that has deltas in the open batch is dropped (R17): its object is already
 *   out of date (see {@link resync}).
 * - On complete the pending batch is emitted first; on error or unsubscribe it is dropped.
 *
 * ## Example
 * ```ts
 * import { from } from 'rxjs';
 * import { bufferByKey } from 'rx-informer';
 *
 * const cm = (name: string, rv: string) => ({ metadata: { name, resourceVersion: rv } });
 * from([
 *   { type: 'Updated', key: 'a', object: cm('a', '1') },
 *   { type: 'Updated', key: 'b', object: cm('b', '2') },
 *   { type: 'Updated', key: 'a', object: cm('a', '3') },
 * ] as const).pipe(bufferByKey()).subscribe((batch) => console.log([...batch.deltas.keys()], batch.resourceVersion));
 * // Logs:
 * // [ 'a', 'b' ] 3
 * ```
 *
 * @param config batch window and scheduler.
 * @returns an operator from {@link DeltaEvent}s to {@link DeltaBatch}es.
 */
export function bufferByKey<T>(config: BufferByKeyConfig = {}): OperatorFunction<DeltaEvent<T>, DeltaBatch<T>> {
  const { windowMs, scheduler } = batchClosing(config);

  return operate<DeltaEvent<T>, DeltaBatch<T>>((subscriber) => {
    let pending = new Map<string, Delta<T>[]>();
    let resourceVersion: string | undefined;
    let listed = false;
    let resynced = false;
    let closing: Subscription | null = null;
    let open = false;

    const flush = (): void => {
      closing?.unsubscribe();
      closing = null;
      if (!open) return;
      const batch: DeltaBatch<T> = { deltas: pending, resourceVersion, ...(listed ? { listed } : {}), ...(resynced ? { resync: true } : {}) };
      pending = new Map();
      resourceVersion = undefined;
      listed = false;
      resynced = false;
      open = false;
      subscriber.next(batch);
    };

    return {
      next(event) {
        if (!isMarker(event) && skipsResync(pending, event)) return; // R17
        open = true;
        resourceVersion = batchResourceVersion(resourceVersion, event);
        if (isMarker(event)) {
          if (event.type === 'Listed') listed = true;
          else if (event.type === 'Resync') resynced = true;
        } else {
          const list = pending.get(event.key);
          if (list === undefined) pending.set(event.key, [event]);
          else list.push(event);
        }
        closing ??= scheduler.schedule(flush, windowMs);
      },
      complete() {
        flush();
        subscriber.complete();
      },
      finalize() {
        closing?.unsubscribe();
        closing = null;
        pending = new Map();
      },
    };
  });
}
