import { Observable, type OperatorFunction } from 'rxjs';
import type { RawEvent } from '../sources/rawEvent.js';
import { tombstone, type Delta, type DeltaEvent } from '../store/delta.js';
import { metaNamespaceKey, type KeyFunc } from '../store/keyFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import { invalidObjectError, type InformerError } from '../errors.js';

/** Options of {@link toDeltas}. */
export interface ToDeltasConfig<T> {
  /** Key of an object; default `namespace/name` ({@link metaNamespaceKey}). */
  readonly keyFunc?: KeyFunc<T>;
  /**
   * Called with the error when an object cannot be keyed (for example it has no name); the object
   * is skipped and the stream goes on. Without it, such an object errors the stream.
   */
  readonly onInvalidObject?: (error: InformerError) => void;
}


/**
 * @internal The key of an object as toDeltas takes it (shared with toStore): `undefined` when the
 * key function throws and `onInvalidObject` took the {@link InformerError} (reason `invalidObject`); without it, the
 * error is thrown.
 */
export function objectKeying<T extends KubeObject>(config: ToDeltasConfig<T>): (eventType: string, object: T) => string | undefined {
  const keyFunc: KeyFunc<T> = config.keyFunc ?? metaNamespaceKey;
  const { onInvalidObject } = config;
  if (typeof keyFunc !== 'function') throw new TypeError('[informer] toDeltas: keyFunc must be a function');
  return (eventType, object) => {
    try {
      return keyFunc(object);
    } catch (cause) {
      const error = invalidObjectError(eventType, cause);
      if (onInvalidObject === undefined) throw error;
      onInvalidObject(error);
      return undefined;
    }
  };
}

/**
 * Turns raw List+Watch events into deltas, the way client-go's DeltaFIFO turns reflector calls
 * into queue entries.
 *
 * <span class="informal">A list is held back until `LIST_DONE`, then becomes `Replaced` for every
 * item and a tombstone `Deleted` for every key it no longer contains.</span>
 *
 * ```text
 * source:  -S-P----D-----A---M---X---B-|      S=LIST_START P=LIST_PAGE(a,b) D=LIST_DONE(rv 5)
 *                                              A=ADDED(c) M=MODIFIED(a) X=DELETED(zz, never seen)
 *                                              B=BOOKMARK(rv 9)
 * toDeltas()
 *
 * result:  -------(abL)--c---m-------k-|      a,b=Replaced L=Listed(5) c=Added m=Updated k=Bookmark(9)
 * ```
 *
 * - `LIST_START` drops anything buffered from an unfinished list; `LIST_PAGE` buffers.
 * - `LIST_DONE` emits, synchronously and in list order, `Replaced` per item (R16.1); then
 *   `Deleted(tombstone(key, last known object))` for each known key the list lacks, in the order the
 *   keys became known (R16.2–3); then a `Listed` marker with the list's resourceVersion.
 * - `ADDED` → `Added`, `MODIFIED` → `Updated`, `DELETED` → `Deleted` with the final object;
 *   a `DELETED` for a key that is not known is dropped (R15).
 * - `BOOKMARK` → a `Bookmark` marker.
 *
 * "Known" keys are the keys of every object this operator has passed on and not deleted: exactly
 * the keys the store holds once the deltas are applied, including those still queued downstream.
 *
 * ## Example
 * ```ts
 * import { of } from 'rxjs';
 * import { toDeltas } from 'rx-informer';
 *
 * of(
 *   { type: 'LIST_START' },
 *   { type: 'LIST_PAGE', items: [{ metadata: { name: 'a', resourceVersion: '1' } }], page: 1, itemsSoFar: 1 },
 *   { type: 'LIST_DONE', resourceVersion: '1' },
 * ).pipe(toDeltas()).subscribe((d) => console.log(d.type));
 * // Logs:
 * // Replaced
 * // Listed
 * ```
 *
 * @param config key function and what to do with objects it rejects.
 * @returns an operator from {@link RawEvent}s to {@link DeltaEvent}s.
 */
export function toDeltas<T extends KubeObject>(config: ToDeltasConfig<T> = {}): OperatorFunction<RawEvent<T>, DeltaEvent<T>> {
  const keyOf = objectKeying(config);

  return (source) =>
    new Observable<DeltaEvent<T>>((subscriber) => {
      // Key -> latest object, in the order keys became known.
      let known = new Map<string, T>();
      // Items of the list in progress, or null outside a list.
      let listed: T[] | null = null;

      const finishList = (resourceVersion: string): void => {
        const items = listed ?? [];
        listed = null;
        const next = new Map<string, T>();
        const out: DeltaEvent<T>[] = [];
        for (const object of items) {
          const key = keyOf('LIST_DONE', object);
          if (key === undefined) continue;
          next.set(key, object);
          out.push({ type: 'Replaced', key, object });
        }
        for (const [key, object] of known) {
          if (!next.has(key)) out.push({ type: 'Deleted', key, object: tombstone(key, object) });
        }
        known = next;
        out.push({ type: 'Listed', resourceVersion });
        for (const delta of out) subscriber.next(delta);
      };

      const onEvent = (event: RawEvent<T>): void => {
        switch (event.type) {
          case 'LIST_START':
            listed = [];
            return;
          case 'LIST_PAGE': {
            const buffer = (listed ??= []);
            for (const item of event.items) buffer.push(item);
            return;
          }
          case 'LIST_DONE':
            finishList(event.resourceVersion);
            return;
          case 'BOOKMARK':
            subscriber.next({ type: 'Bookmark', resourceVersion: event.resourceVersion });
            return;
          case 'ADDED':
          case 'MODIFIED': {
            const key = keyOf(event.type, event.object);
            if (key === undefined) return;
            known.set(key, event.object);
            subscriber.next({ type: event.type === 'ADDED' ? 'Added' : 'Updated', key, object: event.object } satisfies Delta<T>);
            return;
          }
          case 'DELETED': {
            const key = keyOf(event.type, event.object);
            if (key === undefined || !known.delete(key)) return;
            subscriber.next({ type: 'Deleted', key, object: event.object });
            return;
          }
          default:
            throw new TypeError(`[informer] toDeltas: unknown raw event type ${JSON.stringify((event as { type?: unknown }).type)}`);
        }
      };

      const subscription = source.subscribe({
        next: (event) => {
          try {
            onEvent(event);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        subscription.unsubscribe();
        known = new Map();
        listed = null;
      };
    });
}
