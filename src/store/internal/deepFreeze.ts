import type { Frozen } from '../frozen.js';

/**
 * Freezes a JSON-like value and everything reachable from it, skipping parts already frozen (so
 * objects shared with an earlier snapshot cost nothing), and makes every empty plain object `{}`
 * below the root one shared frozen `{}`. A managedFields entry's `fieldsV1` is a tree of them
 * (`"f:data": {".": {}, "f:key": {}}`): ~20 per ConfigMap, ~840 of its ~2,250 bytes on the heap.
 * The value stays equal as JSON. Kubernetes objects are plain JSON (own enumerable string keys,
 * arrays, no cycles); anything else (a transform's class instance, a cycle) is still frozen and
 * ends, but only plain `{}`s are shared.
 *
 * Interning every repeated string in this walk was measured: another ~290 bytes per ConfigMap, for
 * ~30 % more CPU in the initial sync; not kept (bench/NOTES.md). The store interns only the metadata
 * places where strings repeat across objects, before this walk (`internStrings`).
 *
 * Internal: nothing here is exported from the package. The walk's parts are exported for
 * `freezeShared`, which freezes a new version while sharing it with the old one in the same walk.
 */
export function deepFreeze<T>(value: T): Frozen<T> {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) freezeTree(value as object);
  return value as Frozen<T>; // what freezeTree made of it (TypeScript cannot relate a generic T to Frozen<T>)
}

/** The one empty object every `{}` below a root becomes. */
export const emptyObject: object = Object.freeze({});

/**
 * Objects being frozen further up the current walk: a member pointing back at one of them (a cycle)
 * is left to that walk. A lookup in a list as long as the object is deep, where marking each object
 * non-extensible first cost a second hidden-class transition per object (list sync 0.76×).
 */
export const inProgress: object[] = [];

/** Freezes `object` and everything reachable from it that is not frozen yet (not its own `{}` check: that is the parent's). */
export function freezeTree(object: object): void {
  // Members stay writable while its children are walked, so they can be replaced.
  inProgress.push(object);
  try {
    if (Array.isArray(object)) {
      for (let i = 0; i < object.length; i++) {
        const child: unknown = object[i];
        const replacement = compacted(child);
        if (replacement !== undefined) replace(object as unknown[], i, replacement, child);
      }
    } else {
      const record = object as Record<string, unknown>;
      for (const key in record) {
        const child = record[key];
        const replacement = compacted(child);
        if (replacement !== undefined) replace(record, key, replacement, child);
      }
    }
  } finally {
    inProgress.pop();
  }
  Object.freeze(object);
}

/** Freezes a member's value; returns the shared `{}` to take its place, or undefined to keep it. */
export function compacted(child: unknown): unknown {
  if (child === null || typeof child !== 'object') return undefined;
  if (Object.isExtensible(child)) {
    if (isEmptyPlainObject(child)) return emptyObject;
    if (!inProgress.includes(child)) freezeTree(child);
  } else if (!Object.isFrozen(child) && !inProgress.includes(child)) {
    // Made non-extensible by its author, not by this walk: frozen all the same.
    freezeTree(child);
  }
  return undefined;
}

/** Replaces a member; a member its author made read-only keeps its value, frozen (it is equal anyway). */
export function replace<K extends string | number>(container: Record<K, unknown>, key: K, value: unknown, was: unknown): void {
  try {
    container[key] = value;
  } catch {
    if (typeof was === 'object' && was !== null) Object.freeze(was);
  }
}

/** `{}`: no enumerable member, Object.prototype (a class instance or Map stays itself). */
export function isEmptyPlainObject(value: object): boolean {
  for (const _ in value) return false;
  return !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}
