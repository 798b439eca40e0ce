import test from 'ava';
import { asyncScheduler, map, merge, mergeMap, Observable, timer } from 'rxjs';
import { reconcile, type ReconcileOutcome, type ReconcileRequest } from '../../src/controller/reconcile.js';
import { lowPriority, maxReasonsPerRun, type ReconcileReason } from '../../src/controller/reconcileReason.js';
import { ControllerError } from '../../src/errors.js';
import { runMarbles } from '../../src/testing/marbles.js';

const slow = (frames: number) => () => timer(frames).pipe(map(() => undefined));
const low = (key: string): ReconcileRequest => ({ key, priority: lowPriority, reasons: [{ type: 'initial' }] });
const high = (key: string): ReconcileRequest => ({ key, priority: 0, reasons: [{ type: 'changed', change: 'update' }] });

test('priority: a real change runs before unchanged objects queued earlier; a change raises a key already in line', (t) => {
  const order: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = (key: string) => (order.push(key), timer(2).pipe(map(() => undefined)));
    // x keeps the only worker busy; a, b, c come in low, then c and z change.
    const input = merge(cold<ReconcileRequest>('-(xabc)', { x: high('x'), a: low('a'), b: low('b'), c: low('c') }), cold<ReconcileRequest>('--(Cz)', { C: high('c'), z: high('z') }));
    expectObservable(input.pipe(reconcile(handler), map((o) => o.key))).toBe('---x-c-z-a-b', { x: 'x', c: 'c', z: 'z', a: 'a', b: 'b' });
  });
  t.deepEqual(order, ['x', 'c', 'z', 'a', 'b']);
});

test('priority: false serves first come first served; a requeue may carry its priority', (t) => {
  runMarbles(t, ({ cold, expectObservable }) => {
    const input = cold<ReconcileRequest>('-(xabC)', { x: high('x'), a: low('a'), b: low('b'), C: high('c') });
    expectObservable(input.pipe(reconcile(slow(2), { priority: false }), map((o) => o.key))).toBe('---x-a-b-c', { x: 'x', a: 'a', b: 'b', c: 'c' });
  });
  const order: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    let first = true;
    // r asks to run again at once at priority 1: ahead of the low keys queued meanwhile.
    const handler = (key: string) => (order.push(key), timer(2).pipe(map(() => (key === 'r' && first ? ((first = false), { requeueAfterMs: 0, priority: 1 }) : undefined))));
    const input = cold<ReconcileRequest>('-(rab)', { r: high('r'), a: low('a'), b: low('b') });
    expectObservable(input.pipe(reconcile(handler), map((o) => o.key)), '^----------!').toBe('---r-r-a-b', { r: 'r', a: 'a', b: 'b' });
  });
  t.deepEqual(order, ['r', 'r', 'a', 'b']);
});

test('debounce: a burst of triggers makes one run, debounceMs after the last; triggers during a run make one more', (t) => {
  const starts: number[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = () => (starts.push(asyncScheduler.now()), timer(4).pipe(map(() => undefined)));
    expectObservable(cold('-aaa-------a-a------').pipe(reconcile(handler, { debounceMs: 3 }), map((o) => o.key))).toBe('----------x---------x', { x: 'a' });
  });
  // burst at 1–3 → run at 6 (ends 10); triggers at 11, 13 → run at 16.
  t.deepEqual(starts, [6, 16]);
});

test('timeout: a run that outlives timeoutMs has its signal aborted, fails with ControllerError(timeout), is counted and retried', (t) => {
  const outcomes: ReconcileOutcome[] = [];
  const timedOut: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    let runs = 0;
    // The first run waits for its signal; the retry is quick.
    const handler = (_: string, { signal }: { signal: AbortSignal }): Observable<undefined> =>
      runs++ === 0 ? new Observable<undefined>((subscriber) => signal.addEventListener('abort', () => subscriber.error(signal.reason))) : timer(1).pipe(map(() => undefined));
    const metrics = { added: () => undefined, taken: () => undefined, done: () => undefined, retried: () => undefined, timedOut: (key: string) => void timedOut.push(key) };
    const run$ = cold('-a').pipe(reconcile(handler, { timeoutMs: 5, metrics }));
    expectObservable(run$.pipe(map((o) => (outcomes.push(o), o.result))), '^--------------!').toBe('------e-----s', { e: 'error', s: 'success' });
  });
  t.deepEqual(timedOut, ['a']);
  const first = outcomes[0]!;
  t.is(first.timedOut, true);
  t.true(first.result === 'error' && first.error instanceof ControllerError && first.error.reason === 'timeout');
  t.is(outcomes[1]!.timedOut, undefined);
});

test('reasons: a run gets every distinct reason gathered since its last run; the outcome carries them', (t) => {
  const seen: (readonly ReconcileReason[])[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = (_: string, { reasons }: { reasons: readonly ReconcileReason[] }) => (seen.push(reasons), timer(3).pipe(map(() => undefined)));
    const owned: ReconcileRequest = { key: 'a', reasons: [{ type: 'owned', child: { namespace: 'n', name: 'c1' } }] };
    const input = cold<string | ReconcileRequest>('-a(oOa)', { a: 'a', o: owned, O: owned });
    const out = input.pipe(reconcile(handler), map((o) => o.reasons.map((r) => r.type).join('+')));
    expectObservable(out).toBe('----x--y', { x: 'trigger', y: 'owned+trigger' });
  });
  t.deepEqual(seen.map((r) => r.length), [1, 2]);
});

test('reasons past the cap: a run after 40 distinct updates is told the first reason and the newest ones, and how many were folded between', (t) => {
  const seen: (readonly ReconcileReason[])[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = (_: string, { reasons }: { reasons: readonly ReconcileReason[] }) => (seen.push(reasons), timer(3).pipe(map(() => undefined)));
    const updates = Array.from({ length: 40 }, (_, i): ReconcileRequest => ({ key: 'a', reasons: [{ type: 'changed', change: 'update', resourceVersion: String(21 + i) }] }));
    // 'a' starts a run at 1; the 40 updates (rv 21…60) arrive while it runs; the next run is told of them.
    const input = cold<string | ReconcileRequest>('-ab', { a: 'a', b: updates[0]! }).pipe(mergeMap((item) => (item === 'a' ? [item] : updates)));
    expectObservable(input.pipe(reconcile(handler), map((o) => o.reasons.length))).toBe('----x--y', { x: 1, y: maxReasonsPerRun });
  });
  const last = seen[1]!;
  const rv = (r: ReconcileReason | undefined) => (r?.type === 'changed' ? r.resourceVersion : r?.type === 'folded' ? `folded ${r.count}` : r?.type);
  t.is(last.length, maxReasonsPerRun);
  t.is(rv(last[0]), '21', 'the first reason stays');
  t.is(rv(last[1]), `folded ${40 - (maxReasonsPerRun - 1)}`, 'says how many were folded');
  t.is(rv(last.at(-1)), '60', 'the newest reason is there');
  t.deepEqual(last.slice(2).map(rv), Array.from({ length: maxReasonsPerRun - 2 }, (_, i) => String(60 - (maxReasonsPerRun - 3) + i)));
});

test('freshness: a due key whose cache is behind waits without a worker until it caught up, or until freshnessWaitMs, and says so', (t) => {
  const outcomes: ReconcileOutcome[] = [];
  const held: string[] = [];
  runMarbles(t, ({ cold, hot, expectObservable }) => {
    const behind = new Set(['a', 'b']);
    const changed$ = hot<string>('-----a', { a: 'a' });
    changed$.subscribe(() => behind.delete('a'));
    const freshness = { isFresh: (key: string) => !behind.has(key), changed$ };
    const metrics = { added: () => undefined, taken: () => undefined, done: () => undefined, retried: () => undefined, held: (key: string) => void held.push(key) };
    const out = cold('-(abc)').pipe(reconcile(slow(1), { freshness, freshnessWaitMs: 10, metrics }), map((o) => (outcomes.push(o), o.key)));
    // c runs at once (a and b are held, off the line); a when its cache changes at 5; b when the wait runs out at 11.
    expectObservable(out, '^-------------!').toBe('--c---a-----b', { a: 'a', b: 'b', c: 'c' });
  });
  t.deepEqual(held, ['a', 'b']);
  t.deepEqual(outcomes.map((o) => [o.key, o.freshness]), [
    ['c', undefined],
    ['a', { heldMs: 4, behind: false }],
    ['b', { heldMs: 10, behind: true }],
  ]);
});

test('bad requests and new options are rejected with the option named', (t) => {
  t.throws(() => reconcile(() => undefined, { debounceMs: -1 }), { instanceOf: TypeError, message: '[reconcile] debounceMs must be a finite number >= 0, got -1' });
  t.throws(() => reconcile(() => undefined, { timeoutMs: Number.NaN }), { instanceOf: TypeError, message: /timeoutMs/ });
  t.throws(() => reconcile(() => undefined, { priority: 'yes' as never }), { instanceOf: TypeError, message: /priority must be a boolean/ });
  t.throws(() => reconcile(() => undefined, { freshness: {} as never }), { instanceOf: TypeError, message: /freshness must be/ });
  runMarbles(t, ({ cold, expectObservable }) => {
    const input = cold<ReconcileRequest>('-a', { a: { key: 'a', priority: 0.5 } });
    expectObservable(input.pipe(reconcile(() => undefined))).toBe('-#', undefined, new TypeError('[reconcile] the priority of a must be an integer, got 0.5'));
  });
});
