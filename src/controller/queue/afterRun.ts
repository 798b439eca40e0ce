import { ControllerError } from '../../errors.js';
import { argumentError } from '../../options/optionChecks.js';

/**
 * How one run of a key ended, as the work queue's runtime saw it: the handler's last value, or
 * what it threw (or rejected with, or errored with).
 */
export type RunEnd = { readonly threw: false; readonly value: unknown } | { readonly threw: true; readonly error: unknown };

/**
 * What the queue does with a key after a run (controller-runtime's `reconcileHandler` switch):
 *
 * - `forget`: a success; the key's failures are forgotten and nothing is scheduled.
 * - `requeueAfter`: a success that asked to run again after `ms`, at `priority`; failures forgotten.
 * - `rateLimited`: a failure; the key runs again after its backoff (per-key exponential under the
 *   overall bucket, or the error policy's choice).
 * - `terminal`: a `terminal()` failure; nothing is scheduled and the failures are kept.
 */
export type AfterRun =
  | { readonly type: 'forget' }
  | { readonly type: 'requeueAfter'; readonly ms: number; readonly priority: number | undefined }
  | { readonly type: 'rateLimited'; readonly error: unknown }
  | { readonly type: 'terminal'; readonly error: unknown };

/**
 * The decision after a run: one pure function of how it ended. A result whose `requeueAfterMs` or
 * `priority` is not a number fails the run with a `TypeError` saying so, as a throw would. A run
 * that failed after its per-run timeout had aborted it fails with `timeoutError` instead of what
 * the handler threw (usually the abort itself).
 *
 * @param key the key that ran (for messages).
 * @param end how the run ended.
 * @param timeoutError the error of a run that was aborted by its timeout, else `undefined`.
 * @returns what the queue does next with the key.
 */
export function afterRun(key: string, end: RunEnd, timeoutError?: Error): AfterRun {
  if (end.threw) {
    const error = timeoutError ?? end.error;
    return error instanceof ControllerError && error.reason === 'terminal' ? { type: 'terminal', error } : { type: 'rateLimited', error };
  }
  const value = end.value;
  if (value === null || typeof value !== 'object') return { type: 'forget' };
  const { requeueAfterMs, priority } = value as { readonly requeueAfterMs?: unknown; readonly priority?: unknown };
  if (requeueAfterMs !== undefined && typeof requeueAfterMs !== 'number') {
    return { type: 'rateLimited', error: badResult(key, 'requeueAfterMs', 'a number of milliseconds', value) };
  }
  if (priority !== undefined && !Number.isInteger(priority)) return { type: 'rateLimited', error: badResult(key, 'priority', 'an integer', value) };
  if (requeueAfterMs === undefined) return { type: 'forget' };
  return { type: 'requeueAfter', ms: requeueAfterMs, priority: priority as number | undefined };
}

function badResult(key: string, field: string, rule: string, value: object): TypeError {
  const given = (value as Record<string, unknown>)[field];
  return argumentError('reconcile', `${field} must be ${rule}; the handler of ${key} resolved to { ${field}: ${JSON.stringify(given) ?? String(given)} }`);
}
