import test from 'ava';
import fc from 'fast-check';
import { deepFreeze } from '../../../src/store/internal/deepFreeze.js';
import { shareUnchanged } from '../../../src/store/internal/shareUnchanged.js';

const cm = (data: Record<string, string>, rv: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', namespace: 'ns', resourceVersion: rv, labels: { app: 'web', tier: 'front' }, managedFields: [{ manager: 'helm', fieldsV1: { 'f:data': { '.': {} } } }] },
  data,
});

test('the new version takes the unchanged parts of the old one and keeps its own changed parts', (t) => {
  const old = deepFreeze(cm({ x: '1', y: '2' }, '5'));
  const next = cm({ x: '1', y: '3' }, '6');
  const result = deepFreeze(shareUnchanged(next, old)); // frozen as the store would, to compare with the frozen old version
  t.is(result, next);
  t.is(result.metadata.labels, old.metadata.labels);
  t.is(result.metadata.managedFields, old.metadata.managedFields);
  t.not(result.metadata, old.metadata, 'resourceVersion changed');
  t.not(result.data, old.data);
  t.deepEqual(result, cm({ x: '1', y: '3' }, '6'));
  t.deepEqual(old, cm({ x: '1', y: '2' }, '5'), 'the old version is untouched');
});

test('equal throughout: the old version itself; a frozen new version or no old one: the new version untouched', (t) => {
  const old = deepFreeze(cm({ x: '1' }, '5'));
  t.is(shareUnchanged<unknown>(cm({ x: '1' }, '5'), old), old);
  const frozen = deepFreeze(cm({ x: '1' }, '5'));
  t.is(shareUnchanged(frozen, old), frozen);
  t.not(frozen.metadata, old.metadata);
  const alone = cm({ x: '1' }, '5');
  t.is(shareUnchanged(alone, undefined), alone);
});

test('members are compared by name; missing, extra, renamed members and arrays of another length are changes', (t) => {
  const old = deepFreeze({ a: { x: 1, y: 2 }, b: [1, 2, 3], c: { k: 'v' }, d: [{ n: 1 }, { n: 2 }] });
  const next = { a: { y: 2, x: 1 }, b: [1, 2], c: { k: 'v', extra: 0 }, d: [{ n: 1 }, { n: 2 }, { n: 3 }] };
  const result = shareUnchanged(next, old);
  t.is(result.a, old.a, 'same members in another order');
  t.not(result.b, old.b);
  t.not(result.c, old.c);
  t.not(result.d, old.d);
  t.is(result.d[0], old.d[0], 'elements shared by position');
  t.deepEqual(result, { a: { x: 1, y: 2 }, b: [1, 2], c: { k: 'v', extra: 0 }, d: [{ n: 1 }, { n: 2 }, { n: 3 }] });
  t.deepEqual(shareUnchanged({ a: { x: 1 } }, { a: { x: 1, y: 2 } }), { a: { x: 1 } });
  t.deepEqual(shareUnchanged({ a: null, b: [] }, { a: {}, b: {} }), { a: null, b: [] });
});

test('a __proto__ member is never shared or assigned, and the prototype stays', (t) => {
  const old = deepFreeze(JSON.parse('{"m":{"__proto__":{"polluted":true},"k":1}}'));
  const next = JSON.parse('{"m":{"__proto__":{"polluted":true},"k":1}}');
  const result = shareUnchanged(next, old);
  t.is(Object.getPrototypeOf(result.m), Object.prototype);
  t.deepEqual(Object.keys(result.m), ['__proto__', 'k']);
  t.is(({} as { polluted?: boolean }).polluted, undefined);
});

test('a new version with cycles (a transform can build one) ends', (t) => {
  const old = deepFreeze({ a: { b: 1 } });
  const next: { a: { b: number }; self?: unknown; loop?: unknown[] } = { a: { b: 1 } };
  next.self = next;
  next.loop = [next, next];
  const result = shareUnchanged(next, old);
  t.is(result, next);
  t.is(result.a, old.a);
});

test('property: the result equals the new version as JSON, the old one is never changed, and equal parts are the old ones', (t) => {
  const json = fc.jsonValue({ maxDepth: 4 });
  fc.assert(
    fc.property(json, json, fc.boolean(), fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), (before, unrelated, derive, flips) => {
      const old = deepFreeze<unknown>(structuredClone(before)); // a JSON value: Frozen<JsonValue> would recurse without end
      const oldText = JSON.stringify(old);
      // Half the time the new version is the old one with random parts replaced, so much is shared.
      let flip = 0;
      const nextValue = derive ? mix(before, unrelated, () => flips[flip++ % flips.length]!) : unrelated;
      const result = shareUnchanged(structuredClone(nextValue), old);
      t.deepEqual(result, nextValue);
      t.is(JSON.stringify(old), oldText);
      if (JSON.stringify(sorted(nextValue)) === JSON.stringify(sorted(before)) && typeof before === 'object' && before !== null) t.is(result, old);
    }),
    { numRuns: 300 },
  );
});

/** `a` with some of its members (recursively) replaced by those of `b`, as `replace()` says. */
function mix(a: unknown, b: unknown, replace: () => boolean): unknown {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return replace() ? b : a;
  if (Array.isArray(a)) return a.map((v, i) => (Array.isArray(b) && i < b.length ? mix(v, b[i], replace) : v));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) {
    const value = Object.hasOwn(b, k) ? mix(v, (b as Record<string, unknown>)[k], replace) : v;
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A copy with object members sorted by name (members are compared by name, not position). */
function sorted(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(sorted);
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
}
