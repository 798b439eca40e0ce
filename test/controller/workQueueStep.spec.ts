import test from 'ava';
import { afterRun } from '../../src/controller/queue/afterRun.js';
import type { ReconcileReason } from '../../src/controller/reconcileReason.js';
import { terminal } from '../../src/controller/terminal.js';
import type { KeyState, KeyView, QueueEffect, QueueInput } from '../../src/controller/queue/workQueueState.js';
import { workQueueStep } from '../../src/controller/queue/workQueueStep.js';
import { ControllerError } from '../../src/errors.js';

const config = { debounceMs: 0, freshnessWaitMs: 50 };
const debounced = { debounceMs: 10, freshnessWaitMs: 50 };
const t1: ReconcileReason = { type: 'trigger' };
const ch: ReconcileReason = { type: 'changed', change: 'update', resourceVersion: '7' };
const init: ReconcileReason = { type: 'initial' };
const open = (key: KeyState | undefined): KeyView => ({ phase: 'open', key });
const draining = (key: KeyState | undefined): KeyView => ({ phase: 'draining', key });
const queued = (priority: number, reasons: readonly ReconcileReason[], extra: Partial<Extract<KeyState, { kind: 'queued' }>> = {}): KeyState => ({ kind: 'queued', priority, reasons, waitedOut: false, heldMs: 0, ...extra });
const running = (next?: { dueAt: number; priority: number; reasons: readonly ReconcileReason[] }): KeyState => ({ kind: 'running', next, timedOut: false });
const add = (now: number, priority: number, reasons: readonly ReconcileReason[] = [t1]): QueueInput => ({ type: 'add', now, priority, reasons });
const done = (now: number, decision: ReturnType<typeof afterRun>, retryAfterMs = 0, failures = 0): QueueInput => ({ type: 'done', now, decision, retryAfterMs, failures });

interface Row {
  readonly name: string;
  readonly view: KeyView;
  readonly input: QueueInput;
  readonly config?: typeof config;
  readonly key: KeyState | undefined;
  readonly effects: readonly QueueEffect[];
}

const rows: Row[] = [
  // add
  { name: 'idle + add → queued at its priority', view: open(undefined), input: add(5, 0), key: queued(0, [t1]), effects: [{ type: 'enqueue', priority: 0, counted: false }] },
  { name: 'idle + add, debounce → waiting debounce later', view: open(undefined), input: add(5, 0), config: debounced, key: { kind: 'waiting', dueAt: 15, priority: 0, reasons: [t1] }, effects: [{ type: 'timer', at: 15 }] },
  { name: 'queued + add at a higher priority → raised, reasons joined', view: open(queued(-100, [init])), input: add(5, 0, [ch]), key: queued(0, [init, ch]), effects: [{ type: 'enqueue', priority: 0, counted: true }, { type: 'raised', from: -100, to: 0 }] },
  { name: 'queued + add at a lower priority → stays, reasons joined', view: open(queued(0, [ch])), input: add(5, -100, [init]), key: queued(0, [ch, init]), effects: [] },
  { name: 'queued + the same reason again → one reason', view: open(queued(0, [ch])), input: add(5, 0, [ch]), key: queued(0, [ch]), effects: [] },
  { name: 'queued + add, debounce → a due key is not delayed', view: open(queued(0, [t1])), input: add(5, 0, [ch]), config: debounced, key: queued(0, [t1, ch]), effects: [] },
  {
    name: 'waiting (a retry) + add → queued now; the retry stays wanted later',
    view: open({ kind: 'waiting', dueAt: 20, priority: 0, reasons: [{ type: 'retry', failures: 1 }] }),
    input: add(5, 0),
    key: queued(0, [t1], { later: { dueAt: 20, priority: 0, reasons: [{ type: 'retry', failures: 1 }] } }),
    effects: [{ type: 'enqueue', priority: 0, counted: false }],
  },
  { name: 'waiting + add, debounce → moved to debounce after this trigger (trailing edge)', view: open({ kind: 'waiting', dueAt: 12, priority: -100, reasons: [init] }), input: add(9, 0, [ch]), config: debounced, key: { kind: 'waiting', dueAt: 19, priority: 0, reasons: [init, ch] }, effects: [{ type: 'timer', at: 19 }] },
  { name: 'running + add → one run after this one, due now', view: open(running()), input: add(5, 0), key: running({ dueAt: 5, priority: 0, reasons: [t1] }), effects: [] },
  { name: 'running + add, debounce → the run after moves with each trigger', view: open(running({ dueAt: 15, priority: 0, reasons: [t1] })), input: add(8, 0, [ch]), config: debounced, key: running({ dueAt: 18, priority: 0, reasons: [t1, ch] }), effects: [] },
  { name: 'running + add, debounce, the run after already due → it stays due', view: open(running({ dueAt: 3, priority: 0, reasons: [t1] })), input: add(8, 0, [ch]), config: debounced, key: running({ dueAt: 3, priority: 0, reasons: [t1, ch] }), effects: [] },
  { name: 'holding + add → reasons and priority join the held run', view: open({ kind: 'holding', since: 1, until: 51, priority: -100, reasons: [init] }), input: add(5, 0, [ch]), key: { kind: 'holding', since: 1, until: 51, priority: 0, reasons: [init, ch] }, effects: [{ type: 'raised', from: -100, to: 0 }] },
  { name: 'holding + add at a lower priority → reasons join, priority stays', view: open({ kind: 'holding', since: 1, until: 51, priority: 0, reasons: [ch] }), input: add(5, -100, [init]), key: { kind: 'holding', since: 1, until: 51, priority: 0, reasons: [ch, init] }, effects: [] },
  { name: 'draining + add → ignored', view: draining(undefined), input: add(5, 0), key: undefined, effects: [] },
  // due
  { name: 'waiting + due → queued', view: open({ kind: 'waiting', dueAt: 5, priority: 3, reasons: [t1] }), input: { type: 'due', now: 5 }, key: queued(3, [t1]), effects: [{ type: 'enqueue', priority: 3, counted: false }] },
  { name: 'queued with a later run + due → that run is covered', view: open(queued(0, [t1], { later: { dueAt: 5, priority: 2, reasons: [ch] } })), input: { type: 'due', now: 5 }, key: queued(2, [t1, ch]), effects: [{ type: 'enqueue', priority: 2, counted: true }, { type: 'raised', from: 0, to: 2 }] },
  { name: 'holding + due → the wait ran out: queued, starts although behind', view: open({ kind: 'holding', since: 1, until: 51, priority: 0, reasons: [ch] }), input: { type: 'due', now: 51 }, key: queued(0, [ch], { waitedOut: true, heldMs: 50 }), effects: [{ type: 'enqueue', priority: 0, counted: true }] },
  { name: 'running + due → nothing (done decides)', view: open(running()), input: { type: 'due', now: 5 }, key: running(), effects: [] },
  // caughtUp
  { name: 'holding + caughtUp → back in line, not behind', view: open({ kind: 'holding', since: 1, until: 51, priority: 0, reasons: [ch] }), input: { type: 'caughtUp', now: 31 }, key: queued(0, [ch], { heldMs: 30 }), effects: [{ type: 'cancelTimer' }, { type: 'enqueue', priority: 0, counted: true }] },
  { name: 'queued + caughtUp → nothing', view: open(queued(0, [ch])), input: { type: 'caughtUp', now: 31 }, key: queued(0, [ch]), effects: [] },
  // take
  { name: 'queued + take, fresh → running, start with its reasons', view: open(queued(0, [init, ch])), input: { type: 'take', now: 5, fresh: true }, key: running(), effects: [{ type: 'start', priority: 0, reasons: [init, ch], waitedOut: false, heldMs: 0 }] },
  { name: 'queued at -100 + take → start says the priority it waited at', view: open(queued(-100, [init])), input: { type: 'take', now: 5, fresh: true }, key: running(), effects: [{ type: 'start', priority: -100, reasons: [init], waitedOut: false, heldMs: 0 }] },
  { name: 'queued with a later run + take → that run is the one after', view: open(queued(0, [t1], { later: { dueAt: 20, priority: 0, reasons: [ch] } })), input: { type: 'take', now: 5, fresh: true }, key: running({ dueAt: 20, priority: 0, reasons: [ch] }), effects: [{ type: 'start', priority: 0, reasons: [t1], waitedOut: false, heldMs: 0 }] },
  { name: 'queued + take, cache behind → holding until the wait runs out', view: open(queued(0, [ch])), input: { type: 'take', now: 5, fresh: false }, key: { kind: 'holding', since: 5, until: 55, priority: 0, reasons: [ch] }, effects: [{ type: 'held' }, { type: 'timer', at: 55 }] },
  { name: 'queued, waited out + take, still behind → starts, saying so', view: open(queued(0, [ch], { waitedOut: true, heldMs: 50 })), input: { type: 'take', now: 55, fresh: false }, key: running(), effects: [{ type: 'start', priority: 0, reasons: [ch], waitedOut: true, heldMs: 50 }] },
  { name: 'waiting + take → nothing', view: open({ kind: 'waiting', dueAt: 9, priority: 0, reasons: [t1] }), input: { type: 'take', now: 5, fresh: true }, key: { kind: 'waiting', dueAt: 9, priority: 0, reasons: [t1] }, effects: [] },
  // timeout
  { name: 'running + timeout → abort, marked', view: open(running()), input: { type: 'timeout' }, key: { kind: 'running', next: undefined, timedOut: true }, effects: [{ type: 'abort' }] },
  { name: 'running, timed out + timeout → nothing more', view: open({ kind: 'running', next: undefined, timedOut: true }), input: { type: 'timeout' }, key: { kind: 'running', next: undefined, timedOut: true }, effects: [] },
  // done
  { name: 'running + done(forget) → idle, failures forgotten', view: open(running()), input: done(9, { type: 'forget' }), key: undefined, effects: [{ type: 'forget' }] },
  { name: 'running + done(forget), a trigger meanwhile → queued again', view: open(running({ dueAt: 5, priority: 0, reasons: [ch] })), input: done(9, { type: 'forget' }), key: queued(0, [ch]), effects: [{ type: 'forget' }, { type: 'enqueue', priority: 0, counted: false }] },
  {
    name: 'running + done(requeueAfter 10, priority 4) → waiting, forgotten, retried',
    view: open(running()),
    input: done(9, { type: 'requeueAfter', ms: 10, priority: 4 }),
    key: { kind: 'waiting', dueAt: 19, priority: 4, reasons: [{ type: 'requeue', afterMs: 10 }] },
    effects: [{ type: 'forget' }, { type: 'retried' }, { type: 'timer', at: 19 }],
  },
  {
    name: 'running + done(requeueAfter), an earlier run wanted → the earlier wins, reasons joined',
    view: open(running({ dueAt: 12, priority: 0, reasons: [ch] })),
    input: done(9, { type: 'requeueAfter', ms: 10, priority: undefined }),
    key: { kind: 'waiting', dueAt: 12, priority: 0, reasons: [ch, { type: 'requeue', afterMs: 10 }] },
    effects: [{ type: 'forget' }, { type: 'retried' }, { type: 'timer', at: 12 }],
  },
  {
    name: 'running + done(rateLimited) → waiting for the backoff, reason retry',
    view: open(running()),
    input: done(9, { type: 'rateLimited', error: new Error('x') }, 5, 1),
    key: { kind: 'waiting', dueAt: 14, priority: 0, reasons: [{ type: 'retry', failures: 1 }] },
    effects: [{ type: 'retried' }, { type: 'timer', at: 14 }],
  },
  { name: 'running + done(terminal) → idle, failures kept', view: open(running()), input: done(9, { type: 'terminal', error: new Error('x') }), key: undefined, effects: [] },
  { name: 'draining: running + done(rateLimited) → no retry', view: draining(running()), input: done(9, { type: 'rateLimited', error: new Error('x') }, 5, 1), key: undefined, effects: [] },
  // shutdown
  { name: 'waiting + shutdown → dropped, timer cancelled', view: open({ kind: 'waiting', dueAt: 9, priority: 0, reasons: [t1] }), input: { type: 'shutdown', drain: true }, key: undefined, effects: [{ type: 'cancelTimer' }] },
  { name: 'queued + shutdown(drain) → kept', view: open(queued(0, [t1])), input: { type: 'shutdown', drain: true }, key: queued(0, [t1]), effects: [] },
  { name: 'queued + shutdown(no drain) → dropped', view: open(queued(0, [t1])), input: { type: 'shutdown', drain: false }, key: undefined, effects: [] },
  { name: 'running + shutdown → the run after it is dropped', view: open(running({ dueAt: 5, priority: 0, reasons: [t1] })), input: { type: 'shutdown', drain: true }, key: running(), effects: [] },
  { name: 'holding + shutdown(no drain) → dropped, timer cancelled', view: open({ kind: 'holding', since: 1, until: 51, priority: 0, reasons: [ch] }), input: { type: 'shutdown', drain: false }, key: undefined, effects: [{ type: 'cancelTimer' }] },
];

for (const row of rows) {
  test(`step: ${row.name}`, (t) => {
    const { view, effects } = workQueueStep(row.view, row.input, row.config ?? config);
    t.deepEqual(view.key, row.key);
    t.deepEqual(effects, row.effects);
    t.is(view.phase, row.input.type === 'shutdown' ? 'draining' : row.view.phase);
  });
}

test('afterRun: one decision per way a run ends', (t) => {
  const boom = new Error('boom');
  const timeout = new ControllerError('timeout', 'took too long');
  const rows: Array<[string, ReturnType<typeof afterRun>['type'], Parameters<typeof afterRun>[1], Error?]> = [
    ['nothing → forget', 'forget', { threw: false, value: undefined }],
    ['an API result → forget', 'forget', { threw: false, value: { metadata: { name: 'a' } } }],
    ['requeueAfterMs → requeueAfter', 'requeueAfter', { threw: false, value: { requeueAfterMs: 5, priority: 2 } }],
    ['a throw → rateLimited', 'rateLimited', { threw: true, error: boom }],
    ['terminal() → terminal', 'terminal', { threw: true, error: terminal(boom) }],
    ['a bad requeueAfterMs → rateLimited', 'rateLimited', { threw: false, value: { requeueAfterMs: '5s' } }],
    ['a bad priority → rateLimited', 'rateLimited', { threw: false, value: { requeueAfterMs: 5, priority: 1.5 } }],
    ['a throw after the timeout → rateLimited with the timeout error', 'rateLimited', { threw: true, error: boom }, timeout],
  ];
  for (const [name, type, end, timeoutError] of rows) t.is(afterRun('n/a', end, timeoutError).type, type, name);
  t.deepEqual(afterRun('n/a', { threw: false, value: { requeueAfterMs: 5, priority: 2 } }), { type: 'requeueAfter', ms: 5, priority: 2 });
  t.is((afterRun('n/a', { threw: true, error: boom }, timeout) as { error: unknown }).error, timeout);
  t.regex(String((afterRun('n/a', { threw: false, value: { requeueAfterMs: 5, priority: 'high' } }) as { error: Error }).error.message), /priority must be an integer.*n\/a.*"high"/);
});
