/** The reasons a key gathers between two runs: distinct, in order, and folded past the cap. */
import test from 'ava';
import { maxReasonsPerRun, mergeReasons, withReason, type ReconcileReason } from '../../src/controller/reconcileReason.js';

const rv = (n: number): ReconcileReason => ({ type: 'changed', change: 'update', resourceVersion: String(n) });
const many = (from: number, count: number): readonly ReconcileReason[] => Array.from({ length: count }, (_, i) => rv(from + i)).reduce(withReason, [] as readonly ReconcileReason[]);

test('withReason: a repeat is not added; up to the cap nothing is folded', (t) => {
  t.deepEqual(withReason([rv(1)], rv(1)), [rv(1)]);
  t.deepEqual(withReason([rv(1)], undefined), [rv(1)]);
  const full = many(1, maxReasonsPerRun);
  t.is(full.length, maxReasonsPerRun);
  t.false(full.some((r) => r.type === 'folded'));
});

test('withReason past the cap: the first stays, then the folded count, then the newest', (t) => {
  const over = withReason(many(1, maxReasonsPerRun), rv(100));
  t.is(over.length, maxReasonsPerRun);
  t.deepEqual(over.slice(0, 2), [rv(1), { type: 'folded', count: 2 }], 'the count takes a place of its own, so two were folded');
  t.deepEqual(over.at(-1), rv(100));
  t.deepEqual(withReason(over, rv(101)).slice(0, 2), [rv(1), { type: 'folded', count: 3 }]);
});

test('mergeReasons of two folded lists adds their counts and keeps the cap', (t) => {
  const a = many(1, 40);
  const b = many(200, 40);
  const merged = mergeReasons(a, b);
  t.is(merged.length, maxReasonsPerRun);
  t.deepEqual(merged[0], rv(1));
  t.deepEqual(merged.at(-1), rv(239));
  const counted = merged.reduce((n, r) => n + (r.type === 'folded' ? r.count : 1), 0);
  t.is(counted, 80, 'every reason is either kept or counted');
});
