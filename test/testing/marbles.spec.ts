import test from 'ava';
import { map, throwError } from 'rxjs';
import { added, listEvents } from '../../src/testing/events.js';
import { marbleSource, runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

test('runMarbles reports a mismatch through the given assertions', (t) => {
  const calls: [unknown, unknown][] = [];
  runMarbles({ deepEqual: (actual, expected) => calls.push([actual, expected]) }, ({ cold, expectObservable }) => {
    expectObservable(cold('-a|', { a: 1 }).pipe(map((x) => x * 2))).toBe('-b|', { b: 3 });
  });
  t.is(calls.length, 1);
  t.notDeepEqual(calls[0]![0], calls[0]![1]);
});

test('runMarbles compares errors by name and message only', (t) =>
  runMarbles(t, ({ expectObservable }) => {
    const thrown = new RangeError('too far');
    expectObservable(throwError(() => thrown)).toBe('#', undefined, new RangeError('too far'));
  }));

test('marbleSource expands array values within one frame', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const a = configMap('a', { resourceVersion: '1' });
    const [s, p, d] = listEvents([a], '1');
    const b = added(configMap('b'));
    expectObservable(marbleSource(cold, '-L-----b|', { L: listEvents([a], '1'), b })).toBe('-(spd)-b|', { s, p, d, b });
  }));
