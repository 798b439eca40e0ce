import test from 'ava';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertProperty } from '../../helpers/assertProperty.js';
import { deepFreeze } from '../../../src/store/internal/deepFreeze.js';

test('freezes every object and array reachable from the value', (t) => {
  const value = { a: { b: [1, { c: 'd' }, [{ e: null }]] }, f: 'g', h: [] as unknown[] };
  deepFreeze(value);
  t.true(Object.isFrozen(value));
  t.true(Object.isFrozen(value.a));
  t.true(Object.isFrozen(value.a.b));
  t.true(Object.isFrozen(value.a.b[1]));
  t.true(Object.isFrozen((value.a.b[2] as unknown[])[0]));
  t.true(Object.isFrozen(value.h));
});

test('an already frozen value is returned as is; primitives and null pass through', (t) => {
  const shared = Object.freeze({ x: 1 });
  t.is(deepFreeze(shared), shared);
  t.is(deepFreeze(null), null);
  t.is(deepFreeze('s'), 's');
  const fresh = { shared, own: { y: 2 } };
  deepFreeze(fresh);
  t.true(Object.isFrozen(fresh.own));
});

test('a cycle (which JSON cannot hold, but a transform could build) ends and is frozen', (t) => {
  const a: Record<string, unknown> = { name: 'a' };
  const b: Record<string, unknown> = { name: 'b', a };
  a['b'] = b;
  a['list'] = [a, b];
  t.notThrows(() => deepFreeze(a));
  t.true(Object.isFrozen(a));
  t.true(Object.isFrozen(b));
  t.true(Object.isFrozen(a['list']));
});

test('a very deep object (deeper than the unchecked levels) is frozen to the bottom', (t) => {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 0; i < 500; i++) node = (node['child'] = { depth: i }) as Record<string, unknown>;
  deepFreeze(root);
  t.true(Object.isFrozen(node));
});

test('every empty plain object below the root becomes one shared frozen {}; the value stays equal', (t) => {
  const fieldsV1 = () => ({ 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } });
  const one = { metadata: { managedFields: [{ manager: 'helm', fieldsV1: fieldsV1() }] }, data: {} };
  const two = { metadata: { managedFields: [{ manager: 'helm', fieldsV1: fieldsV1() }] } };
  const before = structuredClone(one);
  deepFreeze(one);
  deepFreeze(two);
  t.deepEqual(one, before);
  const shared = one.data;
  t.true(Object.isFrozen(shared));
  t.is(one.metadata.managedFields[0]!.fieldsV1['f:data']['.'], shared);
  t.is(one.metadata.managedFields[0]!.fieldsV1['f:metadata']['f:labels']['f:app'], shared);
  t.is(two.metadata.managedFields[0]!.fieldsV1['f:data']['f:a'], shared);
});

test('the root, empty arrays, class instances and Maps are never replaced by the shared {}, and are frozen', (t) => {
  class Marker {}
  const root = {};
  const value = { list: [] as unknown[], marker: new Marker(), map: new Map(), bare: Object.create(null) as object };
  const { list, marker, map, bare } = value;
  t.is(deepFreeze(root), root);
  t.true(Object.isFrozen(root));
  deepFreeze(value);
  t.is(value.list, list);
  t.is(value.marker, marker);
  t.is(value.map, map);
  t.is(value.bare, bare);
  for (const member of [list, marker, map, bare]) t.true(Object.isFrozen(member));
});

test('an object its author made non-extensible, or with a read-only member, is still frozen throughout', (t) => {
  const sealed = Object.seal({ inner: { x: 'y' }, empty: {} });
  const readOnly: Record<string, unknown> = {};
  const kept = {};
  Object.defineProperty(readOnly, 'empty', { value: kept, enumerable: true, writable: false, configurable: true });
  const value = { sealed, readOnly };
  deepFreeze(value);
  t.true(Object.isFrozen(sealed));
  t.true(Object.isFrozen(sealed.inner));
  t.true(Object.isFrozen(sealed.empty));
  t.is(readOnly['empty'], kept);
  t.true(Object.isFrozen(kept));
});

test('property: any JSON value stays equal to a copy taken before, and everything reachable is frozen', (t) => {
  const allFrozen = (value: unknown): boolean =>
    value === null || typeof value !== 'object' || (Object.isFrozen(value) && Object.values(value).every(allFrozen));
  assertProperty(
    t,
    fc.property(fc.jsonValue(), (value) => {
      const copy = structuredClone(value);
      deepFreeze<unknown>(value); // a JSON value: Frozen<JsonValue> would recurse without end
      assert.deepEqual(value, copy);
      return allFrozen(value);
    }),
  );
});
