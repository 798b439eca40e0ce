/**
 * The work queue's one transition per key: `(view, input) → { view, effects }`. Every decision of
 * the queue about a key — dedup, debounce, priority, the run after a run, holding for
 * read-your-own-writes, shutdown — is made here. Pure: time comes in with the input, the backoff
 * chosen by the runtime's limiter comes in with `done`. The runtime ({@link reconcile}) keeps a
 * map of key states and the ready line, and performs the effects; a map copied per step would cost
 * O(keys) per event, so the step sees one key and the queue's phase.
 */
import { mergeReasons, withReason, type ReconcileReason } from '../reconcileReason.js';
import type { KeyState, KeyView, PendingRun, QueueEffect, QueueInput, QueueStep, QueueStepConfig } from './workQueueState.js';

/**
 * The transition. An input that does not belong to the key's state (a `take` of a key that is not
 * queued, say) leaves it as it is and asks for nothing.
 *
 * @param view the queue's phase and the key's state.
 * @param input what happened to the key.
 * @param config debounce and read-your-own-writes wait.
 * @returns the next view and the effects to perform, in order.
 */
export function workQueueStep(view: KeyView, input: QueueInput, config: QueueStepConfig): QueueStep {
  const effects: QueueEffect[] = [];
  const key = next(view, input, config, effects);
  return { view: { phase: input.type === 'shutdown' ? 'draining' : view.phase, key }, effects };
}

function next(view: KeyView, input: QueueInput, config: QueueStepConfig, out: QueueEffect[]): KeyState | undefined {
  const state = view.key;
  switch (input.type) {
    case 'add':
      return view.phase === 'open' ? added(state, input, config, out) : state;
    case 'due':
      // A delayed run that came due while the key is in line anyway: that run covers it.
      if (state?.kind === 'queued' && state.later !== undefined) {
        const { later, ...rest } = state;
        if (later.priority > state.priority) out.push({ type: 'enqueue', priority: later.priority, counted: true }, { type: 'raised', from: state.priority, to: later.priority });
        return { ...rest, priority: Math.max(state.priority, later.priority), reasons: mergeReasons(state.reasons, later.reasons) };
      }
      if (state?.kind === 'waiting') return enqueue(state.priority, state.reasons, false, 0, false, out);
      if (state?.kind === 'holding') return enqueue(state.priority, state.reasons, true, input.now - state.since, true, out);
      return state;
    case 'caughtUp':
      if (state?.kind !== 'holding') return state;
      out.push({ type: 'cancelTimer' });
      return enqueue(state.priority, state.reasons, false, input.now - state.since, true, out);
    case 'take':
      if (state?.kind !== 'queued') return state;
      if (!input.fresh && !state.waitedOut) {
        // Held off the line; a delayed run still wanted joins the held one (the hold's timer replaces its timer).
        out.push({ type: 'held' }, { type: 'timer', at: input.now + config.freshnessWaitMs });
        const reasons = state.later === undefined ? state.reasons : mergeReasons(state.reasons, state.later.reasons);
        return { kind: 'holding', since: input.now, until: input.now + config.freshnessWaitMs, priority: state.priority, reasons };
      }
      out.push({ type: 'start', priority: state.priority, reasons: state.reasons, waitedOut: state.waitedOut, heldMs: state.heldMs });
      return { kind: 'running', next: state.later, timedOut: false };
    case 'timeout':
      if (state?.kind !== 'running' || state.timedOut) return state;
      out.push({ type: 'abort' });
      return { ...state, timedOut: true };
    case 'done':
      return state?.kind === 'running' ? finished(state.next, input, view.phase, out) : state;
    case 'shutdown':
      return shutDown(state, input.drain, out);
  }
}

/** A trigger: dedup, raise, debounce (kube-rs's scheduler rules). */
function added(state: KeyState | undefined, input: Extract<QueueInput, { type: 'add' }>, config: QueueStepConfig, out: QueueEffect[]): KeyState {
  const { now, priority, reasons: given } = input;
  const dueAt = now + config.debounceMs;
  switch (state?.kind) {
    case undefined:
      if (config.debounceMs > 0) return wait(dueAt, priority, given, out);
      return enqueue(priority, given, false, 0, false, out);
    case 'waiting': {
      // Trailing edge: each trigger moves the run to `debounce` after it. Without debounce, a
      // trigger runs a key that waits for a requeue or a retry now, and the delayed run stays
      // wanted too (client-go's Add beside its AddAfter).
      if (config.debounceMs > 0) return wait(dueAt, Math.max(state.priority, priority), mergeReasons(state.reasons, given), out);
      out.push({ type: 'enqueue', priority, counted: false });
      return { kind: 'queued', priority, reasons: given, waitedOut: false, heldMs: 0, later: { dueAt: state.dueAt, priority: state.priority, reasons: state.reasons } };
    }
    case 'queued': {
      // Already in line: a higher priority raises it; debounce never delays a key that is due.
      if (priority > state.priority) out.push({ type: 'enqueue', priority, counted: true }, { type: 'raised', from: state.priority, to: priority });
      return { ...state, priority: Math.max(state.priority, priority), reasons: mergeReasons(state.reasons, given) };
    }
    case 'holding':
      // Off the line, but still counted as waiting: only its count moves to the new priority.
      if (priority > state.priority) out.push({ type: 'raised', from: state.priority, to: priority });
      return { ...state, priority: Math.max(state.priority, priority), reasons: mergeReasons(state.reasons, given) };
    case 'running': {
      // One more run after this one. A run already due stays due (it is only held because the
      // key runs); a later one moves to `debounce` after this trigger.
      const pending = state.next;
      const at = pending !== undefined && pending.dueAt <= now ? pending.dueAt : dueAt;
      return { ...state, next: { dueAt: at, priority: Math.max(pending?.priority ?? priority, priority), reasons: mergeReasons(pending?.reasons ?? [], given) } };
    }
  }
}

/** A run ended: forget or count the failure, schedule the requeue or retry, then the run wanted meanwhile. */
function finished(pending: PendingRun | undefined, input: Extract<QueueInput, { type: 'done' }>, phase: KeyView['phase'], out: QueueEffect[]): KeyState | undefined {
  const { decision, now } = input;
  // A run wanted meanwhile (dropped by a shutdown already); requeues and retries only while open.
  let run = pending;
  let delayed = false;
  const later = (at: number, priority: number, reason: ReconcileReason): void => {
    delayed = true;
    // Of two wanted runs the earlier wins; the reasons and the higher priority carry over.
    run = run === undefined ? { dueAt: at, priority, reasons: [reason] } : { dueAt: Math.min(run.dueAt, at), priority: Math.max(run.priority, priority), reasons: withReason(run.reasons, reason) };
  };
  switch (decision.type) {
    case 'forget':
      out.push({ type: 'forget' });
      break;
    case 'requeueAfter':
      out.push({ type: 'forget' });
      if (phase === 'open') later(now + Math.max(0, decision.ms), decision.priority ?? 0, { type: 'requeue', afterMs: decision.ms });
      break;
    case 'rateLimited':
      if (phase === 'open') later(now + Math.max(0, input.retryAfterMs), 0, { type: 'retry', failures: input.failures });
      break;
    case 'terminal':
      break;
  }
  if (delayed) out.push({ type: 'retried' });
  if (run === undefined) return undefined;
  return run.dueAt <= now ? enqueue(run.priority, run.reasons, false, 0, false, out) : wait(run.dueAt, run.priority, run.reasons, out);
}

function shutDown(state: KeyState | undefined, drain: boolean, out: QueueEffect[]): KeyState | undefined {
  switch (state?.kind) {
    case undefined:
      return undefined;
    case 'waiting':
      out.push({ type: 'cancelTimer' });
      return undefined;
    case 'queued':
      return drain ? state : undefined;
    case 'holding':
      if (drain) return state;
      out.push({ type: 'cancelTimer' });
      return undefined;
    case 'running':
      return { ...state, next: undefined };
  }
}

function wait(dueAt: number, priority: number, reasons: readonly ReconcileReason[], out: QueueEffect[]): KeyState {
  out.push({ type: 'timer', at: dueAt });
  return { kind: 'waiting', dueAt, priority, reasons };
}

function enqueue(priority: number, reasons: readonly ReconcileReason[], waitedOut: boolean, heldMs: number, counted: boolean, out: QueueEffect[]): KeyState {
  out.push({ type: 'enqueue', priority, counted });
  return { kind: 'queued', priority, reasons, waitedOut, heldMs };
}
