/** Config checks at call time (client-go's NewLeaderElector checks, plus the Lease's whole seconds). */
import test from 'ava';
import { asyncScheduler, EMPTY } from 'rxjs';
import { leaderElection } from '../../src/coordination/leaderElection.js';
import { resolveElectionConfig, type LeaderElectionConfig } from '../../src/coordination/leaderElectionConfig.js';
import type { LeaseClient } from '../../src/coordination/leaseClient.js';

const leases: LeaseClient = { get: () => EMPTY, create: () => EMPTY, update: () => EMPTY };
const base: LeaderElectionConfig = { leases, lease: { namespace: 'ns', name: 'lock' } };

test("defaults: 15 s / 10 s / 2 s, no release, identity <hostname>_<uuid> new per call, a monotonic clock", (t) => {
  const a = resolveElectionConfig(base);
  t.like(a, { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, releaseOnCancel: false });
  t.regex(a.identity, /^.+_[0-9a-f-]{36}$/);
  t.not(resolveElectionConfig(base).identity, a.identity);
  t.not(a.scheduler, asyncScheduler);
  const before = a.scheduler.now();
  t.true(Math.abs(before - Date.now()) < 60_000, 'close to wall time, for the record times');
});

test('bad configuration is a TypeError at call time naming what is wrong', (t) => {
  const cases: Array<[Partial<LeaderElectionConfig> | Record<string, unknown>, RegExp]> = [
    [{ leaseDurationMs: 10_000 }, /leaseDurationMs \(10000\) must be greater than renewDeadlineMs \(10000\)/],
    [{ leaseDurationMs: 8_000 }, /leaseDurationMs \(8000\) must be greater than renewDeadlineMs/],
    [{ renewDeadlineMs: 2_400 }, /renewDeadlineMs \(2400\) must be greater than 1.2 × retryPeriodMs \(2000\)/],
    [{ retryPeriodMs: 0 }, /retryPeriodMs must be a finite number > 0, got 0/],
    [{ renewDeadlineMs: -1 }, /renewDeadlineMs must be a finite number > 0/],
    [{ leaseDurationMs: Number.NaN }, /leaseDurationMs must be a finite number > 0, got NaN/],
    [{ leaseDurationMs: 15_500 }, /leaseDurationMs must be whole seconds/],
    [{ identity: '' }, /identity must be a non-empty string/],
    [{ lease: { namespace: 'ns', name: '' } }, /lease must be \{ namespace, name \}/],
    [{ lease: undefined }, /lease must be/],
    [{ leases: undefined }, /leases must be a LeaseClient/],
    [{ leases: { get: () => EMPTY } }, /leases must be a LeaseClient/],
    [{ releaseOnCancel: 'yes' }, /releaseOnCancel must be a boolean/],
    [{ onError: 1 }, /onError must be a function/],
  ];
  for (const [change, message] of cases) {
    const error = t.throws(() => leaderElection({ ...base, ...change } as LeaderElectionConfig), { instanceOf: TypeError });
    t.regex(error!.message, /^\[leaderElection\] /);
    t.regex(error!.message, message);
  }
});
