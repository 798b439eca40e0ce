/**
 * sharded({ mode: 'server' })'s membership terms and handshake on virtual time, against the
 * in-memory Lease API of the election scenarios (10 ms each way): a lone member takes the whole hash
 * space, a member joins, one dies, one is cut off and comes back, a fresh check fails — and in every
 * scenario, no hash is worked on by two members at once.
 */
import test from 'ava';
import type { KubeConfig } from '@kubernetes/client-node';
import { mergeMap, Observable, tap, throwError, timer } from 'rxjs';
import type { Lease } from '../../src/coordination/lease.js';
import { TestScheduler } from 'rxjs/testing';
import type { ResourceClient } from '../../src/client/resourceClient.js';
import { rangesOverlap, normalizeRanges, sameRanges } from '../../src/sharding/server/rangeSet.js';
import { memberTerms } from '../../src/sharding/memberTerms.js';
import { serverShardTerm } from '../../src/sharding/server/serverShardTerm.js';
import type { HandshakeState } from '../../src/sharding/server/handshakeState.js';
import { resolveShardingConfig, type ShardingEvent } from '../../src/sharding/shardingConfig.js';
import type { ServerRing } from '../../src/sharding/server/serverRing.js';
import { shardSpaceEnd, type ShardRange } from '../../src/sources/shardSelector.js';
import { fakeLeases, type FakeLeases } from '../coordination/fakeLeases.js';

const timing = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };
const all: readonly ShardRange[] = [{ start: 0n, end: shardSpaceEnd }];

/** One stretch of work: the ranges a member worked on, from `start` until `end`. */
interface Stretch { readonly identity: string; readonly ranges: readonly ShardRange[]; readonly start: number; end?: number }

interface World {
  readonly ts: TestScheduler;
  readonly leases: FakeLeases;
  readonly stretches: Stretch[];
  /** Replicas whose fresh LIST fails. */
  readonly listDown: Set<string>;
}

interface Member {
  readonly events: Array<{ at: number; event: ShardingEvent }>;
  readonly states: Array<{ at: number; identity: string; kind: HandshakeState['kind'] }>;
  readonly errors: unknown[];
}

/** The ring of replica `name` on the fake Lease API. */
function fakeRing(world: World, name: string): ServerRing {
  const { leases, ts, listDown } = world;
  let last: readonly Lease[] = [];
  return {
    snapshots$: leases.watch(name, 'ns').pipe(tap((snapshot) => (last = snapshot))),
    get snapshot() {
      return last;
    },
    list: () => (listDown.has(name) ? timer(10, ts).pipe(mergeMap(() => throwError(() => new Error('list down')))) : leases.list(name, 'ns')),
    connected$: new Observable<never>(() => undefined),
  };
}

/**
 * Replica `name`, subscribed from `from` to `to`; `killed`: at `to` its requests hang for good as
 * it stops (a process killed with -9: its Lease is neither renewed nor released).
 */
function member(world: World, name: string, from: number, to: number, killed = false): Member {
  const { ts, leases, stretches } = world;
  const out: Member = { events: [], states: [], errors: [] };
  const client = { delete: async (ref: { namespace: string; name: string }) => (leases.remove(ref), undefined) } as unknown as ResourceClient;
  const c = resolveShardingConfig(
    {
      kubeConfig: {} as KubeConfig,
      ring: 'cms',
      namespace: 'ns',
      resource: { apiVersion: 'v1', kind: 'ConfigMap' },
      mode: 'server',
      ...timing,
      identityPrefix: name,
      leases: leases.client(name),
      client,
      scheduler: ts,
      onEvent: (event) => out.events.push({ at: ts.now(), event }),
      onError: (error) => out.errors.push(error),
    },
    'sharded',
  );
  const work = (shard: { identity: string; ranges: readonly ShardRange[] }) =>
    new Observable<never>(() => {
      const stretch: Stretch = { identity: shard.identity, ranges: shard.ranges, start: ts.now() };
      stretches.push(stretch);
      return () => void (stretch.end = ts.now());
    });
  const terms = memberTerms(c, (identity) => serverShardTerm(c, identity, () => fakeRing(world, name), work, (state) => out.states.push({ at: ts.now(), identity, kind: state.kind })));
  ts.schedule(() => {
    const subscription = terms.subscribe();
    ts.schedule(() => {
      if (killed) leases.cut(name, 'hang');
      subscription.unsubscribe();
    }, to - from);
  }, from);
  return out;
}

/** Runs the scenario on virtual time to its end (every member stopped, every release done or given up). */
function scenario<M>(build: (world: World) => M): { world: World; members: M } {
  const ts = new TestScheduler(() => undefined);
  let out!: { world: World; members: M };
  ts.run(() => {
    const world: World = { ts, leases: fakeLeases(ts), stretches: [], listDown: new Set() };
    out = { world, members: build(world) };
  });
  return out;
}

/** Stretches of different members that overlap in time and in hash ranges. */
function doubleWork(stretches: readonly Stretch[]): string[] {
  const found: string[] = [];
  for (const a of stretches) for (const b of stretches) {
    if (a.identity < b.identity && a.start < (b.end ?? Infinity) && b.start < (a.end ?? Infinity) && rangesOverlap(a.ranges, b.ranges)) found.push(`${a.identity} [${a.start}, ${a.end}) × ${b.identity} [${b.start}, ${b.end})`);
  }
  return found;
}

/** The stretches running at `at`. */
const runningAt = (stretches: readonly Stretch[], at: number): Stretch[] => stretches.filter((s) => s.start <= at && at < (s.end ?? Infinity));
/** Whether the stretches running at `at` cover the whole space. */
const coveredAt = (stretches: readonly Stretch[], at: number): boolean => sameRanges(normalizeRanges(runningAt(stretches, at).flatMap((s) => s.ranges)), all);
/** The first time from `from` on at which a stretch starts and the whole space is covered. */
const coveredFrom = (stretches: readonly Stretch[], from: number): number | undefined =>
  stretches.map((s) => s.start).filter((at) => at >= from).sort((x, y) => x - y).find((at) => coveredAt(stretches, at));
/** Consecutive distinct kinds. */
const path = (states: Member['states']): string[] => states.map((s) => s.kind).filter((kind, i, kinds) => kind !== kinds[i - 1]);

test('a lone member goes waiting → announcing → proposing → checking → moving → working and takes the whole space', (t) => {
  const { world, members } = scenario((world) => member(world, 'a', 0, 20_000));
  t.deepEqual(path(members.states), ['waiting', 'announcing', 'proposing', 'checking', 'moving', 'working']);
  t.is(world.stretches.length, 1);
  t.deepEqual(world.stretches[0]!.ranges, all);
  t.true(world.stretches[0]!.start < 1_000, `working after ${world.stretches[0]!.start} ms`);
  t.is(world.stretches[0]!.end, 20_000, 'its work ends when it stops');
  t.deepEqual(members.errors, []);
});

test('a member joins: the first shrinks before the second gains, and they split the space', (t) => {
  const { world } = scenario((world) => [member(world, 'a', 0, 30_000), member(world, 'b', 10_000, 30_000)]);
  t.deepEqual(doubleWork(world.stretches), []);
  const covered = coveredFrom(world.stretches.filter((s) => s.identity.startsWith('b')), 10_000);
  const both = runningAt(world.stretches, 20_000);
  t.deepEqual(both.map((s) => s.identity[0]).sort(), ['a', 'b'], 'both work at 20 s');
  t.true(coveredAt(world.stretches, 20_000), 'the whole space is covered at 20 s');
  t.is(covered, undefined, 'b alone never covers the space');
  const bStart = world.stretches.find((s) => s.identity.startsWith('b'))!.start;
  t.true(bStart - 10_000 < 2_000, `b works ${bStart - 10_000} ms after it joins`);
});

test('a member dies: its ranges move about one lease duration later, never while it could still work; its Lease is collected', (t) => {
  const { world } = scenario((world) => [member(world, 'a', 0, 80_000), member(world, 'b', 0, 80_000), member(world, 'c', 0, 20_000, true)]);
  t.deepEqual(doubleWork(world.stretches), []);
  t.true(coveredAt(world.stretches, 19_000), 'three members cover the space before the death');
  const back = coveredFrom(world.stretches, 20_001)!;
  t.false(coveredAt(world.stretches, 20_001), 'a hole while the dead member’s Lease runs out');
  const moved = back - 20_000;
  t.true(moved >= timing.leaseDurationMs - timing.retryPeriodMs && moved <= timing.leaseDurationMs + 4 * timing.retryPeriodMs, `ranges moved after ${moved} ms`);
  t.log(`a dead member's ranges moved after ${moved} ms (lease ${timing.leaseDurationMs} ms)`);
  const cLease = world.leases.writes.find((w) => w.replica === 'c')!.lease.metadata!.name!;
  t.is(world.leases.peek({ namespace: 'ns', name: cLease }), undefined, 'the dead member’s Lease is deleted');
});

test('a member cut off stops its work within renewDeadline, its ranges move only after its Lease runs out, and it joins again under a new identity', (t) => {
  const { world } = scenario((world) => {
    world.ts.schedule(() => world.leases.cut('b', 'hang'), 20_000);
    world.ts.schedule(() => world.leases.cut('b', 'ok'), 40_000);
    return [member(world, 'a', 0, 70_000), member(world, 'b', 0, 70_000)];
  });
  t.deepEqual(doubleWork(world.stretches), []);
  const bTerms = [...new Set(world.stretches.filter((s) => s.identity.startsWith('b')).map((s) => s.identity))];
  t.is(bTerms.length, 2, 'b works in two terms');
  const firstEnd = Math.max(...world.stretches.filter((s) => s.identity === bTerms[0]).map((s) => s.end!));
  t.true(firstEnd > 20_000 && firstEnd <= 20_000 + timing.renewDeadlineMs, `b's first term's work ended at ${firstEnd}`);
  t.true(coveredAt(world.stretches, 35_000), 'a covers the space while b is cut off');
  t.true(coveredAt(world.stretches, 60_000) && runningAt(world.stretches, 60_000).length === 2, 'a and b split it again after b is back');
});

test('a fresh check that fails: the claim falls back, nothing is worked on, and the gain is tried again a retry period later', (t) => {
  const { world, members } = scenario((world) => {
    world.listDown.add('a');
    world.ts.schedule(() => world.listDown.delete('a'), 5_000);
    return member(world, 'a', 0, 20_000);
  });
  t.true(members.errors.length >= 2 && members.errors.every((e) => (e as Error).message === 'list down'), `errors: ${members.errors.length}`);
  const kinds = path(members.states.filter((s) => s.at < 5_000));
  t.true(kinds.join(' ').includes('checking announcing'), kinds.join(' '));
  t.is(world.stretches.length, 1);
  const start = world.stretches[0]!.start;
  t.true(start >= 5_000 && start <= 5_000 + 2 * timing.retryPeriodMs, `worked from ${start}`);
  const checks = members.states.filter((s) => s.kind === 'checking' && s.at < 5_000).map((s) => s.at);
  t.true(checks.slice(1).every((at, i) => at - checks[i]! >= timing.retryPeriodMs), `checks at ${checks.join(', ')}: a retry period apart`);
});
