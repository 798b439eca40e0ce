import { from, type ObservableInput, type Subscription } from 'rxjs';
import type { RunEnd } from './afterRun.js';

/**
 * @internal Waits for what a reconcile handler returned when it is a Promise, Observable or async
 * iterable, and reports how the run ended, once: its last value, or what it rejected or errored
 * with. A synchronous end is reported before this returns. (A handler that returns a plain value
 * or throws has ended already: the queue's runtime tells so itself, with no wait.)
 *
 * @param output what the handler returned.
 * @param ended told how the run ended.
 * @returns the subscription to the handler's result while it runs (undefined when it ended already).
 */
export function awaitRun(output: ObservableInput<unknown>, ended: (end: RunEnd) => void): Subscription | undefined {
  let last: unknown;
  let done = false;
  const subscription = from(output).subscribe({
    next: (value) => (last = value),
    error: (error: unknown) => ((done = true), ended({ threw: true, error })),
    complete: () => ((done = true), ended({ threw: false, value: last })),
  });
  return done ? undefined : subscription;
}

/** @internal Whether a handler's result is something to wait for (a thenable, an Observable, an async iterable) rather than the result itself. */
export function isObservableInput(value: unknown): value is ObservableInput<unknown> {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { then?: unknown; subscribe?: unknown; [Symbol.asyncIterator]?: unknown };
  return typeof candidate.then === 'function' || typeof candidate.subscribe === 'function' || typeof candidate[Symbol.asyncIterator] === 'function';
}
