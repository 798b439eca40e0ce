/**
 * The server-side handshake's transition, one test per state and input (style point 36): announce
 * a view, propose a wider claim, check it with a fresh LIST, move, work — and the ways back: a
 * proposal that no longer holds, a check that finds a clash or fails, a shrink, inputs that arrive
 * while a check or a move is under way.
 */
import test from 'ava';
import type { Lease } from '../../src/coordination/lease.js';
import { handshakeStep, type HandshakeStepConfig } from '../../src/sharding/server/handshakeStep.js';
import { initialHandshakeState, type HandshakeInput, type HandshakeMemory, type HandshakeState } from '../../src/sharding/server/handshakeState.js';
import { intersectRanges, subtractRanges } from '../../src/sharding/server/rangeSet.js';
import { claimAnnotation, encodeClaim, viewOf, type ShardClaim } from '../../src/sharding/server/shardClaim.js';
import { shardRanges } from '../../src/sharding/server/shardRanges.js';
import { shardSpaceEnd, type ShardRange } from '../../src/sources/shardSelector.js';

const c: HandshakeStepConfig = { self: 'me', shardBuckets: 8, retryPeriodMs: 2_000 };
const all: readonly ShardRange[] = [{ start: 0n, end: shardSpaceEnd }];
const two = ['me', 'peer'];
const targetsOf = (members: readonly string[]) => shardRanges(members, { buckets: c.shardBuckets });
const mine = targetsOf(two).get('me')!;
const theirs = targetsOf(two).get('peer')!;

const lease = (holder: string, claim?: ShardClaim): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { namespace: 'ns', name: `ring-${holder}`, resourceVersion: '1', ...(claim ? { annotations: { [claimAnnotation]: encodeClaim(claim) } } : {}) },
  spec: { holderIdentity: holder, leaseDurationSeconds: 15 },
});

/** A member that sees `members` and the Leases of `peers`, works on `working`, and has claimed (and written) `claim`. */
function memory(members: readonly string[], working: readonly ShardRange[], peers: readonly Lease[] = [], claim: ShardClaim = { view: viewOf(members), ranges: working }, written: ShardClaim | undefined = claim): HandshakeMemory {
  return { leases: peers, live: members, targets: targetsOf(members), working, claim, written, holdGainsUntil: undefined };
}
const at = (now = 1_000) => ({ now });
const step = (state: HandshakeState, input: HandshakeInput) => handshakeStep(state, input, c);

test('waiting: a first member list of itself alone announces its view with no ranges, written at once', (t) => {
  const r = step(initialHandshakeState, { type: 'members', members: ['me'], ...at() });
  t.is(r.state.kind, 'announcing');
  t.deepEqual(r.effects, [{ type: 'claim', claim: { view: viewOf(['me']), ranges: [] } }, { type: 'renew' }]);
});

test('waiting: not a live member yet — nothing to do, and the empty claim is already written', (t) => {
  const r = step({ kind: 'waiting', memory: memory(['peer'], [], [], { view: '', ranges: [] }) }, { type: 'leases', leases: [lease('peer')], ...at() });
  t.is(r.state.kind, 'waiting');
  t.deepEqual(r.effects, []);
});

test('announcing: its view written and no peer — propose the whole target, written at once', (t) => {
  const s: HandshakeState = { kind: 'announcing', memory: memory(['me'], [], [], { view: viewOf(['me']), ranges: [] }, undefined) };
  const r = step(s, { type: 'written', claim: { view: viewOf(['me']), ranges: [] }, ...at() });
  t.is(r.state.kind, 'proposing');
  t.deepEqual(r.effects, [{ type: 'claim', claim: { view: viewOf(['me']), ranges: all } }, { type: 'renew' }]);
});

test('announcing: a peer that has not written the same view holds the gain back', (t) => {
  const s: HandshakeState = { kind: 'announcing', memory: memory(two, [], [lease('peer', { view: 'old', ranges: [] })], { view: viewOf(two), ranges: [] }, undefined) };
  const r = step(s, { type: 'written', claim: { view: viewOf(two), ranges: [] }, ...at() });
  t.is(r.state.kind, 'waiting');
  t.deepEqual(r.effects, []);
});

test('announcing: a peer still claiming part of the target holds the gain back; once it lets go, propose', (t) => {
  const view = viewOf(two);
  const s: HandshakeState = { kind: 'working', memory: memory(two, [], [lease('peer', { view, ranges: all })], { view, ranges: [] }) };
  t.is(step(s, { type: 'leases', leases: [lease('peer', { view, ranges: all })], ...at() }).state.kind, 'waiting');
  const r = step(s, { type: 'leases', leases: [lease('peer', { view, ranges: theirs })], ...at() });
  t.is(r.state.kind, 'proposing');
  t.deepEqual(r.effects, [{ type: 'claim', claim: { view, ranges: mine } }, { type: 'renew' }]);
});

test('proposing: the wider claim written — check it with a fresh list', (t) => {
  const claim = { view: viewOf(['me']), ranges: all };
  const s: HandshakeState = { kind: 'proposing', memory: memory(['me'], [], [], claim, { view: viewOf(['me']), ranges: [] }) };
  const r = step(s, { type: 'written', claim, ...at() });
  t.is(r.state.kind, 'checking');
  t.deepEqual(r.effects, [{ type: 'list' }]);
});

test('proposing: not yet written — stay, and ask for the write again', (t) => {
  const claim = { view: viewOf(['me']), ranges: all };
  const s: HandshakeState = { kind: 'proposing', memory: memory(['me'], [], [], claim, { view: viewOf(['me']), ranges: [] }) };
  const r = step(s, { type: 'leases', leases: [], ...at() });
  t.is(r.state.kind, 'proposing');
  t.deepEqual(r.effects, [{ type: 'renew' }]);
});

test('proposing: the view changed meanwhile — the proposal falls back to the working ranges under the new view', (t) => {
  const claim = { view: viewOf(['me']), ranges: all };
  const s: HandshakeState = { kind: 'proposing', memory: memory(['me'], [], [], claim, claim) };
  const r = step(s, { type: 'members', members: two, ...at() });
  t.is(r.state.kind, 'announcing');
  t.deepEqual(r.effects, [{ type: 'claim', claim: { view: viewOf(two), ranges: [] } }, { type: 'renew' }]);
});

test('checking: a clear fresh list — drain the old stretch and move to the wider ranges', (t) => {
  const claim = { view: viewOf(['me']), ranges: all };
  const s: HandshakeState = { kind: 'checking', memory: memory(['me'], [], [], claim) };
  const r = step(s, { type: 'listed', leases: [lease('me', claim)], ...at() });
  t.deepEqual(r.state, { kind: 'moving', memory: s.memory, next: all, then: undefined });
  t.deepEqual(r.effects, [{ type: 'drain' }]);
});

test('checking: a peer the watch has not shown yet claims part of the gain — fall back, no gain for a retry period', (t) => {
  const view = viewOf(['me']);
  const s: HandshakeState = { kind: 'checking', memory: memory(['me'], [], [], { view, ranges: all }) };
  const r = step(s, { type: 'listed', leases: [lease('newcomer', { view: 'other', ranges: theirs })], ...at(1_000) });
  t.is(r.state.kind, 'announcing');
  t.is(r.state.memory.holdGainsUntil, 3_000);
  t.deepEqual(r.effects, [{ type: 'retryAt', at: 3_000 }, { type: 'claim', claim: { view, ranges: [] } }, { type: 'renew' }]);
});

test('checking: a Lease the watch showed, of a member no longer live, does not count', (t) => {
  const view = viewOf(['me']);
  const stale = lease('gone', { view: 'old', ranges: all });
  const s: HandshakeState = { kind: 'checking', memory: memory(['me'], [], [stale], { view, ranges: all }) };
  t.is(step(s, { type: 'listed', leases: [stale], ...at() }).state.kind, 'moving');
});

test('checking: the fresh list failed — report it and fall back as for a clash', (t) => {
  const view = viewOf(['me']);
  const error = new Error('down');
  const s: HandshakeState = { kind: 'checking', memory: memory(['me'], [], [], { view, ranges: all }) };
  const r = step(s, { type: 'listFailed', error, ...at(1_000) });
  t.is(r.state.kind, 'announcing');
  t.deepEqual(r.effects, [{ type: 'report', error }, { type: 'retryAt', at: 3_000 }, { type: 'claim', claim: { view, ranges: [] } }, { type: 'renew' }]);
});

test('after a failed check: the fallback written, the gain waits for the retry timer, then is proposed again', (t) => {
  const view = viewOf(['me']);
  const held: HandshakeMemory = { ...memory(['me'], [], [], { view, ranges: [] }, { view, ranges: all }), holdGainsUntil: 3_000 };
  const written = step({ kind: 'announcing', memory: held }, { type: 'written', claim: { view, ranges: [] }, ...at(1_500) });
  t.is(written.state.kind, 'waiting');
  t.deepEqual(written.effects, []);
  const retried = step(written.state, { type: 'retry', ...at(3_000) });
  t.is(retried.state.kind, 'proposing');
  t.deepEqual(retried.effects, [{ type: 'claim', claim: { view, ranges: all } }, { type: 'renew' }]);
});

test('checking and moving: inputs are remembered, nothing is planned until the list or the drain ends', (t) => {
  const claim = { view: viewOf(['me']), ranges: all };
  for (const s of [{ kind: 'checking', memory: memory(['me'], [], [], claim) }, { kind: 'moving', memory: memory(['me'], [], [], claim), next: all, then: undefined }] as HandshakeState[]) {
    const r = step(s, { type: 'members', members: two, ...at() });
    t.is(r.state.kind, s.kind);
    t.deepEqual(r.state.memory.live, two);
    t.deepEqual(r.effects, []);
    t.is(step(s, { type: s.kind === 'checking' ? 'drained' : 'retry', ...at() }).state.kind, s.kind, 'an input of the other state is ignored');
  }
});

test('moving to a gain: the runs settled — work on the wider ranges, what was gained named, and plan again', (t) => {
  const claim = { view: viewOf(['me']), ranges: all };
  const s: HandshakeState = { kind: 'moving', memory: memory(['me'], [], [], claim), next: all, then: undefined };
  const r = step(s, { type: 'drained', ...at() });
  t.is(r.state.kind, 'working');
  t.deepEqual(r.state.memory.working, all);
  t.deepEqual(r.effects, [{ type: 'work', ranges: all, gained: all }]);
});

test('working: a member joins — shrink first: drain, then claim the narrower ranges before their stretch starts', (t) => {
  const s: HandshakeState = { kind: 'working', memory: memory(['me'], all) };
  const r = step(s, { type: 'members', members: two, ...at() });
  const narrower = intersectRanges(all, mine);
  t.deepEqual(r.state, { kind: 'moving', memory: { ...s.memory, live: two, targets: targetsOf(two) }, next: narrower, then: { view: viewOf(two), ranges: narrower } });
  t.deepEqual(r.effects, [{ type: 'drain' }]);
  const settled = step(r.state, { type: 'drained', ...at() });
  t.is(settled.state.kind, 'announcing');
  t.deepEqual(settled.effects, [{ type: 'claim', claim: { view: viewOf(two), ranges: narrower } }, { type: 'work', ranges: narrower, gained: [] }, { type: 'renew' }]);
});

test('working: a peer dies — announce the new view; its ranges are gained only once the view is written', (t) => {
  const view = viewOf(two);
  const s: HandshakeState = { kind: 'working', memory: memory(two, mine, [lease('peer', { view, ranges: theirs })]) };
  const r = step(s, { type: 'members', members: ['me'], ...at() });
  t.is(r.state.kind, 'announcing');
  t.deepEqual(r.effects, [{ type: 'claim', claim: { view: viewOf(['me']), ranges: mine } }, { type: 'renew' }]);
  const written = step(r.state, { type: 'written', claim: { view: viewOf(['me']), ranges: mine }, ...at() });
  t.is(written.state.kind, 'proposing');
  t.deepEqual(written.effects, [{ type: 'claim', claim: { view: viewOf(['me']), ranges: all } }, { type: 'renew' }]);
  t.deepEqual(subtractRanges(all, mine), theirs, 'what it would gain is what the dead peer held');
});

test('the same members again: the targets are not dealt again', (t) => {
  const s: HandshakeState = { kind: 'working', memory: memory(two, mine, [lease('peer', { view: viewOf(two), ranges: theirs })]) };
  const r = step(s, { type: 'members', members: [...two], ...at() });
  t.is(r.state.memory.targets, s.memory.targets);
  t.deepEqual(r.effects, []);
});
