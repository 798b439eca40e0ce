import test from 'ava';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertProperty } from '../helpers/assertProperty.js';
import { estimateHeapBytes } from '../../src/metrics/estimateHeapBytes.js';
import { heapBytesChange } from '../../src/metrics/heapBytesChange.js';
import { deepFreeze } from '../../src/store/internal/deepFreeze.js';
import { freezeShared } from '../../src/store/internal/freezeShared.js';

test('a version sharing its unchanged parts with the old one: the difference of the two estimates', (t) => {
  const data = { 'application.yaml': 'server:\n  port: 8080\n', LOG_LEVEL: 'info' };
  const old = deepFreeze({ metadata: { name: 'a', resourceVersion: '1', annotations: { seq: '1' } }, data });
  const next = freezeShared({ metadata: { name: 'a', resourceVersion: '22', annotations: { seq: 'a-much-longer-value', added: 'x' } }, data: { ...data } }, old);
  t.is(next.data, old.data);
  t.is(heapBytesChange(next, old), estimateHeapBytes(next) - estimateHeapBytes(old));
  t.not(heapBytesChange(next, old), 0);
  t.is(heapBytesChange(old, old), 0);
});

test('members that appear, disappear, become empty, change type or length', (t) => {
  const pairs: [unknown, unknown][] = [
    [{ a: 1 }, {}],
    [{}, { a: 'a long string value' }],
    [{ a: [1, 2, 'a long string value'] }, { a: [1] }],
    [{ a: { b: {} } }, { a: [] }],
    [{ a: 1.5 }, { a: 'x' }],
    [[{ k: 'v' }], { 0: { k: 'v' } }],
    [{ a: undefined }, {}],
    [{}, { a: undefined }],
    [{ toString: 0 }, {}],
    [{}, { constructor: 'a long string value' }],
    ['a long string value', { a: 1 }],
  ];
  for (const [next, previous] of pairs) t.is(heapBytesChange(next, previous), estimateHeapBytes(next) - estimateHeapBytes(previous), JSON.stringify([next, previous]));
});

test('property: equals the difference of the two estimates, shared or not', (t) => {
  const json = fc.jsonValue({ maxDepth: 4 });
  assertProperty(
    t,
    fc.property(json, json, fc.boolean(), (before, after, share) => {
      const old = deepFreeze<unknown>(structuredClone(before));
      const next: unknown = share ? freezeShared<unknown>(structuredClone(after), old) : after; // Frozen<JsonValue> would recurse without end
      assert.equal(heapBytesChange(next, old), estimateHeapBytes(next) - estimateHeapBytes(old));
    }),
    { numRuns: 500 },
  );
});
