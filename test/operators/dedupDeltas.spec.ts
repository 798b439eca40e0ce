import test from 'ava';
import fc from 'fast-check';
import { assertProperty } from '../helpers/assertProperty.js';
import { dedupDeltas } from '../../src/operators/dedupDeltas.js';
import { dedupDeltaList } from '../../src/store/deltaRules.js';
import { tombstone, type Delta, type DeltaBatch } from '../../src/store/delta.js';
import { runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

const v = (rv: string) => configMap('a', { resourceVersion: rv });
const U = (rv: string): Delta<object> => ({ type: 'Updated', key: 'a', object: v(rv) });
const A = (rv: string): Delta<object> => ({ type: 'Added', key: 'a', object: v(rv) });
const S = (rv: string): Delta<object> => ({ type: 'Sync', key: 'a', object: v(rv) });
const R = (rv: string): Delta<object> => ({ type: 'Replaced', key: 'a', object: v(rv) });
const Dfull = (rv: string): Delta<object> => ({ type: 'Deleted', key: 'a', object: v(rv) });
const Dtomb = (rv: string): Delta<object> => ({ type: 'Deleted', key: 'a', object: tombstone('a', v(rv)) });

test('the rule on one key, table-driven', (t) => {
  const u1 = U('1'), u2 = U('2'), u3 = U('3'), a1 = A('1'), s1 = S('1'), s2 = S('2'), r1 = R('1'), r2 = R('2');
  const df = Dfull('5'), dt = Dtomb('4'), dt2 = Dtomb('6'), df2 = Dfull('7');
  const cases: [string, Delta<object>[], Delta<object>[]][] = [
    ['empty', [], []],
    ['single', [u1], [u1]],
    ['a burst of Updated collapses into the newest', [u1, u2, u3], [u3]],
    ['different types are never merged', [a1, u1], [a1, u1]],
    ['Added then a burst of Updated keeps the Added', [a1, u1, u2], [a1, u2]],
    ['Sync, Sync collapses', [s1, s2], [s2]],
    ['Replaced, Replaced collapses', [r1, r2], [r2]],
    ['non-adjacent same types stay', [u1, s1, u2], [u1, s1, u2]],
    ['Deleted(full) beats a newer tombstone', [df, dt], [df]],
    ['a newer Deleted(full) beats a tombstone', [dt, df], [df]],
    ['two tombstones: the newer', [dt, dt2], [dt2]],
    ['two full deletes: the newer', [df, df2], [df2]],
    ['chains fold left', [u1, u2, dt, df, u3], [u2, df, u3]],
  ];
  for (const [name, input, expected] of cases) t.deepEqual(dedupDeltaList(input), expected, name);
});

test('nothing to collapse returns the same array', (t) => {
  const list = [A('1'), U('2'), Dfull('3')];
  t.is(dedupDeltaList(list), list);
});

test('property: no two adjacent deltas share a type, and the order of types is kept', (t) => {
  const delta = fc.constantFrom(U('1'), A('1'), S('1'), R('1'), Dfull('1'), Dtomb('1'), U('2'), Dfull('2'), Dtomb('2'));
  assertProperty(
    t,
    fc.property(fc.array(delta, { maxLength: 30 }), (list) => {
      const out = dedupDeltaList(list);
      for (let i = 1; i < out.length; i++) if (out[i]!.type === out[i - 1]!.type) return false;
      const runs = list.map((d) => d.type).filter((type, i, all) => i === 0 || all[i - 1] !== type);
      return JSON.stringify(out.map((d) => d.type)) === JSON.stringify(runs) && out.every((d) => list.includes(d));
    }),
  );
});

const batch = (entries: [string, Delta<object>[]][], extra: Partial<DeltaBatch<object>> = {}): DeltaBatch<object> => ({ deltas: new Map(entries), ...extra });

test('operator: empty, never, error, early unsubscribe', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    expectObservable(cold<DeltaBatch<object>>('|').pipe(dedupDeltas())).toBe('|');
    expectObservable(cold<DeltaBatch<object>>('-').pipe(dedupDeltas())).toBe('-');
    expectObservable(cold<DeltaBatch<object>>('-#', undefined, new Error('x')).pipe(dedupDeltas())).toBe('-#', undefined, new Error('x'));
    const long = cold<DeltaBatch<object>>('-x-x-x', { x: batch([]) });
    expectObservable(long.pipe(dedupDeltas()), '^--!').toBe('-x--', { x: batch([]) });
    expectSubscriptions(long.subscriptions).toBe('^--!');
  }));

test('operator: collapses per key and keeps markers; untouched batches pass as the same reference', (t) => {
  const u1 = U('1'), u2 = U('2'), a1 = A('1');
  const busy = batch([['a', [u1, u2]], ['b', [a1, u1]]], { resourceVersion: '2', listed: true });
  const calm = batch([['b', [a1]]], { resourceVersion: '1' });
  const seen: DeltaBatch<object>[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const out = cold('-x-y|', { x: busy, y: calm }).pipe(dedupDeltas());
    out.subscribe((b) => seen.push(b));
    expectObservable(out).toBe('-X-y|', { X: batch([['a', [u2]], ['b', [a1, u1]]], { resourceVersion: '2', listed: true }), y: calm });
  });
  t.is(seen[1], calm);
  t.deepEqual([...seen[0]!.deltas.keys()], ['a', 'b'], 'key order is kept');
});
