/**
 * Type-level tests of runMarbles (issue 25 item 2): it takes ava's `t` and node:test's `t` (and
 * node:test's `t.assert`), and refuses what has neither assertion.
 */
import avaTest from 'ava';
import { test as nodeTest } from 'node:test';
import { runMarbles } from '../../src/testing/index.js';

avaTest('ava', (t) => runMarbles(t, ({ cold, expectObservable }) => expectObservable(cold('a|')).toBe('a|')));
nodeTest('node:test', (t) => runMarbles(t, ({ cold, expectObservable }) => expectObservable(cold('a|')).toBe('a|')));
nodeTest('node:test assert', (t) => runMarbles(t.assert, ({ cold, expectObservable }) => expectObservable(cold('a|')).toBe('a|')));
declare function expectType<T>(value: T): void;
expectType<number>(runMarbles({ deepEqual: () => undefined }, () => 1));

// @ts-expect-error neither deepEqual nor assert.deepStrictEqual
runMarbles({ equal: () => undefined }, () => 1);
// @ts-expect-error an assert without deepStrictEqual
runMarbles({ assert: { ok: () => undefined } }, () => 1);
