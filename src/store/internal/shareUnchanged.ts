/**
 * Structural sharing between an object's new version and the one the store holds: every part of
 * `next` equal (as JSON) to the part at the same place in `previous` is replaced by that part, so
 * the new version keeps only what changed as new memory. An update that changes two annotations of
 * a 1.5 KB object then keeps a few hundred bytes, not 1.5 KB: its other parts die young (the
 * garbage collector never copies or promotes them) and are already frozen (deep freeze skips them).
 *
 * Only `next` is changed (its members are reassigned), and only while it is not frozen. The result
 * equals `next` as JSON; it is `previous` itself when the two are equal throughout. Members are
 * compared by name whatever their order, so a result that is (part of) `previous` lists its members
 * in `previous`'s order. A `__proto__` member is never shared (assigning one would set the prototype).
 * A walk stops sharing after {@link maxNodes} objects, so a transform that built a graph with
 * cycles or heavy reuse costs a bounded walk.
 *
 * Internal: nothing here is exported from the package.
 */

/** Objects and arrays one call visits at most. */
const maxNodes = 100_000;

/**
 * @param next the new version, freshly parsed (not frozen: a frozen `next` is returned as it is).
 * @param previous the version the store holds; never changed.
 * @returns `next`, with its unchanged parts taken from `previous`, or `previous` when all is equal.
 */
export function shareUnchanged<T>(next: T, previous: unknown): T {
  if (previous === undefined || Object.isFrozen(next)) return next;
  const budget = { left: maxNodes };
  return share(next, previous, budget) as T;
}

function share(a: unknown, b: unknown, budget: { left: number }): unknown {
  if (a === b) return b;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a;
  return shareObject(a, b, budget);
}

// Leaves are compared in the loops, without a call each. An equal string member takes the old
// version's copy (=== cannot tell copies apart, so it is assigned whatever): the new copy dies young.
function shareObject(a: object, b: object, budget: { left: number }): unknown {
  if (--budget.left < 0 || Object.isFrozen(a)) return a;
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return a;
    let same = a.length === b.length;
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const x: unknown = a[i];
      const y: unknown = b[i];
      if (x === y) {
        if (typeof x === 'string') a[i] = y;
        continue;
      }
      if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
        same = false;
        continue;
      }
      const child = shareObject(x, y, budget);
      if (child !== x) a[i] = child;
      if (child !== y) same = false;
    }
    return same ? b : a;
  }
  if (Array.isArray(b)) return a;
  const from = a as Record<string, unknown>;
  const old = b as Record<string, unknown>;
  let same = true;
  let count = 0;
  for (const key in from) {
    count++;
    const x = from[key];
    const y = old[key]; // JSON has no undefined: undefined means `previous` lacks the member
    if (x === y) {
      if (typeof x === 'string') from[key] = y;
      continue;
    }
    if (y === undefined || key === '__proto__' || typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      same = false;
      continue;
    }
    const child = shareObject(x, y, budget);
    if (child !== x) from[key] = child;
    if (child !== y) same = false;
  }
  if (!same) return a;
  for (const _ in old) if (--count < 0) return a;
  return count === 0 ? b : a;
}
