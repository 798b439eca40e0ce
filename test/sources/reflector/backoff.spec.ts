import test from 'ava';
import { createBackoff } from '../../../src/sources/reflector/backoff.js';
import { isExpired, isPermanent, isRetriableWatchError, isTooLargeResourceVersion } from '../../../src/sources/reflector/classifyError.js';
import { TransportError } from '../../../src/errors.js';
import { apiError } from '../fakeListerWatcher.js';

test('R10: 0.8 s doubling to 30 s, delay = base·(1 + U[0,1))', (t) => {
  let now = 0;
  const low = createBackoff({ random: () => 0 }, () => now);
  t.deepEqual(Array.from({ length: 8 }, () => low.next().delay), [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
  const high = createBackoff({ random: () => 0.999999 }, () => now);
  const delays = Array.from({ length: 40 }, () => high.next().delay);
  t.true(delays[0]! >= 800 && delays[0]! < 1600);
  for (const d of delays.slice(6)) t.true(d >= 30000 && d < 60000);
});

test('R10: with Math.random the first delay is in [0.8, 1.6) s and the steady state in [30, 60) s', (t) => {
  for (let run = 0; run < 200; run++) {
    const b = createBackoff(undefined, () => 0);
    const first = b.next().delay;
    t.true(first >= 800 && first < 1600, `first ${first}`);
    for (let i = 0; i < 6; i++) b.next();
    const steady = b.next().delay;
    t.true(steady >= 30000 && steady < 60000, `steady ${steady}`);
  }
});

test('R10: resets after resetAfter ms without a backoff request; attempts count from 1', (t) => {
  let now = 0;
  const b = createBackoff({ random: () => 0 }, () => now);
  t.deepEqual(b.next(), { attempt: 1, delay: 800 });
  now += 120_000;
  t.deepEqual(b.next(), { attempt: 2, delay: 1600 });
  now += 120_001;
  t.deepEqual(b.next(), { attempt: 1, delay: 800 });
});

test('configurable, Retry-After replaces the computed delay, slow() is at the slow end', (t) => {
  const b = createBackoff({ initialDelay: 10, maxDelay: 40, factor: 3, jitter: 0, resetAfter: 5 }, () => 0);
  t.deepEqual([b.next().delay, b.next().delay, b.next().delay], [10, 30, 40]);
  t.is(b.next(7000).delay, 7000);
  t.is(b.slow().delay, 40);
  t.throws(() => createBackoff({ factor: Number.NaN }, () => 0), { instanceOf: TypeError });
});

test('error classes: expired, too large RV, retriable, permanent', (t) => {
  t.true(isExpired(apiError('watch', 410, 'Expired')));
  t.true(isExpired(apiError('watch', 410, 'Gone')));
  t.true(isExpired(apiError('watch', 410)));
  t.false(isExpired(apiError('watch', 410, 'Forbidden')));
  t.false(isExpired(apiError('watch', 500)));
  t.true(isTooLargeResourceVersion(apiError('list', 504, 'Timeout', { message: 'Too large resource version: 5, current: 3' })));
  t.false(isTooLargeResourceVersion(apiError('list', 504, 'Timeout', { message: 'slow' })));
  t.true(isRetriableWatchError(apiError('watch', 429, 'TooManyRequests')));
  t.true(isRetriableWatchError(new TransportError('watch', 'refused', { code: 'ECONNREFUSED' })));
  t.false(isRetriableWatchError(new TransportError('watch', 'reset', { code: 'ECONNRESET' })));
  t.true(isPermanent(apiError('watch', 403)));
  t.true(isPermanent(apiError('watch', 404)));
  t.false(isPermanent(apiError('watch', 401)));
});
