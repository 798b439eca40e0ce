import test from 'ava';
import { asyncScheduler, concat, EMPTY, from, map, NEVER, of, Subject, tap, throwError, timer } from 'rxjs';
import { reconcile, type ReconcileOutcome, type ReconcileResult } from '../../src/controller/reconcile.js';
import { terminal } from '../../src/controller/terminal.js';
import { runMarbles } from '../../src/testing/marbles.js';

/** A compact outcome: `a ok`, `a ok requeue 7`, `a err 1 retry 5`, `a terminal 1`. */
const view = (o: ReconcileOutcome) =>
  o.result === 'success'
    ? `${o.key} ok${o.requeueAfterMs !== undefined ? ` requeue ${o.requeueAfterMs}` : ''}`
    : o.result === 'terminal'
      ? `${o.key} terminal ${o.retries}`
      : `${o.key} err ${o.retries} retry ${o.retryAfterMs}`;

test('empty completes, never stays open, a key-stream error passes through', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = () => undefined;
    expectObservable(cold<string>('|').pipe(reconcile(handler))).toBe('|');
    expectObservable(cold<string>('-').pipe(reconcile(handler))).toBe('-');
    expectObservable(cold<string>('-#', undefined, new Error('keys')).pipe(reconcile(handler))).toBe('-#', undefined, new Error('keys'));
  }));

test('a key queued twice before it starts is handled once', (t) => {
  const calls: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = (key: string) => (calls.push(key), timer(2).pipe(map(() => undefined)));
    // x keeps the only worker busy while a, b, a arrive: the second a finds a already queued.
    expectObservable(cold('-(xaba)---|').pipe(reconcile(handler), map(view))).toBe('---x-y-z--|', { x: 'x ok', y: 'a ok', z: 'b ok' });
  });
  t.deepEqual(calls, ['x', 'a', 'b']);
});

test('a key is never handled concurrently with itself; added while handled, it runs again after', (t) => {
  const starts: number[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = () => (starts.push(asyncScheduler.now()), timer(3).pipe(map(() => undefined)));
    expectObservable(cold('-a-a------|').pipe(reconcile(handler, { concurrency: 4 }), map(view))).toBe('----x--y--|', { x: 'a ok', y: 'a ok' });
  });
  t.deepEqual(starts, [1, 4]);
});

test('failures retry with per-key exponential backoff from 5 ms; success forgets the count', (t) => {
  let failuresLeft = 3;
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = () => {
      if (failuresLeft-- > 0) throw new Error('not yet');
    };
    // Fails at 1 (retry in 5), 6 (retry in 10), 16 (retry in 20), succeeds at 36; then a new failure starts again at 5.
    expectObservable(cold('-a---------------------------------------------a').pipe(reconcile(handler), map(view)), '^---------------------------------------------------------!').toBe(
      '-a----b---------c-------------------d----------e',
      { a: 'a err 1 retry 5', b: 'a err 2 retry 10', c: 'a err 3 retry 20', d: 'a ok', e: 'a ok' },
    );
  });
});

test('a rejected or erroring handler result counts as a failure too', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    let calls = 0;
    const handler = () => (calls++ === 0 ? throwError(() => new Error('bad')) : of(undefined));
    expectObservable(cold('-a').pipe(reconcile(handler), map(view))).toBe('-x----y', { x: 'a err 1 retry 5', y: 'a ok' });
  }));

test('the overall token bucket spaces retries once the burst is spent', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = (key: string) => {
      if (key !== 'ok') throw new Error('down');
    };
    // burst 2, 1 per second: the third failure at the same instant waits a whole second.
    expectObservable(
      cold('-(abc)').pipe(reconcile(handler, { retriesPerSecond: 1, retryBurst: 2, concurrency: 3 }), map(view)),
      '^----!',
    ).toBe('-(xyz)', { x: 'a err 1 retry 5', y: 'b err 1 retry 5', z: 'c err 1 retry 1000' });
  }));

test('the per-key delay is capped at maxDelayMs', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = () => {
      throw new Error('always');
    };
    expectObservable(cold('-a').pipe(reconcile(handler, { baseDelayMs: 4, maxDelayMs: 6 }), map(view)), '^-------------------!').toBe('-a---b-----c-----d--', {
      a: 'a err 1 retry 4',
      b: 'a err 2 retry 6',
      c: 'a err 3 retry 6',
      d: 'a err 4 retry 6',
    });
  }));

test('requeueAfterMs from the handler runs the key again later; the earlier of two delays wins', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    let runs = 0;
    const handler = () => (runs++ === 0 ? { requeueAfterMs: 10 } : undefined);
    expectObservable(cold('-a').pipe(reconcile(handler), map(view))).toBe('-x---------y', { x: 'a ok requeue 10', y: 'a ok' });
  }));

test('an object the handler resolves to (an API call\'s result) is a success; only requeueAfterMs is read', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const written = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '7' } };
    const handler = (key: string) => (key === 'a' ? of(written) : of(null));
    expectObservable(cold('-a-b').pipe(reconcile(handler), map(view))).toBe('-x-y', { x: 'a ok', y: 'b ok' });
  }));

test('a requeueAfterMs that is not a number of milliseconds fails the run, and says so', (t) => {
  const outcomes: ReconcileOutcome[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    let runs = 0;
    // What JavaScript callers (and casts) can hand back: a string where milliseconds belong.
    const handler = (): ReconcileResult => (runs++ === 0 ? ({ requeueAfterMs: '5s' } as unknown as ReconcileResult) : undefined);
    const run$ = cold('-a').pipe(reconcile(handler), tap((o) => outcomes.push(o)), map(view));
    expectObservable(run$).toBe('-x----y', { x: 'a err 1 retry 5', y: 'a ok' });
  });
  const failure = outcomes[0];
  t.is(failure?.result, 'error');
  t.regex(String(failure?.result === 'error' && (failure.error as Error).message), /requeueAfterMs must be a number of milliseconds.*"5s"/);
});

test('concurrency bounds the handlers running at once', (t) => {
  let running = 0;
  let peak = 0;
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = () => {
      peak = Math.max(peak, ++running);
      return timer(5).pipe(map(() => void running--));
    };
    expectObservable(cold('-(abc)').pipe(reconcile(handler, { concurrency: 2 }), map(view))).toBe('------(xy)-z', { x: 'a ok', y: 'b ok', z: 'c ok' });
  });
  t.is(peak, 2);
});

test('graceful shutdown: when keys complete, queued keys run, running handlers finish, pending retries are dropped', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = (key: string) => (key === 'bad' ? throwError(() => new Error('x')) : timer(4).pipe(map(() => undefined)));
    const keys = cold('-(bk)l|', { b: 'bad', k: 'ok', l: 'later' });
    expectObservable(keys.pipe(reconcile(handler, { baseDelayMs: 10 }), map(view))).toBe('-x---y---(z|)', { x: 'bad err 1 retry 10', y: 'ok ok', z: 'later ok' });
  }));

test('unsubscribing aborts running handlers and clears timers', (t) => {
  const signals: AbortSignal[] = [];
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const keys = cold('-a-b---');
    const handler = (_: string, { signal }: { signal: AbortSignal }) => (signals.push(signal), NEVER);
    expectObservable(keys.pipe(reconcile(handler, { concurrency: 2 })), '^----!').toBe('------');
    expectSubscriptions(keys.subscriptions).toBe('^----!');
  });
  t.is(signals.length, 2);
  t.true(signals.every((s) => s.aborted));
});

test('handlers get the failure count so far', (t) => {
  const seen: number[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = (_: string, { retries }: { retries: number }) => {
      seen.push(retries);
      if (retries < 2) throw new Error('again');
    };
    expectObservable(cold('-a').pipe(reconcile(handler), map((o) => o.result)), '^---------------------!').toBe('-e----e---------s', { e: 'error', s: 'success' });
  });
  t.deepEqual(seen, [0, 1, 2]);
});

test('bad options are rejected at call time', (t) => {
  t.throws(() => reconcile(() => undefined, { concurrency: 0 }), { instanceOf: TypeError, message: /concurrency/ });
  t.throws(() => reconcile(() => undefined, { baseDelayMs: -1 }), { instanceOf: TypeError, message: /baseDelayMs/ });
  t.throws(() => reconcile('nope' as never), { instanceOf: TypeError, message: /handler/ });
});

test('a backlog of 100,000 keys whose handler finishes synchronously does not grow the stack (a controller starting on a big cache)', (t) => {
  const keys = Array.from({ length: 100_000 }, (_, i) => `k${i}`);
  // Synchronous results of every kind a handler may give: a plain value, of(), EMPTY, and a
  // requeue of 0 ms (which adds the key again at once).
  const results = [undefined, of(undefined), EMPTY, { requeueAfterMs: 0 }] as const;
  for (const concurrency of [1, 4]) {
    // The first keys wait on a gate, so that every other key queues up behind them, as when a
    // controller starts on a synced cache while its first reconciles are still in flight.
    const gate = new Subject<undefined>();
    const requeued = new Set<string>();
    const outcomes: ReconcileOutcome[] = [];
    const handler = (key: string) => {
      const index = Number(key.slice(1));
      if (index < concurrency) return gate;
      const result = results[index % results.length]!;
      if (result === results[3] && requeued.has(key)) return undefined;
      if (result === results[3]) requeued.add(key);
      return result;
    };
    const subscription = concat(from(keys), NEVER)
      .pipe(reconcile(handler, { concurrency }))
      .subscribe({ next: (outcome) => outcomes.push(outcome), error: (error: unknown) => t.fail(String(error)) });
    gate.complete();
    subscription.unsubscribe();
    t.is(outcomes.length, keys.length + requeued.size, `concurrency ${concurrency}: every key ran, the requeued ones twice`);
    t.true(outcomes.every((o) => o.result === 'success'));
    t.is(requeued.size, keys.filter((_, i) => i >= concurrency && i % results.length === 3).length);
  }
});

test('a terminal error is not retried and keeps the failure count; the key runs again only when it comes in again', (t) => {
  const seen: number[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    let run = 0;
    const handler = (_: string, { retries }: { retries: number }) => {
      seen.push(retries);
      run++;
      if (run === 1) throw new Error('flaky');
      if (run === 2) throw terminal(new Error('invalid spec'));
      if (run === 3) throw new Error('flaky again');
    };
    expectObservable(cold('-a-----------------a').pipe(reconcile(handler), map(view)), '^------------------------------!').toBe('-x----y------------z---------w', {
      x: 'a err 1 retry 5',
      y: 'a terminal 1',
      z: 'a err 2 retry 10',
      w: 'a ok',
    });
  });
  t.deepEqual(seen, [0, 1, 1, 2]);
});

test('retryDelay (an error policy) replaces the backoff of a failure, which still counts; undefined or a throw keeps the backoff', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    let run = 0;
    const handler = () => {
      if (run++ < 3) throw new Error(`fail ${run}`);
    };
    const retryDelay = (error: unknown, key: string, retries: number) => {
      if (retries === 2) throw new Error('policy bug');
      return (error as Error).message === 'fail 1' && key === 'a' ? 3 : undefined;
    };
    expectObservable(cold('-a').pipe(reconcile(handler, { retryDelay }), map(view))).toBe('-x--y---------z-------------------w', {
      x: 'a err 1 retry 3',
      y: 'a err 2 retry 10',
      z: 'a err 3 retry 20',
      w: 'a ok',
    });
  }));

test('drain: false drops the keys queued when the input completes and waits only for running handlers', (t) => {
  const calls: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const handler = (key: string) => (calls.push(key), timer(4).pipe(map(() => undefined)));
    expectObservable(cold('-(abc|)').pipe(reconcile(handler, { drain: false }), map(view))).toBe('-----(x|)', { x: 'a ok' });
  });
  t.deepEqual(calls, ['a']);
});

test('metrics hooks: an add per key becoming due, taken and done with scheduler times and the result label, a retry per delayed requeue', (t) => {
  const log: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    let run = 0;
    const handler = () => (run++ === 0 ? throwError(() => new Error('x')) : run === 2 ? timer(2).pipe(map(() => ({ requeueAfterMs: 10 }))) : of(undefined));
    const metrics = {
      started: (concurrency: number) => void log.push(`started ${concurrency}`),
      added: (key: string, now: number) => void log.push(`added ${key} @${now}`),
      taken: (key: string, now: number) => void log.push(`taken ${key} @${now}`),
      done: (key: string, now: number, result: string) => void log.push(`done ${key} @${now} ${result}`),
      retried: (key: string) => void log.push(`retried ${key}`),
      stopped: () => void log.push('stopped'),
    };
    // a fails at 1 (retry due at 6); comes in again at 2 and runs until 4, asking for 10 more ms: the
    // retry due at 6 is earlier and wins.
    expectObservable(cold('-aa').pipe(reconcile(handler, { metrics, concurrency: 3 }), map((o) => o.result)), '^----------!').toBe('-e--s-s', { e: 'error', s: 'success' });
  });
  t.deepEqual(log, [
    'started 3',
    'added a @1',
    'taken a @1',
    'done a @1 error',
    'retried a',
    'added a @2',
    'taken a @2',
    'done a @4 requeue_after',
    'retried a',
    'added a @6',
    'taken a @6',
    'done a @6 success',
    'stopped',
  ]);
});
