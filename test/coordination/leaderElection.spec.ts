/**
 * leaderElection() on virtual time against an in-memory Lease API (10 ms each way): acquisition,
 * renewal, failover when the leader is cut off (requests failing or hanging), release, contention,
 * clock skew within the bounds, flapping networks — and in every scenario, no two candidates lead at
 * once.
 */
import test from 'ava';
import { TestScheduler } from 'rxjs/testing';
import type { SchedulerLike } from 'rxjs';
import { leaderElection } from '../../src/coordination/leaderElection.js';
import type { LeaderElectionConfig } from '../../src/coordination/leaderElectionConfig.js';
import type { Leadership } from '../../src/coordination/electionState.js';
import { cutBetween, fakeLeases, skewedScheduler, type FakeLeases } from './fakeLeases.js';

const ref = { namespace: 'ns', name: 'lock' };

interface Candidate {
  readonly name: string;
  readonly log: Array<{ at: number; leadership: Leadership }>;
  /** [start, end) of each term, on the test's clock. */
  terms(): Array<[number, number]>;
}

function candidate(ts: TestScheduler, leases: FakeLeases, name: string, from: number, to: number, config: Partial<LeaderElectionConfig> & { scheduler?: SchedulerLike } = {}): Candidate {
  const log: Candidate['log'] = [];
  const election = leaderElection({ leases: leases.client(name), lease: ref, identity: name, scheduler: ts, random: () => 0.5, ...config });
  ts.schedule(() => {
    const subscription = election.subscribe((leadership) => log.push({ at: ts.now(), leadership }));
    ts.schedule(() => subscription.unsubscribe(), to - from);
  }, from);
  return {
    name,
    log,
    terms() {
      const terms: Array<[number, number]> = [];
      let start: number | undefined;
      for (const { at, leadership } of log) {
        if (leadership.state === 'leading' && start === undefined) start = at;
        if (leadership.state === 'following' && start !== undefined) terms.push([start, at]), (start = undefined);
      }
      if (start !== undefined) terms.push([start, to]);
      return terms;
    },
  };
}

/** Runs the scenario on virtual time (it ends when every candidate has unsubscribed and released). */
function scenario(build: (ts: TestScheduler, leases: FakeLeases) => Candidate[]): { candidates: Candidate[]; leases: FakeLeases } {
  const ts = new TestScheduler(() => undefined);
  let out!: { candidates: Candidate[]; leases: FakeLeases };
  ts.run(() => {
    const leases = fakeLeases(ts);
    out = { candidates: build(ts, leases), leases };
  });
  return out;
}

/** Every pair of terms of different candidates, which must not overlap. */
function overlaps(candidates: readonly Candidate[]): string[] {
  const all = candidates.flatMap((c) => c.terms().map(([start, end]) => ({ name: c.name, start, end })));
  const found: string[] = [];
  for (const a of all) for (const b of all) if (a.name < b.name && a.start < b.end && b.start < a.end) found.push(`${a.name} [${a.start}, ${a.end}) × ${b.name} [${b.start}, ${b.end})`);
  return found;
}

test('a lone candidate creates the lease, leads from the answer on, and renews every retry period', (t) => {
  const { candidates, leases } = scenario((ts, leases) => [candidate(ts, leases, 'a', 0, 60_000)]);
  t.deepEqual(candidates[0]!.log, [{ at: 40, leadership: { state: 'leading', holder: 'a', transitions: 0 } }], 'get 0→20, create 20→40');
  const renewals = leases.writes.map((w) => w.at);
  t.is(renewals[0], 30, 'the create reached the store at 30');
  t.true(renewals.slice(1).every((at, i) => at - renewals[i]! === 2_020), 'a renewal every 2 s after the last answer (20 ms round trip)');
  t.like(leases.peek(ref), { spec: { holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 } });
});

test('a follower names the leader and takes over no sooner than leaseDuration after the last change it saw, once the leader is cut off', (t) => {
  for (const how of ['fail', 'hang'] as const) {
    const { candidates, leases } = scenario((ts, leases) => {
      cutBetween(leases, ts, 'a', how, 20_000, 60_000);
      return [candidate(ts, leases, 'a', 0, 100_000), candidate(ts, leases, 'b', 1_000, 100_000)];
    });
    const [a, b] = candidates as [Candidate, Candidate];
    t.deepEqual(b.log[0], { at: 1_020, leadership: { state: 'following', holder: 'a' } });
    const lastRenewal = leases.writes.filter((w) => w.replica === 'a').at(-1)!.at;
    const [aTerm] = a.terms();
    t.true(aTerm![1] <= lastRenewal - 10 + 10_000, `${how}: a stops within renewDeadline of sending its last renewal (${aTerm![1]})`);
    const [bTerm] = b.terms();
    const failover = bTerm![0] - 20_000;
    t.true(bTerm![0] >= lastRenewal + 15_000, `${how}: b waits the lease duration from the change (${bTerm![0]})`);
    t.true(failover <= 15_000 + 2 * 2_000 * 2.2, `${how}: failover ${failover} ms`);
    t.deepEqual(overlaps(candidates), []);
    t.like(b.log.at(-1), { leadership: { state: 'leading', holder: 'b', transitions: 1 } });
    t.like(a.log.at(-1), { leadership: { state: 'following', holder: 'b' } }, 'a, back on the network, follows b');
  }
});

test('a leader that cannot reach the API server stops leading by itself at its deadline', (t) => {
  const { candidates, leases } = scenario((ts, leases) => {
    cutBetween(leases, ts, 'a', 'hang', 5_000, 1_000_000);
    return [candidate(ts, leases, 'a', 0, 60_000)];
  });
  const lastSent = leases.writes.at(-1)!.at - 10;
  t.deepEqual(candidates[0]!.terms(), [[40, lastSent + 10_000]]);
});

test('releaseOnCancel: the leader that unsubscribes writes an empty holder, and the follower takes over at its next try', (t) => {
  const { candidates, leases } = scenario((ts, leases) => [
    candidate(ts, leases, 'a', 0, 30_000, { releaseOnCancel: true }),
    candidate(ts, leases, 'b', 1_000, 60_000),
  ]);
  const [a, b] = candidates as [Candidate, Candidate];
  const release = leases.writes.find((w) => w.replica === 'a' && w.lease.spec?.holderIdentity === '');
  t.like(release, { at: 30_030, lease: { spec: { leaseDurationSeconds: 1, leaseTransitions: 0 } } });
  t.deepEqual(a.terms(), [[40, 30_000]]);
  t.true(b.terms()[0]![0] - 30_000 <= 2_000 * 2.2 + 40, `b leads ${b.terms()[0]![0] - 30_000} ms after a stopped`);
  t.deepEqual(overlaps(candidates), []);
});

test('without releaseOnCancel the successor waits for the lease to expire', (t) => {
  const { candidates } = scenario((ts, leases) => [candidate(ts, leases, 'a', 0, 30_000), candidate(ts, leases, 'b', 1_000, 80_000)]);
  const start = candidates[1]!.terms()[0]![0];
  t.true(start >= 28_000 + 15_000, `b leads at ${start}`);
});

test('contenders starting together: one wins, the others follow it; transitions count takeovers only', (t) => {
  const { candidates, leases } = scenario((ts, leases) => ['a', 'b', 'c'].map((name) => candidate(ts, leases, name, 0, 40_000)));
  const leaders = candidates.filter((c) => c.terms().length > 0);
  t.is(leaders.length, 1);
  for (const c of candidates.filter((c) => c !== leaders[0])) t.like(c.log.at(-1), { leadership: { state: 'following', holder: leaders[0]!.name } });
  t.is(leases.peek(ref)?.spec?.leaseTransitions, 0);
  t.deepEqual(overlaps(candidates), []);
});

test('clock skew within bounds: offsets of hours and rates 0.8–1.25× never let two candidates lead at once', (t) => {
  for (const [offset, rateA, rateB] of [[3_600_000, 1, 1], [-86_400_000, 1.25, 0.8], [0, 0.8, 1.25], [5, 1.2, 1]] as const) {
    const { candidates } = scenario((ts, leases) => {
      cutBetween(leases, ts, 'a', 'hang', 20_000, 45_000);
      return [
        candidate(ts, leases, 'a', 0, 90_000, { scheduler: skewedScheduler(ts, offset, rateA) }),
        candidate(ts, leases, 'b', 500, 90_000, { scheduler: skewedScheduler(ts, -offset, rateB) }),
      ];
    });
    t.deepEqual(overlaps(candidates), [], `offset ${offset}, rates ${rateA}/${rateB}`);
    t.is(candidates[1]!.terms().length, 1, 'b took over');
  }
});

test('beyond the bound (a leader clock 2× slower than the follower’s) the terms can overlap: the guarantee comes from the clocks', (t) => {
  const { candidates } = scenario((ts, leases) => {
    cutBetween(leases, ts, 'a', 'hang', 20_000, 45_000);
    return [
      candidate(ts, leases, 'a', 0, 90_000, { scheduler: skewedScheduler(ts, 0, 0.5) }),
      candidate(ts, leases, 'b', 500, 90_000, { scheduler: skewedScheduler(ts, 0, 1) }),
    ];
  });
  t.notDeepEqual(overlaps(candidates), []);
});

test('flapping: a leader whose network drops for less than the renew deadline keeps its term; longer drops hand over without overlap', (t) => {
  const short = scenario((ts, leases) => {
    for (let from = 10_000; from < 100_000; from += 12_000) cutBetween(leases, ts, 'a', 'fail', from, from + 5_000);
    return [candidate(ts, leases, 'a', 0, 120_000), candidate(ts, leases, 'b', 1_000, 120_000)];
  });
  t.deepEqual(short.candidates[0]!.terms(), [[40, 120_000]]);
  t.is(short.leases.peek(ref)?.spec?.leaseTransitions, 0);

  const long = scenario((ts, leases) => {
    for (let from = 10_000; from < 200_000; from += 40_000) {
      cutBetween(leases, ts, 'a', 'fail', from, from + 20_000);
      cutBetween(leases, ts, 'b', 'fail', from + 20_000, from + 40_000);
    }
    return [candidate(ts, leases, 'a', 0, 220_000), candidate(ts, leases, 'b', 1_000, 220_000)];
  });
  t.true(long.candidates.every((c) => c.terms().length >= 2), 'both led, more than once');
  t.deepEqual(overlaps(long.candidates), []);
});

test('one election is shared: a second subscriber gets the current leadership at once and no second elector runs', (t) => {
  const ts = new TestScheduler(() => undefined);
  ts.run(() => {
    const leases = fakeLeases(ts);
    const election = leaderElection({ leases: leases.client('a'), lease: ref, identity: 'a', scheduler: ts });
    const first: Leadership[] = [];
    const late: Leadership[] = [];
    const s1 = election.subscribe((l) => first.push(l));
    ts.schedule(() => {
      const s2 = election.subscribe((l) => late.push(l));
      t.deepEqual(late, [{ state: 'leading', holder: 'a', transitions: 0 }]);
      s2.unsubscribe();
    }, 5_000);
    ts.schedule(() => s1.unsubscribe(), 10_000);
    ts.flush();
    t.is(election.identity, 'a');
    t.is(leases.writes.length, 5, 'one create and four renewals in 10 s');
    t.deepEqual(first, [{ state: 'leading', holder: 'a', transitions: 0 }]);
  });
});

test('onError sees every failed request, and a throwing onError errors the election', (t) => {
  const ts = new TestScheduler(() => undefined);
  ts.run(() => {
    const leases = fakeLeases(ts);
    leases.cut('a', 'fail');
    const seen: unknown[] = [];
    let failure: unknown;
    const sub = leaderElection({ leases: leases.client('a'), lease: ref, identity: 'a', scheduler: ts, random: () => 0, onError: (e) => seen.push(e) }).subscribe();
    ts.schedule(() => sub.unsubscribe(), 5_000);
    leaderElection({ leases: leases.client('a'), lease: ref, identity: 'a', scheduler: ts, onError: () => { throw new Error('boom'); } }).subscribe({ error: (e: unknown) => (failure = e) });
    ts.flush();
    t.is(seen.length, 3, 'tries at 0, 2 010, 4 020');
    t.like(seen[0], { name: 'TransportError' });
    t.like(failure, { message: 'boom' });
  });
});
