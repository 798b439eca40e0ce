import type { Frozen } from '../frozen.js';
import { compacted, deepFreeze, emptyObject, freezeTree, inProgress, isEmptyPlainObject, replace } from './deepFreeze.js';

/**
 * Structural sharing between an object's new version and the one the store holds, and the freeze,
 * in one walk. Every part of `next` equal (as JSON) to the part at the same place in `previous` is
 * replaced by that part, so the new version keeps only what changed as new memory: an update that
 * changes two annotations of a 1.5 KB object keeps a few hundred bytes, not 1.5 KB (its other parts
 * die young: the garbage collector never copies or promotes them). What is left of `next` is
 * deep-frozen as {@link deepFreeze} freezes (every empty `{}` below the root becomes the one shared
 * `{}`). The result is `previous` itself when the two are equal throughout.
 *
 * One walk, where sharing then freezing were two (bench/NOTES.md, issue 24): a member is frozen
 * when the comparison leaves it, a part taken from `previous` is never looked at again (it comes
 * from the store: frozen), and an equal string takes the old copy only in a node that is kept,
 * not in one about to be replaced by the old node as a whole.
 *
 * Only `next` is changed (its members are reassigned), and only while it is not frozen; the
 * result equals `next` as JSON. Members are compared by name whatever their order, so a result that
 * is (part of) `previous` lists its members in `previous`'s order. A `__proto__` member is never
 * shared (assigning one would set the prototype). At most {@link maxNodes} objects are compared
 * (the rest is frozen without sharing), so a transform that built a graph with heavy reuse costs a
 * bounded walk; a member pointing back at an object being walked (a cycle) is left to the walk of
 * that object, as deepFreeze does. A frozen `next` is returned as it is.
 *
 * Internal: nothing here is exported from the package.
 *
 * @param next the new version, freshly parsed.
 * @param previous the version the store holds (frozen); never changed. `undefined`: only freeze.
 * @returns the frozen new version, sharing the unchanged parts of `previous`, or `previous`.
 */
export function freezeShared<T>(next: T, previous: unknown): Frozen<T> {
  if (next === null || typeof next !== 'object' || Object.isFrozen(next)) return next as Frozen<T>;
  if (previous === null || typeof previous !== 'object') return deepFreeze(next);
  return walk(next, previous, { left: maxNodes }) as Frozen<T>;
}

/** Objects and arrays one call compares at most (as the sharing walk before it). */
const maxNodes = 100_000;

/**
 * `a` (not frozen) against `b`. Returns `b` when equal throughout, without having changed or
 * frozen anything of `a` but members that became `b`'s. Otherwise `a`, frozen, its equal members
 * taken from `b`: the strings too (their new copies die young), but only in a node that is kept,
 * never in one that is about to be replaced by `b`'s as a whole.
 */
function walk(a: object, b: object, budget: { left: number }): unknown {
  if (--budget.left < 0 || Array.isArray(a) !== Array.isArray(b)) {
    if (!inProgress.includes(a)) freezeTree(a);
    return a;
  }
  inProgress.push(a);
  try {
    if (Array.isArray(a)) {
      if (sameArray(a, b as readonly unknown[], budget)) return b;
      keepArray(a, b as readonly unknown[]);
    } else {
      if (sameRecord(a as Record<string, unknown>, b as Record<string, unknown>, budget)) return b;
      keepRecord(a as Record<string, unknown>, b as Record<string, unknown>);
    }
  } finally {
    inProgress.pop();
  }
  Object.freeze(a);
  return a;
}

/** Compares `a` with `b` member by member, replacing each object member equal throughout by `b`'s; true when all are equal. */
function sameArray(a: unknown[], b: readonly unknown[], budget: { left: number }): boolean {
  let same = a.length === b.length;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      same = false;
      continue;
    }
    const child = member(x, y, budget);
    if (child !== x) a[i] = child;
    if (child !== y) same = false;
  }
  return same;
}

/** As {@link sameArray}, members by name whatever their order; a `__proto__` member is never shared. */
function sameRecord(from: Record<string, unknown>, old: Record<string, unknown>, budget: { left: number }): boolean {
  let same = true;
  let count = 0;
  for (const key in from) {
    count++;
    const x = from[key];
    const y = old[key]; // JSON has no undefined: undefined means `previous` lacks the member
    if (x === y) continue;
    if (y === undefined || key === '__proto__' || typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      same = false;
      continue;
    }
    const child = member(x, y, budget);
    if (child !== x) from[key] = child;
    if (child !== y) same = false;
  }
  if (!same) return false;
  for (const _ in old) if (--count < 0) return false;
  return count === 0;
}

/**
 * An object member `x` against `y`: `y`, or `x` frozen (a frozen `x` as it is), or the shared `{}`
 * for an empty `x` that is not `y`.
 */
function member(x: object, y: object, budget: { left: number }): unknown {
  const extensible = Object.isExtensible(x);
  if (!extensible && Object.isFrozen(x)) return x;
  // fieldsV1 is mostly `{}`s: one against the shared `{}` needs no walk.
  if (y === emptyObject && isEmptyRecord(x)) return y;
  const child = walk(x, y, budget);
  return child === x && extensible && isEmptyPlainObject(x) ? emptyObject : child;
}

/** A kept array: equal strings become `b`'s, the members not frozen yet are frozen as deepFreeze would. */
function keepArray(a: unknown[], b: readonly unknown[]): void {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (typeof x === 'string') {
      if (i < b.length && x === b[i]) a[i] = b[i];
    } else {
      const replacement = compacted(x);
      if (replacement !== undefined) replace(a, i, replacement, x);
    }
  }
}

/** As {@link keepArray}, for a record. */
function keepRecord(from: Record<string, unknown>, old: Record<string, unknown>): void {
  for (const key in from) {
    const x = from[key];
    if (typeof x === 'string') {
      if (x === old[key] && key !== '__proto__') from[key] = old[key];
    } else {
      const replacement = compacted(x);
      if (replacement !== undefined) replace(from, key, replacement, x);
    }
  }
}

/** An object that is not an array and has no enumerable member (what `{}` is equal to). */
function isEmptyRecord(value: object): boolean {
  for (const _ in value) return false;
  return !Array.isArray(value);
}
