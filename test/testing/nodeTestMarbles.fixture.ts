/**
 * Marble tests under node:test (run by test/testing/marbles.spec.ts with `node --test`): runMarbles
 * takes node:test's `t` as it takes ava's. With MARBLES_FAIL=1 the expectation is wrong on purpose,
 * and the run must fail.
 */
import { test } from 'node:test';
import { map, throwError } from 'rxjs';
import { runMarbles } from '../../src/testing/marbles.js';

const doubled = process.env['MARBLES_FAIL'] === '1' ? 3 : 2;

test('doubles, on node:test', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold('-a-b|', { a: 1, b: 2 }).pipe(map((x) => x * 2))).toBe('-x-y|', { x: doubled, y: 4 });
  }));

test('compares errors by name and message, on node:test', (t) =>
  runMarbles(t, ({ expectObservable }) => {
    expectObservable(throwError(() => new RangeError('too far'))).toBe('#', undefined, new RangeError('too far'));
  }));
