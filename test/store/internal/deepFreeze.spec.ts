import test from 'ava';
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
  for (let i = 0; i < 500; i++) node = (node['child'] = {}) as Record<string, unknown>;
  deepFreeze(root);
  t.true(Object.isFrozen(node));
});
