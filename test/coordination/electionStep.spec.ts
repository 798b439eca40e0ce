/**
 * The elector's transition, one test per state and input (style point 36): client-go's
 * tryAcquireOrRenew cases (leaderelection_test.go: acquire from no object, from an unheld or
 * expired one, not from a fresh one held by another, renew, transitions only on takeover), the
 * term and its deadline, and release.
 */
import test from 'ava';
import { electionStep, type ElectionStepConfig } from '../../src/coordination/electionStep.js';
import { initialElectionState, type ElectionInput, type ElectionMemory, type ElectionState } from '../../src/coordination/electionState.js';
import { ControllerError } from '../../src/errors.js';
import { recordKeyOf, type Lease } from '../../src/coordination/lease.js';

const c: ElectionStepConfig = {
  lease: { namespace: 'ns', name: 'lock' },
  identity: 'me',
  labels: undefined,
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  releaseOnCancel: false,
};

const lease = (holder: string, renew = '2026-01-01T00:00:00.000000Z', transitions = 3, rv = '7'): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { namespace: 'ns', name: 'lock', resourceVersion: rv },
  spec: { holderIdentity: holder, leaseDurationSeconds: 15, acquireTime: '2025-12-31T00:00:00.000000Z', renewTime: renew, leaseTransitions: transitions },
});

const memory = (seen?: Lease, observedAt = 0, term?: { until: number; transitions: number }): ElectionMemory => ({
  observed: seen === undefined ? undefined : { lease: seen, recordKey: recordKeyOf(seen), observedAt },
  term,
  emitted: term ? { state: 'leading', holder: 'me', transitions: term.transitions } : undefined,
});

const at = (now: number, random = 0.5) => ({ now, random });
const step = (state: ElectionState, input: ElectionInput) => electionStep(state, input, c);
const types = (effects: readonly { type: string }[]) => effects.map((e) => e.type);

test('start reads the lease', (t) => {
  const r = step(initialElectionState, { type: 'start', ...at(0) });
  t.is(r.state.kind, 'reading');
  t.deepEqual(r.effects, [{ type: 'get' }]);
});

test('no lease: create one held by this candidate, transitions 0, the record times from the clock', (t) => {
  const r = step({ kind: 'reading', memory: memory() }, { type: 'read', lease: undefined, ...at(1_767_225_600_000) });
  t.like(r.state, { kind: 'writing', path: 'slow', sentAt: 1_767_225_600_000 });
  const effect = r.effects[0];
  if (effect?.type !== 'create') return t.fail('expected a create');
  t.deepEqual(effect.lease.spec, { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: '2026-01-01T00:00:00.000000Z', renewTime: '2026-01-01T00:00:00.000000Z', leaseTransitions: 0 });
  t.deepEqual(effect.lease.metadata, { name: 'lock', namespace: 'ns' });
});

test("another holder's fresh record: follow it and try again after 2–4.4 s (jitter 1.2)", (t) => {
  for (const [random, wait] of [[0, 2_000], [0.5, 3_200], [0.75, 3_800]] as const) {
    const r = step({ kind: 'reading', memory: memory() }, { type: 'read', lease: lease('other'), ...at(100, random) });
    t.like(r.state, { kind: 'waiting', attemptAt: 100 + wait });
    t.deepEqual(r.effects, [{ type: 'emit', leadership: { state: 'following', holder: 'other' } }, { type: 'attemptAt', at: 100 + wait }]);
    t.like(r.state.memory.observed, { observedAt: 100 });
  }
});

test("another holder's record unchanged for leaseDuration on our clock: take over, transitions + 1, keeping the resourceVersion", (t) => {
  const seen = lease('other');
  const following = { ...memory(seen, 1_000), emitted: { state: 'following', holder: 'other' } as const };
  const before = step({ kind: 'reading', memory: following }, { type: 'read', lease: seen, ...at(15_999) });
  t.is(before.state.kind, 'waiting', 'one ms short of the lease duration: still fresh');
  t.deepEqual(types(before.effects), ['attemptAt'], 'the same holder is not emitted again');
  const r = step({ kind: 'reading', memory: memory(seen, 1_000) }, { type: 'read', lease: seen, ...at(16_000) });
  const effect = r.effects[0];
  if (effect?.type !== 'update') return t.fail('expected an update');
  t.like(effect.lease, { metadata: { resourceVersion: '7' }, spec: { holderIdentity: 'me', leaseTransitions: 4, leaseDurationSeconds: 15 } });
  t.not(effect.lease.spec?.acquireTime, seen.spec?.acquireTime);
});

test("a follower tries again when another holder's record would expire, if that comes before its next jittered try", (t) => {
  const seen = lease('other');
  const r = step({ kind: 'reading', memory: memory(seen, 1_000) }, { type: 'read', lease: seen, ...at(15_000, 0.5) });
  t.like(r.state, { kind: 'waiting', attemptAt: 16_000 }, 'not 15 000 + 3 200');
});

test('the record times are never compared with the clock: a renewTime far in the past is fresh when it just changed', (t) => {
  const r = step({ kind: 'reading', memory: memory(lease('other', '2026-01-01T00:00:00.000000Z'), 0) }, { type: 'read', lease: lease('other', '1999-01-01T00:00:00.000000Z'), ...at(20_000) });
  t.is(r.state.kind, 'waiting');
  t.like(r.state.memory.observed, { observedAt: 20_000 }, 'a changed record restarts the wait');
});

test('a released lease (empty holder) is taken at once', (t) => {
  const r = step({ kind: 'reading', memory: memory() }, { type: 'read', lease: lease(''), ...at(5) });
  t.is(r.effects[0]?.type, 'update');
  t.like(r.effects[0], { lease: { spec: { holderIdentity: 'me', leaseTransitions: 4 } } });
});

test('a lease this candidate holds is renewed: acquire time and transitions kept', (t) => {
  const mine = lease('me');
  const r = step({ kind: 'reading', memory: memory() }, { type: 'read', lease: mine, ...at(5) });
  t.like(r.effects[0], { type: 'update', lease: { spec: { holderIdentity: 'me', leaseTransitions: 3, acquireTime: mine.spec!.acquireTime } } });
});

test('a write that went through starts a term until renewDeadline after it was sent, and the next renewal after retryPeriod', (t) => {
  const written = lease('me', undefined, 4, '8');
  const r = step({ kind: 'writing', memory: memory(), sentAt: 1_000, path: 'slow' }, { type: 'written', lease: written, ...at(1_040) });
  t.like(r.state, { kind: 'waiting', attemptAt: 3_040, memory: { term: { until: 11_000, transitions: 4 }, observed: { observedAt: 1_040, lease: written } } });
  t.deepEqual(r.effects, [
    { type: 'deadlineAt', at: 11_000 },
    { type: 'emit', leadership: { state: 'leading', holder: 'me', transitions: 4 } },
    { type: 'attemptAt', at: 3_040 },
  ]);
});

test('a write answered after the deadline it would have set leads to nothing', (t) => {
  const r = step({ kind: 'writing', memory: memory(), sentAt: 1_000, path: 'slow' }, { type: 'written', lease: lease('me'), ...at(11_000) });
  t.is(r.state.memory.term, undefined);
  t.deepEqual(types(r.effects), ['emit', 'attemptAt']);
  t.like(r.effects[0], { leadership: { state: 'following', holder: undefined } });
});

test('a leader whose lease is valid by its own observation renews from its cached copy (fast path)', (t) => {
  const mine = lease('me', undefined, 4, '8');
  const r = step({ kind: 'waiting', memory: memory(mine, 1_040, { until: 11_000, transitions: 4 }), attemptAt: 3_040 }, { type: 'attempt', ...at(3_040) });
  t.like(r.state, { kind: 'writing', path: 'fast', sentAt: 3_040 });
  t.like(r.effects[0], { type: 'update', lease: { metadata: { resourceVersion: '8' }, spec: { holderIdentity: 'me', leaseTransitions: 4 } } });
});

test('renew: a leader between renewals renews at once (fast path); a follower does nothing', (t) => {
  const mine = lease('me', undefined, 4, '8');
  const r = step({ kind: 'waiting', memory: memory(mine, 1_040, { until: 11_000, transitions: 4 }), attemptAt: 3_040 }, { type: 'renew', ...at(1_500) });
  t.like(r.state, { kind: 'writing', path: 'fast', sentAt: 1_500 });
  t.like(r.effects[0], { type: 'update', lease: { metadata: { resourceVersion: '8' } } });
  const following: ElectionState = { kind: 'waiting', memory: memory(lease('other'), 0), attemptAt: 3_000 };
  const f = step(following, { type: 'renew', ...at(1_500) });
  t.is(f.state, following);
  t.deepEqual(f.effects, []);
});

test('renew during a leader\'s write: nothing now, and the next write follows the answer at once', (t) => {
  const writing: ElectionState = { kind: 'writing', memory: memory(lease('me'), 0, { until: 10_000, transitions: 4 }), sentAt: 2_000, path: 'fast' };
  const r = step(writing, { type: 'renew', ...at(2_010) });
  t.deepEqual(r.effects, []);
  const w = step(r.state, { type: 'written', lease: lease('me', undefined, 4, '9'), ...at(2_040) });
  t.like(w.state, { kind: 'waiting', attemptAt: 2_040 });
  const plain = step(writing, { type: 'written', lease: lease('me', undefined, 4, '9'), ...at(2_040) });
  t.like(plain.state, { kind: 'waiting', attemptAt: 4_040 }, 'without it, a retry period later');
});

test('once its own lease looks expired, a candidate reads before writing', (t) => {
  const r = step({ kind: 'waiting', memory: memory(lease('me'), 0), attemptAt: 15_000 }, { type: 'attempt', ...at(15_000) });
  t.deepEqual(r.effects, [{ type: 'get' }]);
});

test('a failed fast renewal reads at once (the slow path)', (t) => {
  const error = new Error('409');
  const r = step({ kind: 'writing', memory: memory(lease('me'), 0, { until: 10_000, transitions: 3 }), sentAt: 2_000, path: 'fast' }, { type: 'failed', error, ...at(2_010) });
  t.is(r.state.kind, 'reading');
  t.deepEqual(r.effects, [{ type: 'report', error }, { type: 'get' }]);
});

test('a failure while leading tries again after retryPeriod and emits nothing; the deadline stays armed', (t) => {
  const error = new Error('down');
  const r = step({ kind: 'reading', memory: memory(lease('me'), 0, { until: 10_000, transitions: 3 }) }, { type: 'failed', error, ...at(4_000) });
  t.deepEqual(r.effects, [{ type: 'report', error }, { type: 'attemptAt', at: 6_000 }]);
  t.like(r.state.memory, { term: { until: 10_000 } });
});

test("a follower's first failure emits following with the holder unknown; later ones emit nothing", (t) => {
  const error = new Error('down');
  const first = step({ kind: 'reading', memory: memory() }, { type: 'failed', error, ...at(10, 0) });
  t.deepEqual(first.effects, [{ type: 'report', error }, { type: 'emit', leadership: { state: 'following', holder: undefined } }, { type: 'attemptAt', at: 2_010 }]);
  const second = step({ kind: 'reading', memory: first.state.memory }, { type: 'failed', error, ...at(2_020, 0) });
  t.deepEqual(types(second.effects), ['report', 'attemptAt']);
});

test('the deadline ends the term whatever is in flight: cancel, following, campaign again', (t) => {
  const s: ElectionState = { kind: 'writing', memory: memory(lease('me'), 0, { until: 10_000, transitions: 3 }), sentAt: 9_000, path: 'slow' };
  t.is(step(s, { type: 'deadline', ...at(9_999) }).state, s, 'not yet');
  const r = step(s, { type: 'deadline', ...at(10_000, 0) });
  t.deepEqual(r.effects, [{ type: 'cancel' }, { type: 'emit', leadership: { state: 'following', holder: undefined } }, { type: 'attemptAt', at: 12_000 }]);
  t.is(r.state.memory.term, undefined);
});

test('a read showing another fresh holder ends the term at once', (t) => {
  const r = step({ kind: 'reading', memory: memory(lease('me'), 0, { until: 10_000, transitions: 3 }) }, { type: 'read', lease: lease('other', 'later', 4, '9'), ...at(4_000, 0) });
  t.deepEqual(r.effects, [{ type: 'deadlineAt', at: undefined }, { type: 'emit', leadership: { state: 'following', holder: 'other' } }, { type: 'attemptAt', at: 6_000 }]);
});

test('stop without releaseOnCancel: cancel what is in flight, disarm, finish', (t) => {
  const r = step({ kind: 'reading', memory: memory(lease('me'), 0, { until: 10_000, transitions: 3 }) }, { type: 'stop', ...at(10) });
  t.is(r.state.kind, 'stopped');
  t.deepEqual(types(r.effects), ['cancel', 'deadlineAt', 'finish']);
});

test('release: read; if the lease still names this candidate, write no holder and a 1 s duration, transitions kept; then finish', (t) => {
  const rc = { ...c, releaseOnCancel: true };
  const s0: ElectionState = { kind: 'waiting', memory: memory(lease('me'), 0, { until: 10_000, transitions: 3 }), attemptAt: 2_000 };
  const r1 = electionStep(s0, { type: 'stop', ...at(1_000) }, rc);
  t.like(r1.state, { kind: 'releasing', until: 11_000, phase: 'reading' });
  t.deepEqual(r1.effects, [{ type: 'deadlineAt', at: undefined }, { type: 'get' }, { type: 'deadlineAt', at: 11_000 }]);
  const r2 = electionStep(r1.state, { type: 'read', lease: lease('me'), ...at(1_020) }, rc);
  t.like(r2.effects[0], { type: 'update', lease: { metadata: { resourceVersion: '7' }, spec: { holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 3 } } });
  const r3 = electionStep(r2.state, { type: 'written', lease: lease(''), ...at(1_040) }, rc);
  t.deepEqual(r3.effects, [{ type: 'finish' }]);
  t.is(r3.state.kind, 'stopped');
});

test('release reads first and leaves a lease another candidate holds alone', (t) => {
  const rc = { ...c, releaseOnCancel: true };
  const r = electionStep({ kind: 'releasing', memory: memory(), until: 11_000, phase: 'reading' }, { type: 'read', lease: lease('other'), ...at(1_020) }, rc);
  t.deepEqual(r.effects, [{ type: 'finish' }]);
});

test('release retries a conflict at once and other failures after retryPeriod, until its deadline', (t) => {
  const rc = { ...c, releaseOnCancel: true };
  const s: ElectionState = { kind: 'releasing', memory: memory(), until: 11_000, phase: 'writing' };
  const conflict = new ControllerError('conflict', 'lost the race');
  t.deepEqual(electionStep(s, { type: 'failed', error: conflict, ...at(1_000) }, rc).effects, [{ type: 'report', error: conflict }, { type: 'get' }]);
  const down = new Error('down');
  const later = electionStep(s, { type: 'failed', error: down, ...at(10_000) }, rc);
  t.deepEqual(later.effects, [{ type: 'report', error: down }, { type: 'attemptAt', at: 11_000 }], 'never past the deadline');
  t.deepEqual(electionStep(later.state, { type: 'attempt', ...at(11_000) }, rc).effects, [{ type: 'get' }]);
  t.deepEqual(electionStep(s, { type: 'deadline', ...at(11_000) }, rc).effects, [{ type: 'cancel' }, { type: 'finish' }]);
});

test('a candidate that is not the holder and has no write in flight has nothing to release', (t) => {
  const rc = { ...c, releaseOnCancel: true };
  const r = electionStep({ kind: 'waiting', memory: memory(lease('other'), 0), attemptAt: 2_000 }, { type: 'stop', ...at(1_000) }, rc);
  t.is(r.state.kind, 'stopped');
});

test('inputs that do not belong to the state change nothing', (t) => {
  const waiting: ElectionState = { kind: 'waiting', memory: memory(), attemptAt: 5 };
  for (const input of [{ type: 'read', lease: undefined }, { type: 'written', lease: lease('me') }, { type: 'failed', error: 1 }, { type: 'start' }] as const) {
    const r = step(waiting, { ...input, ...at(1) } as ElectionInput);
    t.is(r.state, waiting);
    t.deepEqual(r.effects, []);
  }
  const stopped: ElectionState = { kind: 'stopped', memory: memory() };
  t.is(step(stopped, { type: 'attempt', ...at(1) }).state, stopped);
});
