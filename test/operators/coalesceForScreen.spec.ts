import test from 'ava';
import { coalesceForScreen } from '../../src/operators/coalesceForScreen.js';
import { runMarbles } from '../../src/testing/marbles.js';

test('the first value at once, then at most one per interval, always the latest (the TSDoc diagram)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold('-abc-----d-|').pipe(coalesceForScreen({ intervalMs: 3 }))).toBe('-a--c----d-|');
  }));

test('a burst becomes one value per interval and the last value of the burst is always delivered', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold('-abcdefgh-------').pipe(coalesceForScreen({ intervalMs: 3 }))).toBe('-a--d--g--h-----');
  }));

test('the value pending at completion is delivered before the completion', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold('-ab|').pipe(coalesceForScreen({ intervalMs: 5 }))).toBe('-a----(b|)');
  }));

test('errors pass through', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold('-a#').pipe(coalesceForScreen({ intervalMs: 5 }))).toBe('-a#');
  }));

test.serial('where requestAnimationFrame exists, the default is one value per animation frame, the latest', (t) => {
  const global = globalThis as { requestAnimationFrame?: unknown };
  global.requestAnimationFrame = () => 0; // only its presence is read: run mode drives the frames
  t.teardown(() => delete global.requestAnimationFrame);
  runMarbles(t, ({ animate, cold, expectObservable }) => {
    animate('-----x-----x-----x');
    expectObservable(cold('-abc--d-e--fg------').pipe(coalesceForScreen())).toBe('-a---c-----e-----g-');
  });
});

test('intervalMs must be a number > 0', (t) => {
  t.throws(() => coalesceForScreen({ intervalMs: 0 }), { instanceOf: TypeError, message: /coalesceForScreen.*intervalMs/ });
  t.throws(() => coalesceForScreen({ intervalMs: Number.NaN }), { instanceOf: TypeError });
});
