import test from 'ava';
import { Subject, take } from 'rxjs';
import { spread } from '../../src/informer/spread.js';
import { runMarbles } from '../../src/testing/marbles.js';

const items: Record<string, readonly string[]> = { a: ['1', '2'], b: ['3'], e: [] };

test('each value becomes its items, in order, in its own frame; completion and errors pass through', (t) => {
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold('-a-e-b-|').pipe(spread((value: string) => items[value] ?? []))).toBe('-(12)3-|');
    expectObservable(cold('-a----#').pipe(spread((value: string) => items[value] ?? []))).toBe('-(12)-#');
  });
});

test('stops mid-array once the subscriber has closed', (t) => {
  const source = new Subject<readonly number[]>();
  const seen: number[] = [];
  source.pipe(spread((values: readonly number[]) => values), take(2)).subscribe((value) => seen.push(value));
  source.next([1, 2, 3, 4]);
  t.deepEqual(seen, [1, 2]);
});
