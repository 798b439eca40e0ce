import assert from 'node:assert/strict';
import test from 'ava';
import fc from 'fast-check';
import { assertProperty } from '../../helpers/assertProperty.js';
import { deepFreeze, emptyObject } from '../../../src/store/internal/deepFreeze.js';
import { freezeShared } from '../../../src/store/internal/freezeShared.js';

const cm = (data: Record<string, string>, rv: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', namespace: 'ns', resourceVersion: rv, labels: { app: 'web', tier: 'front' }, managedFields: [{ manager: 'helm', fieldsV1: { 'f:data': { '.': {} } } }] },
  data,
});

test('the new version takes the unchanged parts of the old one and keeps its own changed parts', (t) => {
  const old = deepFreeze(cm({ x: '1', y: '2' }, '5'));
  const next = cm({ x: '1', y: '3' }, '6');
  const result = freezeShared(next, old); // frozen as the store keeps it
  t.is(result, next);
  t.is(result.metadata.labels, old.metadata.labels);
  t.is(result.metadata.managedFields, old.metadata.managedFields);
  t.not(result.metadata, old.metadata, 'resourceVersion changed');
  t.not(result.data, old.data);
  t.deepEqual(result, cm({ x: '1', y: '3' }, '6'));
  t.deepEqual(old, cm({ x: '1', y: '2' }, '5'), 'the old version is untouched');
});

test('equal throughout: the old version itself; a frozen new version or no old one: the new version itself', (t) => {
  const old = deepFreeze(cm({ x: '1' }, '5'));
  t.is(freezeShared<unknown>(cm({ x: '1' }, '5'), old), old);
  const frozen = deepFreeze(cm({ x: '1' }, '5'));
  t.is(freezeShared(frozen, old), frozen);
  t.not(frozen.metadata, old.metadata);
  const alone = cm({ x: '1' }, '5');
  t.is(freezeShared(alone, undefined), alone);
});

test('members are compared by name; missing, extra, renamed members and arrays of another length are changes', (t) => {
  const old = deepFreeze({ a: { x: 1, y: 2 }, b: [1, 2, 3], c: { k: 'v' }, d: [{ n: 1 }, { n: 2 }] });
  const next = { a: { y: 2, x: 1 }, b: [1, 2], c: { k: 'v', extra: 0 }, d: [{ n: 1 }, { n: 2 }, { n: 3 }] };
  const result = freezeShared(next, old);
  t.is(result.a, old.a, 'same members in another order');
  t.not(result.b, old.b);
  t.not(result.c, old.c);
  t.not(result.d, old.d);
  t.is(result.d[0], old.d[0], 'elements shared by position');
  t.deepEqual(result, { a: { x: 1, y: 2 }, b: [1, 2], c: { k: 'v', extra: 0 }, d: [{ n: 1 }, { n: 2 }, { n: 3 }] });
  t.deepEqual(freezeShared({ a: { x: 1 } }, { a: { x: 1, y: 2 } }), { a: { x: 1 } });
  t.deepEqual(freezeShared({ a: null, b: [] }, { a: {}, b: {} }), { a: null, b: [] });
});

test('a __proto__ member is never shared or assigned, and the prototype stays', (t) => {
  const old = deepFreeze(JSON.parse('{"m":{"__proto__":{"polluted":true},"k":1}}'));
  const next = JSON.parse('{"m":{"__proto__":{"polluted":true},"k":1}}');
  const result = freezeShared(next, old);
  t.is(Object.getPrototypeOf(result.m), Object.prototype);
  t.deepEqual(Object.keys(result.m), ['__proto__', 'k']);
  t.is(({} as { polluted?: boolean }).polluted, undefined);
});

test('a new version with cycles (a transform can build one) ends', (t) => {
  const old = deepFreeze({ a: { b: 1 } });
  const next: { a: { b: number }; self?: unknown; loop?: unknown[] } = { a: { b: 1 } };
  next.self = next;
  next.loop = [next, next];
  const result = freezeShared(next, old);
  t.is(result, next);
  t.is(result.a, old.a);
});

/**
 * The first property's check for one draw: `result` equals the new version as JSON, the old version is
 * never changed, and a new version equal to the old one throughout (members in any order) is the old
 * one — unless it holds a `__proto__` member whose value is an object: such a member is never shared
 * (assigning it would set the prototype), so neither is any part that holds it, and the result is a
 * new object equal to the old one.
 */
function checkSharing(before: unknown, unrelated: unknown, derive: boolean, flips: readonly boolean[]): void {
  const old = deepFreeze<unknown>(structuredClone(before)); // a JSON value: Frozen<JsonValue> would recurse without end
  const oldText = JSON.stringify(old);
  // Half the time the new version is the old one with random parts replaced, so much is shared.
  let flip = 0;
  const nextValue = derive ? mix(before, unrelated, () => flips[flip++ % flips.length]!) : unrelated;
  const result = freezeShared(structuredClone(nextValue), old);
  assert.deepEqual(result, nextValue);
  assert.equal(JSON.stringify(old), oldText);
  if (JSON.stringify(sorted(nextValue)) === JSON.stringify(sorted(before)) && typeof before === 'object' && before !== null) {
    if (holdsObjectProto(before)) assert.notEqual(result, old, 'a part holding a __proto__ object member is never shared');
    else assert.equal(result, old);
  }
}

test('a new version equal to the old one but holding a __proto__ member whose value is an object is equal to the old one, not the old one (the draw that failed CI at random)', (t) => {
  // fast-check's jsonValue drew this (CI on f74cc83): an own `__proto__` member holding an array.
  const before = JSON.parse('{"":"}wbjl$\\"DR",")h^<~]":true,"L":true,"UNvH":false,"__proto__":[null,"d_I|`",true]}') as unknown;
  t.notThrows(() => checkSharing(before, before, true, [false]));
  t.notThrows(() => checkSharing(before, before, false, [false]));
  // A primitive `__proto__` member equal on both sides needs no assignment: the old version is shared.
  const primitive = '{"k":1,"__proto__":"x"}';
  const old = deepFreeze(JSON.parse(primitive) as unknown);
  t.is(freezeShared(JSON.parse(primitive) as unknown, old), old);
});

test('property: the result equals the new version as JSON, the old one is never changed, and equal parts are the old ones', (t) => {
  const json = fc.jsonValue({ maxDepth: 4 });
  assertProperty(
    t,
    fc.property(json, json, fc.boolean(), fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), (before, unrelated, derive, flips) => checkSharing(before, unrelated, derive, flips)),
    { numRuns: 300 },
  );
});

/** Whether `value` holds, at any depth, an own `__proto__` member whose value is an object (the one member freezeShared never shares). */
function holdsObjectProto(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) {
    const member = (value as Record<string, unknown>)['__proto__'];
    if (typeof member === 'object' && member !== null) return true;
  }
  return Object.values(value).some(holdsObjectProto);
}

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

test('the result is frozen throughout, the old version included, and every `{}` below the root is one shared `{}`', (t) => {
  const old = deepFreeze(cm({ x: '1' }, '5'));
  const next = { ...cm({ x: '2' }, '6'), extra: { empty: {}, list: [{}, { deep: {} }] as { deep?: object }[] } };
  const result = freezeShared(next, old);
  t.is(result, next);
  t.true(frozenThroughout(result));
  const empty = result.extra.empty;
  t.deepEqual(empty, {});
  t.is(result.extra.list[0], empty);
  t.is(result.extra.list[1]!.deep, empty);
  t.is(result.metadata.managedFields[0]!.fieldsV1['f:data']['.'], empty, 'the old version holds the same shared {}');
  t.is(freezeShared({ a: {} }, { a: { b: 1 } }).a, empty, 'a {} that replaces a non-empty one');
});

test('as deepFreeze without an old version; an object that is not plain JSON is frozen and kept', (t) => {
  class Box {
    value = { n: 1 };
  }
  const next = { a: {}, b: new Box(), c: [new Map()] };
  const result = freezeShared(next, undefined);
  t.true(Object.isFrozen(result) && Object.isFrozen(result.b) && Object.isFrozen(result.b.value) && Object.isFrozen(result.c));
  t.true(result.b instanceof Box);
});

test('property: frozen throughout, equal to the new version as JSON, the old version unchanged, and at every place a part equal to the old one is the old one', (t) => {
  const json = fc.jsonValue({ maxDepth: 4 });
  assertProperty(
    t,
    fc.property(json, json, fc.boolean(), fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), (before, unrelated, derive, flips) => {
      const old = deepFreeze<unknown>(structuredClone(before));
      const oldText = JSON.stringify(old);
      let flip = 0;
      const nextValue = derive ? mix(before, unrelated, () => flips[flip++ % flips.length]!) : unrelated;
      const result = freezeShared(structuredClone(nextValue), old);
      assert.deepEqual(result, nextValue);
      assert.ok(frozenThroughout(result));
      assert.equal(JSON.stringify(old), oldText);
      sharedWhereEqual(result, old, true);
    }),
    { numRuns: 300 },
  );
});

/** Whether every object reachable from `value` is frozen. */
function frozenThroughout(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(frozenThroughout);
}

/** Asserts that every object part of `result` equal (members in any order) to `old`'s at the same place is `old`'s, and every `{}` below the root the shared one. */
function sharedWhereEqual(result: unknown, old: unknown, root: boolean): void {
  if (typeof result !== 'object' || result === null) return;
  // A `__proto__` member holding an object is never shared, so neither is a part that holds one.
  if (typeof old === 'object' && old !== null && JSON.stringify(sorted(result)) === JSON.stringify(sorted(old))) {
    if (!holdsObjectProto(result)) {
      assert.equal(result, old);
      return;
    }
    assert.notEqual(result, old, 'a part holding a __proto__ object member is never shared');
  }
  if (!root && !Array.isArray(result) && Object.keys(result).length === 0) assert.equal(result, emptyObject);
  for (const [key, value] of Object.entries(result)) {
    const counterpart = typeof old === 'object' && old !== null && Array.isArray(old) === Array.isArray(result) && Object.hasOwn(old, key) && key !== '__proto__' ? (old as Record<string, unknown>)[key] : undefined;
    sharedWhereEqual(value, counterpart, false);
  }
}
