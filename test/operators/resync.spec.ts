import test from 'ava';
import { filter } from 'rxjs';
import { resync } from '../../src/operators/resync.js';
import type { Delta, DeltaEvent } from '../../src/store/delta.js';
import { runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

const a1 = configMap('a', { resourceVersion: '1' });
const a2 = configMap('a', { resourceVersion: '3' });
const b1 = configMap('b', { resourceVersion: '2' });
type E = DeltaEvent<object>;
const d = (type: Delta<object>['type'], key: string, object: object): E => ({ type, key, object }) as E;
const R: E = { type: 'Resync' };

test('0 and Infinity return the source itself', (t) =>
  runMarbles(t, ({ cold }) => {
    const source = cold<E>('-a|', { a: R });
    t.is(source.pipe(resync(0)), source);
    t.is(source.pipe(resync(Infinity)), source);
  }));

test('a negative or NaN period is rejected at call time', (t) => {
  t.throws(() => resync(-1), { instanceOf: TypeError, message: /periodMs/ });
  t.throws(() => resync(Number.NaN), { instanceOf: TypeError });
});

test('empty completes; with nothing cached each tick is a Resync marker alone (R23: handlers re-flag at every tick)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold<E>('|').pipe(resync(3))).toBe('|');
    expectObservable(cold<E>('-').pipe(resync(3)), '^-------!').toBe('---R--R-', { R });
  }));

test('every period, a Resync marker then a Sync for each cached key with its last object (R17); deleted keys leave; markers pass', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const values = {
      a: d('Replaced', 'a', a1),
      b: d('Replaced', 'b', b1),
      c: d('Updated', 'a', a2),
      x: d('Deleted', 'b', b1),
      L: { type: 'Listed', resourceVersion: '9' } as E,
    };
    const source = cold<E>('-ab 12ms (cx) 6ms L', values);
    // Ticks at 10, 20 and 30.
    expectObservable(source.pipe(resync(10)), '^ 31ms !').toBe('-ab 7ms (Rst) (cx) 1ms (Ru) 1ms L 4ms (Ru)', {
      ...values,
      R,
      s: d('Sync', 'a', a1),
      t: d('Sync', 'b', b1),
      u: d('Sync', 'a', a2),
    });
  }));

test('errors pass through and stop the timer; unsubscribe stops it too', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const x = d('Added', 'a', a1);
    const s = d('Sync', 'a', a1);
    const failing = cold<E>('-x 12ms #', { x }, new Error('down'));
    expectObservable(failing.pipe(resync(5))).toBe('-x 3ms (Rs) 1ms (Rs) #', { x, R, s }, new Error('down'));
    const quiet = cold<E>('-x---------------', { x });
    expectObservable(quiet.pipe(resync(5)), '^ 11ms !').toBe('-x 3ms (Rs) 1ms (Rs)', { x, R, s });
    expectSubscriptions(quiet.subscriptions).toBe('^ 11ms !');
  }));

test('a period given as an Observable: the timer restarts at each new period, 0 stops it, a repeat changes nothing', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const periods = cold<number>('3------5-------0---5-5----', { 3: 3, 5: 5, 0: 0 });
    const source = cold<E>('-a------------------------', { a: d('Replaced', 'a', a1) });
    const ticks = source.pipe(resync(periods), filter((e) => e.type === 'Resync'));
    // period 3 from 0: 3, 6; period 5 from 7: 12 (17 never comes, 0 stops it at 15); period 5 from
    // 19: 24 (the repeated 5 at 21 does not restart it).
    expectObservable(ticks, '^-------------------------!').toBe('---R--R-----R-----------R-', { R });
    expectSubscriptions(periods.subscriptions).toBe(['^-------------------------!', '^------!']);
    // each tick re-delivers the cached object
    expectObservable(source.pipe(resync(periods), filter((e) => e.type === 'Sync')), '^------!').toBe('---S--S-', { S: d('Sync', 'a', a1) });
  }));

test('a period Observable: a bad value errors the stream with a TypeError naming it; its error is the stream error', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold<E>('-----').pipe(resync(cold<number>('--x', { x: -4 })))).toBe('--#', undefined, new TypeError('[resync] periodMs must be a number >= 0, got -4'));
    expectObservable(cold<E>('-----').pipe(resync(cold<number>('3--#', { 3: 3 }, new Error('periods failed'))))).toBe('---#', undefined, new Error('periods failed'));
  }));
