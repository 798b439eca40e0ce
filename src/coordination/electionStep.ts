/**
 * The elector's one transition: `(state, input) → { state, effects }` — client-go's
 * `tryAcquireOrRenew`, its acquire and renew loops and its release as one pure function. No clock
 * (inputs carry their time) and no I/O (effects ask for it).
 */
import { ControllerError } from '../errors.js';
import { durationMsOf, heldLease, holderOf, newLease, recordKeyOf, releasedLease, transitionsOf, type Lease, type RecordWrite } from './lease.js';
import type { ResolvedElectionConfig } from './leaderElectionConfig.js';
import { jitterFactor } from './leaderElectionConfig.js';
import type { ElectionEffect, ElectionInput, ElectionMemory, ElectionState, ElectionStep, Leadership, Observation } from './electionState.js';

/** The parts of the resolved config the transition reads. */
export type ElectionStepConfig = Pick<ResolvedElectionConfig, 'lease' | 'identity' | 'labels' | 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs' | 'releaseOnCancel'>;

type Out = ElectionEffect[];
type Input<K extends ElectionInput['type']> = Extract<ElectionInput, { type: K }>;

/**
 * The transition. An input that does not belong to the state (a `read` while waiting, say) leaves
 * it as it is and asks for nothing.
 */
export function electionStep(state: ElectionState, input: ElectionInput, config: ElectionStepConfig): ElectionStep {
  const out: Out = [];
  return { state: next(state, input, config, out), effects: out };
}

function next(s: ElectionState, input: ElectionInput, c: ElectionStepConfig, out: Out): ElectionState {
  if (s.kind === 'stopped') return s;
  if (s.kind === 'releasing') return releasing(s, input, c, out);
  switch (input.type) {
    case 'start':
      return s.kind === 'idle' ? attempt(s.memory, input.now, c, out) : s;
    case 'attempt':
      return s.kind === 'waiting' ? attempt(s.memory, input.now, c, out) : s;
    case 'renew':
      // A leader only; during a write, the next write follows it at once (the news may have missed it).
      if (s.kind === 'writing' && s.memory.term !== undefined) return { ...s, renew: true };
      return s.kind === 'waiting' && s.memory.term !== undefined ? attempt(s.memory, input.now, c, out) : s;
    case 'read':
      return s.kind === 'reading' ? read(s.memory, input, c, out) : s;
    case 'written':
      return s.kind === 'writing' ? written(s.memory, s.sentAt, input, c, out, s.renew) : s;
    case 'failed':
      return s.kind === 'reading' || s.kind === 'writing' ? failed(s, input, c, out) : s;
    case 'deadline':
      return deadline(s, input, c, out);
    case 'stop':
      return stop(s, input.now, c, out);
  }
}

/** One try: a leader whose lease is still valid by its own observation renews from its cached copy; anyone else reads first. */
function attempt(memory: ElectionMemory, now: number, c: ElectionStepConfig, out: Out): ElectionState {
  const lease = memory.observed?.lease;
  if (lease !== undefined && holderOf(lease) === c.identity && now < memory.observed!.observedAt + durationMsOf(lease)) {
    out.push({ type: 'update', lease: heldLease(lease, write(c, now)) });
    return { kind: 'writing', memory, sentAt: now, path: 'fast' };
  }
  out.push({ type: 'get' });
  return { kind: 'reading', memory };
}

/**
 * The lease as read: create it, take it, renew it, or wait while another holder's record is fresh —
 * until the next jittered try, or until the record would expire if that is sooner (client-go waits
 * for the next jittered try even then; trying at the expiry takes over up to 2.2 retry periods
 * sooner after a leader dies, and is as safe, since the takeover rule is the same).
 */
function read(memory: ElectionMemory, input: Input<'read'>, c: ElectionStepConfig, out: Out): ElectionState {
  const { lease, now } = input;
  let m: ElectionMemory = { ...memory, observed: observe(memory.observed, lease, now) };
  if (lease === undefined) {
    out.push({ type: 'create', lease: newLease(c.lease, c.labels, write(c, now)) });
    return { kind: 'writing', memory: m, sentAt: now, path: 'slow' };
  }
  const holder = holderOf(lease);
  const expiresAt = m.observed!.observedAt + durationMsOf(lease);
  if (holder !== undefined && holder !== c.identity && now < expiresAt) {
    m = emit(endTerm(m, out), { state: 'following', holder }, out);
    return wait(m, Math.min(now + jittered(c, input.random), expiresAt), out);
  }
  out.push({ type: 'update', lease: heldLease(lease, write(c, now)) });
  return { kind: 'writing', memory: m, sentAt: now, path: 'slow' };
}

/**
 * A write went through. The term lasts until renewDeadline after the write was sent: a contender
 * saw the record change no earlier than that and waits a whole leaseDuration more. A write that
 * took longer than the deadline leads to nothing (the next try renews it). A renewal asked for
 * while the write was in flight is tried at once.
 */
function written(memory: ElectionMemory, sentAt: number, input: Input<'written'>, c: ElectionStepConfig, out: Out, renew = false): ElectionState {
  const { lease, now } = input;
  const observed: Observation = { lease, recordKey: recordKeyOf(lease), observedAt: now };
  const until = sentAt + c.renewDeadlineMs;
  if (now >= until) {
    const m = emit(endTerm({ ...memory, observed }, out), following(observed, c), out);
    return wait(m, now + c.retryPeriodMs, out);
  }
  const transitions = transitionsOf(lease);
  out.push({ type: 'deadlineAt', at: until });
  const m = emit({ ...memory, observed, term: { until, transitions } }, { state: 'leading', holder: c.identity, transitions }, out);
  return wait(m, renew ? now : now + c.retryPeriodMs, out);
}

/** A request failed: a failed fast renewal reads at once; otherwise try again later (a leader every retry period, until its deadline). */
function failed(s: Extract<ElectionState, { kind: 'reading' | 'writing' }>, input: Input<'failed'>, c: ElectionStepConfig, out: Out): ElectionState {
  out.push({ type: 'report', error: input.error });
  if (s.kind === 'writing' && s.path === 'fast') {
    out.push({ type: 'get' });
    return { kind: 'reading', memory: s.memory };
  }
  if (s.memory.term !== undefined) return wait(s.memory, input.now + c.retryPeriodMs, out);
  const m = emit(s.memory, following(s.memory.observed, c), out);
  return wait(m, input.now + jittered(c, input.random), out);
}

/** The term's deadline passed without a renewal: stop leading now, whatever is in flight, and campaign again. */
function deadline(s: ElectionState, input: Input<'deadline'>, c: ElectionStepConfig, out: Out): ElectionState {
  const term = s.memory.term;
  if (term === undefined || input.now < term.until) return s;
  if (s.kind === 'reading' || s.kind === 'writing') out.push({ type: 'cancel' });
  const m = emit({ ...s.memory, term: undefined }, following(s.memory.observed, c), out);
  return wait(m, input.now + jittered(c, input.random), out);
}

/** Unsubscribed: stop; with releaseOnCancel, give up a lease this candidate may hold. */
function stop(s: ElectionState, now: number, c: ElectionStepConfig, out: Out): ElectionState {
  if (s.kind === 'reading' || s.kind === 'writing') out.push({ type: 'cancel' });
  out.push({ type: 'deadlineAt', at: undefined });
  const memory: ElectionMemory = { ...s.memory, term: undefined };
  const mightHold = holderOf(s.memory.observed?.lease) === c.identity || s.kind === 'writing';
  if (c.releaseOnCancel && mightHold) {
    const until = now + c.renewDeadlineMs;
    out.push({ type: 'get' }, { type: 'deadlineAt', at: until });
    return { kind: 'releasing', memory, until, phase: 'reading' };
  }
  out.push({ type: 'finish' });
  return { kind: 'stopped', memory };
}

/** Release: read, and if the lease still names this candidate, write it empty; retried until the deadline. */
function releasing(s: Extract<ElectionState, { kind: 'releasing' }>, input: ElectionInput, c: ElectionStepConfig, out: Out): ElectionState {
  const done = (): ElectionState => (out.push({ type: 'finish' }), { kind: 'stopped', memory: s.memory });
  switch (input.type) {
    case 'read':
      if (s.phase !== 'reading') return s;
      if (input.lease === undefined || holderOf(input.lease) !== c.identity) return done();
      out.push({ type: 'update', lease: releasedLease(input.lease, input.now) });
      return { ...s, phase: 'writing' };
    case 'written':
      return s.phase === 'writing' ? done() : s;
    case 'failed':
      out.push({ type: 'report', error: input.error });
      if (isConflict(input.error)) {
        out.push({ type: 'get' });
        return { ...s, phase: 'reading' };
      }
      out.push({ type: 'attemptAt', at: Math.min(input.now + c.retryPeriodMs, s.until) });
      return { ...s, phase: 'waiting' };
    case 'attempt':
      if (s.phase !== 'waiting') return s;
      out.push({ type: 'get' });
      return { ...s, phase: 'reading' };
    case 'deadline':
      if (input.now < s.until) return s;
      if (s.phase !== 'waiting') out.push({ type: 'cancel' });
      return done();
    default:
      return s;
  }
}

/** Keeps the time of the last change unless the record changed (client-go's `observedTime`). */
function observe(previous: Observation | undefined, lease: Lease | undefined, now: number): Observation {
  const recordKey = recordKeyOf(lease);
  if (previous !== undefined && previous.recordKey === recordKey) return { ...previous, lease };
  return { lease, recordKey, observedAt: now };
}

function endTerm(memory: ElectionMemory, out: Out): ElectionMemory {
  if (memory.term === undefined) return memory;
  out.push({ type: 'deadlineAt', at: undefined });
  return { ...memory, term: undefined };
}

/** Following, naming the holder the record shows unless that is this candidate (which does not lead). */
function following(observed: Observation | undefined, c: ElectionStepConfig): Leadership {
  const holder = holderOf(observed?.lease);
  return { state: 'following', holder: holder === c.identity ? undefined : holder };
}

function emit(memory: ElectionMemory, leadership: Leadership, out: Out): ElectionMemory {
  const last = memory.emitted;
  const same = last !== undefined && last.state === leadership.state && last.holder === leadership.holder && (last.state !== 'leading' || leadership.state !== 'leading' || last.transitions === leadership.transitions);
  if (same) return memory;
  out.push({ type: 'emit', leadership });
  return { ...memory, emitted: leadership };
}

function wait(memory: ElectionMemory, at: number, out: Out): ElectionState {
  out.push({ type: 'attemptAt', at });
  return { kind: 'waiting', memory, attemptAt: at };
}

/** client-go's `wait.Jitter(retryPeriod, 1.2)`: between 1 and 2.2 retry periods. */
function jittered(c: ElectionStepConfig, random: number): number {
  return c.retryPeriodMs * (1 + random * jitterFactor);
}

function write(c: ElectionStepConfig, now: number): RecordWrite {
  return { identity: c.identity, leaseDurationSeconds: c.leaseDurationMs / 1000, now };
}

function isConflict(error: unknown): boolean {
  return error instanceof ControllerError && error.reason === 'conflict';
}
