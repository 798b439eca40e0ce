/** The reflector's backoff generator (R10): the one stateful timer policy the runtime asks for delays. */
import { resolveBackoffConfig, type BackoffConfig } from './reflectorConfig.js';

/** One delay from a {@link Backoff}. `attempt` counts from 1 since the last reset. */
export interface BackoffStep {
  readonly attempt: number;
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
 * R10's backoff: `min(initial·factor^n, max)·(1 + jitter·U)`, reset after `resetAfter` quiet ms;
 * honours Retry-After. Defaults and checks come from {@link resolveBackoffConfig} (a `TypeError`
 * for a bad number).
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
