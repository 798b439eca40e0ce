import { from, type ObservableInput, type Subscription } from 'rxjs';
import type { RunEnd } from './afterRun.js';

/**
 * @internal Calls a reconcile handler and reports how its run ended, once: a value it returned, the
 * last value of the Promise, Observable or async iterable it returned, or what it threw, rejected
 * or errored with. A synchronous end is reported before this returns.
 *
 * @param call calls the handler.
 * @param ended told how the run ended.
 * @returns the subscription to the handler's result while it runs (undefined when it ended already).
 */
export function runHandler<R>(call: () => ObservableInput<R> | R, ended: (end: RunEnd) => void): Subscription | undefined {
  let output: ObservableInput<R> | R;
  try {
    output = call();
  } catch (error) {
    ended({ threw: true, error });
    return undefined;
  }
  if (!isObservableInput(output)) {
    ended({ threw: false, value: output });
    return undefined;
  }
  let last: unknown;
  let done = false;
  const subscription = from(output).subscribe({
    next: (value) => (last = value),
    error: (error: unknown) => ((done = true), ended({ threw: true, error })),
    complete: () => ((done = true), ended({ threw: false, value: last })),
  });
  return done ? undefined : subscription;
}

function isObservableInput<R>(value: unknown): value is ObservableInput<R> {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { then?: unknown; subscribe?: unknown; [Symbol.asyncIterator]?: unknown };
  return typeof candidate.then === 'function' || typeof candidate.subscribe === 'function' || typeof candidate[Symbol.asyncIterator] === 'function';
}
