import type { Frozen } from '../store/frozen.js';
import type { OperatorFunction } from 'rxjs';
import type { RawEvent } from '../sources/rawEvent.js';
import type { Delta, DeltaEvent } from '../store/delta.js';
import { relistDeltas } from '../store/deltaRules.js';
import { metaNamespaceKey, type KeyFunc } from '../store/keyFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import { invalidObjectError, type InformerError } from '../errors.js';
import { operate } from './operate.js';
import { argumentError } from '../options/optionChecks.js';

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
 * @internal How toDeltas keys objects (shared with the informer's fused stage, so both apply one
 * rule): a watch object that cannot be keyed is reported to `onInvalidObject` and skipped, or,
 * without it, errors the stream; a list item's failure is held until the list is done (R16), so a
 * list that is abandoned for a new one reports nothing.
 */
export interface ObjectKeying<T> {
  /** The key of a watch object; `undefined` when it was rejected and reported. @throws the rejection without `onInvalidObject` */
  key(eventType: string, object: T): string | undefined;
  /** The key of a list item; `undefined` when it was rejected (the rejection joins `held`). */
  listKey(object: T, held: InformerError[]): string | undefined;
  /** Reports the held rejections of a finished list, in list order. @throws the first one without `onInvalidObject` */
  settle(held: readonly InformerError[]): void;
}

/** @internal The {@link ObjectKeying} of a config; checks it at call time. */
export function objectKeying<T extends KubeObject>(config: ToDeltasConfig<T>): ObjectKeying<T> {
  const keyFunc: KeyFunc<T> = config.keyFunc ?? metaNamespaceKey;
  const { onInvalidObject } = config;
  if (typeof keyFunc !== 'function') throw argumentError('toDeltas', 'keyFunc must be a function');
  const settle = (held: readonly InformerError[]): void => {
    for (const error of held) {
      if (onInvalidObject === undefined) throw error;
      onInvalidObject(error);
    }
  };
  return {
    key(eventType, object) {
      try {
        return keyFunc(object);
      } catch (cause) {
        settle([invalidObjectError(eventType, cause)]);
        return undefined;
      }
    },
    listKey(object, held) {
      try {
        return keyFunc(object);
      } catch (cause) {
        held.push(invalidObjectError('LIST_DONE', cause));
        return undefined;
      }
    },
    settle,
  };
}

/** @internal The error for an event that is not a {@link RawEvent} (shared with the fused stage). */
export function unknownRawEvent(event: never): TypeError {
  return argumentError('toDeltas', `unknown raw event type ${JSON.stringify((event as { type?: unknown } | null)?.type)}`);
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
 * - `BOOKMARK` → a `Bookmark` marker; `STATUS` is dropped.
 *
 * "Known" keys are the keys of every object this operator has passed on and not deleted: exactly
 * the keys the store holds once the deltas are applied, including those still queued downstream.
 *
 * ## Example
 * ```ts
 * import { from } from 'rxjs';
 * import { toDeltas } from 'rx-informer';
 * import { configMap, listEvents } from 'rx-informer/testing';
 *
 * // LIST_START, LIST_PAGE (one ConfigMap), LIST_DONE at resourceVersion 1:
 * from(listEvents([configMap('a', { resourceVersion: '1' })], '1')).pipe(toDeltas()).subscribe((d) => console.log(d.type));
 * // Logs:
 * // Replaced
 * // Listed
 * ```
 *
 * @param config key function and what to do with objects it rejects.
 * @returns an operator from {@link RawEvent}s to {@link DeltaEvent}s.
 */
export function toDeltas<T extends KubeObject>(config: ToDeltasConfig<T> = {}): OperatorFunction<RawEvent<T>, DeltaEvent<T>> {
  const keying = objectKeying(config);

  return operate<RawEvent<T>, DeltaEvent<T>>((subscriber) => {
    // Key -> latest object, in the order keys became known.
    let known = new Map<string, Frozen<T>>();
    // The list in progress (keyed items in list order, their keys, held rejections), or null outside a list.
    let listed: { items: [string, Frozen<T>][]; keys: Set<string>; held: InformerError[] } | null = null;

    const finishList = (resourceVersion: string): void => {
      const { items, keys, held } = listed ?? { items: [], keys: new Set<string>(), held: [] };
      listed = null;
      keying.settle(held);
      const deltas = relistDeltas(items, keys, known);
      known = new Map(items);
      for (const delta of deltas) subscriber.next(delta);
      subscriber.next({ type: 'Listed', resourceVersion });
    };

    return {
      next(event) {
        switch (event.type) {
          case 'LIST_START':
            listed = null;
            return;
          case 'LIST_PAGE': {
            const list = (listed ??= { items: [], keys: new Set(), held: [] });
            for (const item of event.items) {
              const key = keying.listKey(item, list.held);
              if (key === undefined) continue;
              list.items.push([key, item as Frozen<T>]); // read-only from here on: the store will freeze it
              list.keys.add(key);
            }
            return;
          }
          case 'LIST_DONE':
            finishList(event.resourceVersion);
            return;
          case 'BOOKMARK':
            subscriber.next({ type: 'Bookmark', resourceVersion: event.resourceVersion });
            return;
          case 'STATUS':
            return; // what the source is doing changes no object
          case 'ADDED':
          case 'MODIFIED': {
            const key = keying.key(event.type, event.object);
            if (key === undefined) return;
            const object = event.object as Frozen<T>; // read-only from here on: the store will freeze it
            known.set(key, object);
            subscriber.next({ type: event.type === 'ADDED' ? 'Added' : 'Updated', key, object } satisfies Delta<T>);
            return;
          }
          case 'DELETED': {
            const key = keying.key(event.type, event.object);
            if (key === undefined || !known.delete(key)) return; // R15
            subscriber.next({ type: 'Deleted', key, object: event.object as Frozen<T> });
            return;
          }
          default:
            throw unknownRawEvent(event);
        }
      },
      finalize() {
        known = new Map();
        listed = null;
      },
    };
  });
}
