import type { SchedulerLike } from 'rxjs';

/** Decides how long an item waits before it is retried (client-go's `workqueue.RateLimiter`). */
export interface RateLimiter {
  /** The delay before the next attempt of `key`, in ms; counts a failure. */
  when(key: string): number;
  /** Forgets the failures of `key` (after a success). */
  forget(key: string): void;
  /** Failures counted for `key`. */
  retries(key: string): number;
}

/** Per-item exponential backoff: `min(base·2^failures, max)`, counted per key. */
export function itemExponentialLimiter(baseMs: number, maxMs: number): RateLimiter {
  const failures = new Map<string, number>();
  return {
    when(key) {
      const exponent = failures.get(key) ?? 0;
      failures.set(key, exponent + 1);
      const delay = baseMs * 2 ** exponent;
      return Number.isFinite(delay) ? Math.min(delay, maxMs) : maxMs;
    },
    forget: (key) => void failures.delete(key),
    retries: (key) => failures.get(key) ?? 0,
  };
}

/**
 * An overall token bucket (golang.org/x/time/rate reservations): `burst` tokens, refilled at
 * `perSecond`; each call takes one, and when the bucket is empty the caller waits for its token.
 */
export function tokenBucketLimiter(perSecond: number, burst: number, scheduler: SchedulerLike): RateLimiter {
  let tokens = burst;
  let last = scheduler.now();
  return {
    when() {
      const now = scheduler.now();
      tokens = Math.min(burst, tokens + ((now - last) / 1000) * perSecond);
      last = now;
      tokens -= 1;
      return tokens >= 0 ? 0 : (-tokens / perSecond) * 1000;
    },
    forget: () => undefined,
    retries: () => 0,
  };
}

/** The longest delay of several limiters (client-go's `MaxOfRateLimiter`). */
export function maxOfLimiters(...limiters: RateLimiter[]): RateLimiter {
  return {
    when: (key) => Math.max(...limiters.map((limiter) => limiter.when(key))),
    forget: (key) => limiters.forEach((limiter) => limiter.forget(key)),
    retries: (key) => Math.max(...limiters.map((limiter) => limiter.retries(key))),
  };
}
