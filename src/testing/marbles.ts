import { from, mergeMap, of, type Observable } from 'rxjs';
import { TestScheduler, type RunHelpers } from 'rxjs/testing';

/** The one assertion {@link runMarbles} needs, as ava's `t` (or node:test's `t.assert`) has it. */
export interface DeepEqualAssertions {
  /** Fails the test when `actual` and `expected` differ deeply. */
  deepEqual(actual: unknown, expected: unknown, message?: string): unknown;
}

/** node:test's test context `t`, as {@link runMarbles} uses it: `t.assert.deepStrictEqual`. */
export interface NodeTestContextAssertions {
  /** node:test's assertions bound to the test. */
  readonly assert: {
    /** Fails the test when `actual` and `expected` differ deeply and strictly. */
    deepStrictEqual(actual: unknown, expected: unknown, message?: string | Error): void;
  };
}

/**
 * Runs `callback` inside `TestScheduler.run` with the comparisons going to the test's `t`, so the
 * test fails at the right place: ava's `t` (`t.deepEqual`) or node:test's `t`
 * (`t.assert.deepStrictEqual`). Errors in notifications are compared by `name` and `message`
 * only, as RxJS's own specs do. Inside the callback, `asyncScheduler`, `asapScheduler` and timers
 * run on virtual time.
 *
 * Keep marble tests and tests on real time (promises, `setTimeout`) in separate files, or make the
 * real-time ones `test.serial`: ava runs a file's tests concurrently, and a real `asapScheduler`
 * flush pending while a `TestScheduler` run starts swallows the run's asap actions.
 *
 * ## Example
 * ```ts
 * import avaTest from 'ava';
 * import { test } from 'node:test';
 * import { map } from 'rxjs';
 * import { runMarbles } from 'rx-informer/testing';
 *
 * avaTest('doubles, on ava', (t) => runMarbles(t, ({ cold, expectObservable }) => {
 *   expectObservable(cold('-a|', { a: 1 }).pipe(map((x) => x * 2))).toBe('-b|', { b: 2 });
 * }));
 * test('doubles, on node:test', (t) => runMarbles(t, ({ cold, expectObservable }) => {
 *   expectObservable(cold('-a|', { a: 1 }).pipe(map((x) => x * 2))).toBe('-b|', { b: 2 });
 * }));
 * ```
 */
export function runMarbles<R>(t: DeepEqualAssertions | NodeTestContextAssertions, callback: (helpers: RunHelpers) => R): R {
  const deepEqual = 'deepEqual' in t ? (actual: unknown, expected: unknown) => t.deepEqual(actual, expected) : (actual: unknown, expected: unknown) => t.assert.deepStrictEqual(actual, expected);
  const scheduler = new TestScheduler((actual, expected) => {
    deepEqual(normalize(actual), normalize(expected));
  });
  return scheduler.run(callback);
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object' && 'notification' in value) {
    const message = value as { frame: number; notification: { kind: string; error?: unknown } };
    const { notification } = message;
    if (notification.kind === 'E' && notification.error instanceof Error) {
      return { ...message, notification: { ...notification, error: { name: notification.error.name, message: notification.error.message } } };
    }
  }
  return value;
}

/**
 * A source driven by marbles whose values may be single events or arrays of events (such as
 * {@link listEvents}); an array's events are emitted one after another in the same frame.
 * Call it inside {@link runMarbles} with the run's `cold`.
 *
 * @example
 * const source = marbleSource(cold, '-L--a-', { L: listEvents([cm1], '1'), a: added(cm2) });
 */
export function marbleSource<E>(cold: RunHelpers['cold'], marbles: string, values: Readonly<Record<string, E | readonly E[]>>): Observable<E> {
  return cold(marbles, values as Record<string, E | readonly E[]>).pipe(
    mergeMap((value) => (Array.isArray(value) ? from(value as readonly E[]) : of(value as E))),
  );
}
