import test from 'ava';
import { Subject, lastValueFrom, toArray } from 'rxjs';
import { reconcile } from '../../src/controller/reconcile.js';
import { until } from '../helpers/until.js';

// Real time (promises), kept apart from the marble specs.
test('async handlers: promises resolve and reject; retries run on real timers; completion waits for them', async (t) => {
  const keys = new Subject<string>();
  const attempts = new Map<string, number>();
  const outcomes = lastValueFrom(
    keys.pipe(
      reconcile(
        async (key) => {
          const n = (attempts.get(key) ?? 0) + 1;
          attempts.set(key, n);
          await new Promise((resolve) => setImmediate(resolve)); // finishes on a later turn, as I/O does
          if (key === 'flaky' && n < 3) throw new Error(`attempt ${n}`);
        },
        { concurrency: 2, baseDelayMs: 1 },
      ),
      toArray(),
    ),
  );
  keys.next('flaky');
  keys.next('steady');
  // Completing the keys drops pending retries (graceful shutdown): wait until flaky has succeeded.
  await until(() => attempts.get('flaky') === 3 && attempts.get('steady') === 1, 'three attempts of flaky');
  keys.complete();
  const all = await outcomes;
  t.deepEqual(all.filter((o) => o.key === 'flaky').map((o) => o.result), ['error', 'error', 'success']);
  t.deepEqual(all.filter((o) => o.key === 'steady').map((o) => o.result), ['success']);
  t.is(attempts.get('flaky'), 3);
});
