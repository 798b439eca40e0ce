import { concat, defer, from, Subject, type Observable } from 'rxjs';
import type { RawEvent } from '../sources/rawEvent.js';
import { metaNamespaceKey, type KeyFunc } from '../store/keyFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import { bookmark, listEvents } from './events.js';
import { withResourceVersion } from './objects.js';

/**
 * An in-memory List+Watch source in the manner of client-go's `FakeControllerSource`: a global
 * resourceVersion counter, a current state, and a cold `events$` that lists the current state on
 * subscribe and then streams changes.
 */
export interface FakeListWatch<T extends KubeObject> {
  /** Cold: each subscriber gets a list cycle of the current state, then live events. */
  readonly events$: Observable<RawEvent<T>>;
  /** The counter's current value, as a string. */
  readonly resourceVersion: string;
  /** The current objects, in insertion order. */
  list(): T[];
  /** Stores `object` with the next resourceVersion and broadcasts `ADDED`; returns the stored object. */
  add(object: T): T;
  /** Stores `object` with the next resourceVersion and broadcasts `MODIFIED`. */
  modify(object: T): T;
  /** Removes the object (by object or key) and broadcasts `DELETED` with the final object at the next resourceVersion. */
  delete(objectOrKey: T | string): T;
  /** Like {@link add} without telling open watches: only a relist reveals it. */
  addDropWatch(object: T): T;
  /** Like {@link modify} without telling open watches. */
  modifyDropWatch(object: T): T;
  /** Like {@link delete} without telling open watches. */
  deleteDropWatch(objectOrKey: T | string): T;
  /** Broadcasts a full list cycle of the current state (what a source does after a `410`). */
  relist(): void;
  /** Broadcasts a `BOOKMARK` at the current resourceVersion. */
  bookmark(): void;
}

/**
 * Creates a {@link FakeListWatch} holding `initial` (each given the next resourceVersion).
 *
 * @param initial objects present before anyone subscribes.
 * @param options the key function (`namespace/name` by default).
 */
export function fakeListWatch<T extends KubeObject>(
  initial: readonly T[] = [],
  options: {
    /** How objects are keyed. Default `metaNamespaceKey` (`namespace/name`, or `name` when cluster-scoped). */
    keyFunc?: KeyFunc<T>;
  } = {},
): FakeListWatch<T> {
  const keyFunc = options.keyFunc ?? (metaNamespaceKey as KeyFunc<T>);
  const state = new Map<string, T>();
  const live = new Subject<RawEvent<T>>();
  let counter = 0;

  const stamp = (object: T): T => withResourceVersion(object, String(++counter));
  const put = (object: T): T => {
    const stored = stamp(object);
    state.set(keyFunc(stored), stored);
    return stored;
  };
  const remove = (objectOrKey: T | string): T => {
    const key = typeof objectOrKey === 'string' ? objectOrKey : keyFunc(objectOrKey);
    const current = state.get(key);
    if (current === undefined) throw new Error(`[fakeListWatch] cannot delete ${key}: not present`);
    state.delete(key);
    return stamp(current);
  };
  for (const object of initial) put(object);

  return {
    events$: defer(() => concat(from(listEvents([...state.values()], String(counter))), live)),
    get resourceVersion() {
      return String(counter);
    },
    list: () => [...state.values()],
    add(object) {
      const stored = put(object);
      live.next({ type: 'ADDED', object: stored });
      return stored;
    },
    modify(object) {
      const stored = put(object);
      live.next({ type: 'MODIFIED', object: stored });
      return stored;
    },
    delete(objectOrKey) {
      const final = remove(objectOrKey);
      live.next({ type: 'DELETED', object: final });
      return final;
    },
    addDropWatch: put,
    modifyDropWatch: put,
    deleteDropWatch: remove,
    relist() {
      for (const event of listEvents([...state.values()], String(counter))) live.next(event);
    },
    bookmark() {
      live.next(bookmark(String(counter)));
    },
  };
}
