import test from 'ava';
import { resync } from '../../src/operators/resync.js';
import type { Delta, DeltaBatch } from '../../src/store/delta.js';
import { runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

const a1 = configMap('a', { resourceVersion: '1' });
const a2 = configMap('a', { resourceVersion: '3' });
const b1 = configMap('b', { resourceVersion: '2' });
const d = (type: Delta<object>['type'], key: string, object: object): Delta<object> => ({ type, key, object }) as Delta<object>;
const batch = (entries: [string, Delta<object>[]][], extra: Partial<DeltaBatch<object>> = {}): DeltaBatch<object> => ({ deltas: new Map(entries), ...extra });
const sync = (...entries: [string, object][]): DeltaBatch<object> => batch(entries.map(([key, object]) => [key, [d('Sync', key, object)]]), { resync: true });

test('0 and Infinity return the source itself', (t) =>
  runMarbles(t, ({ cold }) => {
    const source = cold<DeltaBatch<object>>('-a|', { a: batch([]) });
    t.is(source.pipe(resync(0)), source);
    t.is(source.pipe(resync(Infinity)), source);
  }));

test('a negative or NaN period is rejected at call time', (t) => {
  t.throws(() => resync(-1), { instanceOf: TypeError, message: /periodMs/ });
  t.throws(() => resync(Number.NaN), { instanceOf: TypeError });
});

test('empty completes; never with nothing cached emits nothing', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold<DeltaBatch<object>>('|').pipe(resync(3))).toBe('|');
    expectObservable(cold<DeltaBatch<object>>('-').pipe(resync(3)), '^-----------!').toBe('-');
  }));

test('every period, a Sync for each cached key with its last object (R17); deleted keys leave', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const x = batch([['a', [d('Replaced', 'a', a1)]], ['b', [d('Replaced', 'b', b1)]]], { listed: true, resourceVersion: '2' });
    const y = batch([['a', [d('Updated', 'a', a2)]], ['b', [d('Updated', 'b', b1), d('Deleted', 'b', b1)]]]);
    const source = cold<DeltaBatch<object>>('-x---y-----', { x, y });
    expectObservable(source.pipe(resync(4)), '^---------!').toBe('-x--sy--S--', { x, y, s: sync(['a', a1], ['b', b1]), S: sync(['a', a2]) });
  }));

test('errors pass through and stop the timer; unsubscribe stops it too', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const x = batch([['a', [d('Added', 'a', a1)]]]);
    const failing = cold<DeltaBatch<object>>('-x----#', { x }, new Error('down'));
    expectObservable(failing.pipe(resync(2))).toBe('-xs-s-#', { x, s: sync(['a', a1]) }, new Error('down'));
    const quiet = cold<DeltaBatch<object>>('-x---------', { x });
    expectObservable(quiet.pipe(resync(2)), '^----!').toBe('-xs-s-', { x, s: sync(['a', a1]) });
    expectSubscriptions(quiet.subscriptions).toBe('^----!');
  }));
