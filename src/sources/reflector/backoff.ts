/** The reflector's backoff generator (R10): the one stateful timer policy the runtime asks for delays. */
import { resolveBackoffConfig, type BackoffConfig } from './reflectorConfig.js';

/** One delay from a {@link Backoff}. `attempt` counts from 1 since the last reset. */
export interface BackoffStep {
  /** Which wait this is since the last reset, from 1. */
  readonly attempt: number;
  /** How long to wait, ms. */
  readonly delay: number;
}

/** Stateful backoff generator (R10). `now` is the scheduler's clock. */
export interface Backoff {
  /** The next delay. `retryAfterMs`, when given, replaces the computed delay (still counts as an attempt). */
  next(retryAfterMs?: number): BackoffStep;
  /** A delay at the slow end (`maxDelay·(1+jitter·U)`), for permanent-looking errors. */
  slow(): BackoffStep;
}

/** Upper bound for a server-supplied Retry-After: ten minutes. */
const maxRetryAfterMs = 600_000;

/**
 * The reflector's backoff (R10) for a retry loop of your own: `min(initial·factor^n, max)·(1 +
 * jitter·U)`, the counter reset after `resetAfter` ms without a call; honours Retry-After. The
 * defaults are the reflector's, `defaultBackoff` (0.8 s doubling to 30 s, jitter 1, reset after
 * 2 min), checked and filled in by `resolveBackoffConfig` (a `TypeError` for a bad number). The
 * rx-informer CLI retries its discovery with it.
 *
 * ```ts
 * import { createBackoff } from 'rx-informer';
 *
 * const backoff = createBackoff({ initialDelay: 500, maxDelay: 10_000 }, Date.now);
 * const { attempt, delay } = backoff.next(); // attempt 1, delay in [500, 1000)
 * console.log(`attempt ${attempt} failed; next in ${Math.round(delay)} ms`);
 * ```
 *
 * @param config the delays; `undefined` for the reflector's defaults.
 * @param now the clock the reset is measured on, in ms (`Date.now`, or a scheduler's `now`).
 * @returns a generator of delays, one per failed attempt.
 * @throws {TypeError} when a number of `config` is out of range.
 */
export function createBackoff(config: BackoffConfig | undefined, now: () => number): Backoff {
  const { initialDelay, maxDelay, factor, jitter, resetAfter, random } = resolveBackoffConfig(config);
  let n = 0;
  let last = Number.NEGATIVE_INFINITY;
  const advance = (): number => {
    const t = now();
    if (t - last > resetAfter) n = 0;
    last = t;
    return n++;
  };
  return {
    next(retryAfterMs) {
      const k = advance();
      if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
        return { attempt: k + 1, delay: Math.min(retryAfterMs, maxRetryAfterMs) };
      }
      const base = Math.min(initialDelay * factor ** k, maxDelay);
      return { attempt: k + 1, delay: base * (1 + jitter * random()) };
    },
    slow() {
      const k = advance();
      return { attempt: k + 1, delay: maxDelay * (1 + jitter * random()) };
    },
  };
}
