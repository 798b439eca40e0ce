/**
 * controller() on virtual time, over real informers fed by in-memory List+Watch sources. Scenarios
 * from kube-rs's runner/controller tests and controller-runtime's controller_test (design notes §4).
 */
import test from 'ava';
import { asyncScheduler, map, NEVER, Observable, throwError, timer, VirtualTimeScheduler } from 'rxjs';
import { NotSyncedError } from '../../src/errors.js';
import { controller, type ControllerConfig } from '../../src/controller/controller.js';
import type { ControllerOutcome } from '../../src/controller/reconcileObjects.js';
import { terminal } from '../../src/controller/terminal.js';
import type { ReconcileMetrics } from '../../src/metrics/reconcileMetrics.js';
import { predicateFilter } from '../../src/controller/predicateFilter.js';
import { predicates } from '../../src/controller/predicates.js';
import { informer, type Informer } from '../../src/informer/informer.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { fakeListWatch, type FakeListWatch } from '../../src/testing/fakeListWatch.js';
import { runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

interface Set extends KubeObject {
  readonly spec?: { readonly size?: number };
}
const setKind = { apiVersion: 'demo.example.com/v1', kind: 'Set' };
const set = (name: string, size = 1, uid = `uid-${name}`): Set => ({ ...setKind, metadata: { name, namespace: 'n', uid }, spec: { size } });
const child = (name: string, owner: string | undefined, controllerRef = true): KubeObject => ({
  ...configMap(name, { namespace: 'n' }),
  metadata: { name, namespace: 'n', ...(owner ? { ownerReferences: [{ ...setKind, name: owner, uid: `uid-${owner}`, controller: controllerRef }] } : {}) } as KubeObject['metadata'],
});

/** `n/a ok`, `n/a err`, `n/a terminal`. */
const view = (o: ControllerOutcome) => `${o.key} ${o.result === 'success' ? 'ok' : o.result === 'error' ? 'err' : 'terminal'}`;

/** At virtual time `at`, run `act` (inside runMarbles). */
const at = (ms: number, act: () => void) => void asyncScheduler.schedule(act, ms);

function sets(initial: Set[] = [set('a'), set('b')]): { api: FakeListWatch<Set>; informer: Informer<Set> } {
  const api = fakeListWatch<Set>(initial);
  return { api, informer: informer(api.events$) };
}

test('every cached object is reconciled once at the start, then on each change, reading the newest object from the cache', (t) => {
  const seen: string[] = [];
  runMarbles(t, ({ expectObservable }) => {
    const { api, informer: primary } = sets();
    at(5, () => {
      api.modify(set('a', 2));
      api.modify(set('a', 3)); // one run sees size 3
    });
    at(9, () => api.add(set('c')));
    const out = controller(primary, { reconcile: (object) => void seen.push(`${object?.metadata?.name}:${object?.spec?.size}`) });
    expectObservable(out.pipe(map(view)), '^----------!').toBe('(xy)-z---w', { x: 'n/a ok', y: 'n/b ok', z: 'n/a ok', w: 'n/c ok' });
  });
  t.deepEqual(seen, ['a:1', 'b:1', 'a:3', 'c:1']);
});

test('the metrics hooks hear the priority: the initial list added at -100, a real change raising a key that waits, each taken at the priority it waited at', (t) => {
  const heard: string[] = [];
  const metrics: ReconcileMetrics = {
    added: (key, _now, priority) => void heard.push(`added ${key} ${priority}`),
    raised: (key, from, to) => void heard.push(`raised ${key} ${from}→${to}`),
    taken: (key, _now, priority) => void heard.push(`taken ${key} ${priority}`),
    done: () => undefined,
    retried: () => undefined,
  };
  runMarbles(t, ({ expectObservable }) => {
    const { api, informer: primary } = sets([set('a'), set('b'), set('c')]);
    at(5, () => api.modify(set('c', 2)));
    // a runs for 10 frames; b and c wait behind it.
    const out = controller(primary, { reconcile: () => timer(10).pipe(map(() => undefined)), metrics });
    expectObservable(out.pipe(map(view)), '^-----------------!').toBe('----------x', { x: 'n/a ok' });
  });
  t.deepEqual(heard, ['added n/a -100', 'taken n/a -100', 'added n/b -100', 'added n/c -100', 'raised n/c -100→0', 'taken n/c 0']);
});

test('initialPriority: objects of the initial list wait at the priority it gives (lowPriority when it gives undefined), so some run first', (t) => {
  const taken: string[] = [];
  const metrics: ReconcileMetrics = { added: () => undefined, taken: (key, _now, priority) => void taken.push(`${key} ${priority}`), done: () => undefined, retried: () => undefined };
  runMarbles(t, ({ expectObservable }) => {
    const { informer: primary } = sets([set('a'), set('b'), set('c'), set('d')]);
    const out = controller(primary, {
      reconcile: () => timer(1).pipe(map(() => undefined)),
      metrics,
      initialPriority: (object) => (object.metadata?.name === 'c' || object.metadata?.name === 'd' ? -50 : undefined),
    });
    expectObservable(out.pipe(map(view)), '^----!').toBe('-wxyz', { w: 'n/a ok', x: 'n/c ok', y: 'n/d ok', z: 'n/b ok' });
  });
  // a is taken the moment it is added (nothing waits yet); c and d, added after it at -50, pass b.
  t.deepEqual(taken, ['n/a -100', 'n/c -50', 'n/d -50', 'n/b -100']);
});

test('initialPriority that gives something other than an integer errors the controller, naming the option', (t) => {
  runMarbles(t, ({ expectObservable }) => {
    const { informer: primary } = sets([set('a')]);
    const out = controller(primary, { reconcile: () => undefined, initialPriority: () => 0.5 });
    expectObservable(out.pipe(map(view)), '^!').toBe('#', undefined, new TypeError('[controller] initialPriority must return an integer or undefined, got 0.5 for n/a'));
  });
});

test('a deleted object is reconciled with undefined; the context names it', (t) => {
  const seen: unknown[] = [];
  runMarbles(t, ({ expectObservable }) => {
    const { api, informer: primary } = sets([set('a')]);
    at(3, () => api.delete('n/a'));
    const out = controller(primary, { kind: setKind, reconcile: (object, { ref }) => void seen.push([object?.metadata?.name, ref]) });
    expectObservable(out.pipe(map(view)), '^-----!').toBe('x--y', { x: 'n/a ok', y: 'n/a ok' });
  });
  t.deepEqual(seen, [
    ['a', { namespace: 'n', name: 'a', kind: 'Set', apiVersion: 'demo.example.com/v1' }],
    [undefined, { namespace: 'n', name: 'a', kind: 'Set', apiVersion: 'demo.example.com/v1' }],
  ]);
});

test('owns: a child change reconciles the owner named by its controller reference; a move reconciles both owners', (t) => {
  const seen: string[] = [];
  runMarbles(t, ({ expectObservable }) => {
    const { informer: primary } = sets();
    const children = fakeListWatch<KubeObject>([child('c1', 'a'), child('c2', 'b', false)]);
    at(4, () => children.modify(child('c1', 'b')));
    at(8, () => children.modify(child('c2', 'b', false))); // not a controller reference: nobody
    at(10, () => children.delete('n/c1'));
    const out = controller(primary, { kind: setKind, owns: [informer(children.events$)], reconcile: (o) => void seen.push(`${asyncScheduler.now()} ${o!.metadata!.name!}`) });
    expectObservable(out.pipe(map(view)), '^-----------!').toBe('(xy)(xy)--y', { x: 'n/a ok', y: 'n/b ok' });
  });
  t.deepEqual(seen, ['0 a', '0 b', '4 a', '4 b', '10 b'], 'the initial list of the children adds no run of its own');
});

test('owns: an update of a child that keeps its owner (a status update) reconciles the owner once, not once for the old and once for the new object', (t) => {
  const seen: string[] = [];
  runMarbles(t, ({ expectObservable }) => {
    const { informer: primary } = sets([set('a')]);
    const children = fakeListWatch<KubeObject>([child('c1', 'a')]);
    at(4, () => children.modify({ ...child('c1', 'a'), data: { status: 'ready' } } as KubeObject));
    const out = controller(primary, { kind: setKind, owns: [informer(children.events$)], reconcile: (o) => void seen.push(`${asyncScheduler.now()} ${o!.metadata!.name!}`) });
    expectObservable(out.pipe(map(view)), '^-----!').toBe('x---x', { x: 'n/a ok' });
  });
  t.deepEqual(seen, ['0 a', '4 a']);
});

test('watches: an update of a related object that maps to the same objects before and after reconciles each of them once', (t) => {
  const seen: string[] = [];
  runMarbles(t, ({ expectObservable }) => {
    const { informer: primary } = sets();
    const others = fakeListWatch<KubeObject>([configMap('points-to-b', { namespace: 'n' })]);
    at(4, () => others.modify({ ...configMap('points-to-b', { namespace: 'n' }), data: { x: 'y' } } as KubeObject));
    const out = controller(primary, {
      watches: [{ informer: informer(others.events$), map: (o) => [{ namespace: 'n', name: o.metadata!.name!.slice('points-to-'.length) }, { namespace: 'n', name: 'b' }] }],
      reconcile: (o) => void seen.push(`${asyncScheduler.now()} ${o!.metadata!.name!}`),
    });
    expectObservable(out.pipe(map(view)), '^-----!').toBe('(ab)b', { a: 'n/a ok', b: 'n/b ok' });
  });
  t.deepEqual(seen, ['0 a', '0 b', '4 b']);
});

test('owns with match: any follows every reference of the owner kind', (t) =>
  runMarbles(t, ({ expectObservable }) => {
    const { informer: primary } = sets([set('a')]);
    const children = fakeListWatch<KubeObject>([]);
    at(2, () => children.add(child('c', 'a', false)));
    const out = controller(primary, { kind: setKind, owns: [{ informer: informer(children.events$), match: 'any' }], reconcile: () => undefined });
    expectObservable(out.pipe(map(view)), '^---!').toBe('x-x', { x: 'n/a ok' });
  }));

test('watches: a related object maps through the function; reconcileAllOn reconciles everything; triggers inject refs', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const { informer: primary } = sets();
    const others = fakeListWatch<KubeObject>([]);
    at(5, () => others.add(configMap('points-to-b', { namespace: 'n' })));
    const out = controller(primary, {
      watches: [{ informer: informer(others.events$), map: (o) => [{ namespace: 'n', name: o.metadata!.name!.slice('points-to-'.length) }] }],
      reconcileAllOn: cold('------t'),
      triggers: cold('------------r', { r: { namespace: 'n', name: 'a' } }),
      reconcile: () => undefined,
    });
    expectObservable(out.pipe(map(view)), '^-------------!').toBe('(ab)-b(ab)--a', { a: 'n/a ok', b: 'n/b ok' });
  }));

test('a filter on the primary drops updates it does not care about', (t) =>
  runMarbles(t, ({ expectObservable }) => {
    const { api, informer: primary } = sets([{ ...set('a'), metadata: { ...set('a').metadata, generation: 1 } }]);
    at(2, () => api.modify({ ...set('a'), metadata: { ...set('a').metadata, generation: 1, labels: { x: 'y' } } }));
    at(4, () => api.modify({ ...set('a', 2), metadata: { ...set('a').metadata, generation: 2 } }));
    const out = controller(primary, { filter: predicateFilter(predicates.generation), reconcile: () => undefined });
    expectObservable(out.pipe(map(view)), '^-----!').toBe('x---x', { x: 'n/a ok' });
  }));

test('nothing runs before every informer has synced; what came meanwhile runs once, after', (t) => {
  const seen: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const { informer: primary } = sets([set('a')]);
    const late = cold<RawEvent<KubeObject>>('---(sd)', { s: { type: 'LIST_START' }, d: { type: 'LIST_DONE', resourceVersion: '1' } });
    const out = controller(primary, { kind: setKind, owns: [informer(late)], reconcile: (o) => void seen.push(o!.metadata!.name!) });
    expectObservable(out.pipe(map(view)), '^-----!').toBe('---x', { x: 'n/a ok' });
  });
  t.deepEqual(seen, ['a']);
});

test("a sync that takes longer than syncTimeoutMs errors the controller with the informer's NotSyncedError, on the informer's clock", async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const api = fakeListWatch<Set>([set('a')]);
  // Batches on the virtual clock too: a real asap batch would leak into the marble tests of this file.
  const primarySynced: number[] = [];
  const primary = informer(api.events$, { scheduler, buffer: { scheduler }, name: 'sets', onUpdate: (u) => void (u.snapshot.synced && primarySynced.push(scheduler.now())) });
  const never = informer<KubeObject>(NEVER as Observable<RawEvent<KubeObject>>, { scheduler, buffer: { scheduler }, name: 'configmaps' });
  const ran: string[] = [];
  const failed = new Promise<{ error: unknown; at: number }>((resolve) =>
    controller(primary, { watches: [{ informer: never, map: () => [] }], syncTimeoutMs: 50, scheduler, reconcile: (o) => void ran.push(o!.metadata!.name!) }).subscribe({
      error: (error: unknown) => resolve({ error, at: scheduler.now() }),
    }),
  );
  scheduler.flush();
  const { error, at } = await failed;
  t.true(error instanceof NotSyncedError);
  t.like(error, { reason: 'timeout', informer: 'configmaps', message: '[informer] configmaps: not synced after 50 ms (the source reported no error)' });
  t.is(at, 50);
  t.deepEqual(primarySynced, [0], 'the primary synced at once');
  t.deepEqual(ran, [], 'nothing ran from a half-synced cache');
});

test('failures back off per key; an error policy may choose the delay; a terminal error stops the retries', (t) => {
  const policy: string[] = [];
  runMarbles(t, ({ expectObservable }) => {
    const { informer: primary } = sets();
    let bRuns = 0;
    const out = controller(primary, {
      reconcile: (o) => {
        if (o!.metadata!.name === 'a') throw terminal(new Error('invalid'));
        if (bRuns++ < 2) return throwError(() => new Error('busy'));
        return undefined;
      },
      errorPolicy: (error, object, { retries }) => (policy.push(`${object?.metadata?.name} ${(error as Error).message} ${retries}`), retries === 1 ? { requeueAfterMs: 7 } : undefined),
    });
    // b: fails at 0 (policy: 7 ms), at 7 (policy keeps the backoff: 10 ms), succeeds at 17.
    expectObservable(out.pipe(map(view)), '^-------------------!').toBe('(ab)---b---------c', { a: 'n/a terminal', b: 'n/b err', c: 'n/b ok' });
  });
  t.deepEqual(policy, ['b busy 1', 'b busy 2']);
});

/** An informer over `api` that counts subscriptions to its source and whether one is open. */
function counted<T extends KubeObject>(api: FakeListWatch<T>) {
  const state = { subscriptions: 0, open: 0 };
  const source = new Observable<RawEvent<T>>((subscriber) => {
    state.subscriptions++;
    state.open++;
    const inner = api.events$.subscribe(subscriber);
    return () => {
      state.open--;
      inner.unsubscribe();
    };
  });
  return { informer: informer(source), state };
}

test('graceful shutdown: triggers stop, queued runs are dropped, the running one finishes, then the output completes and the informers are let go', (t) => {
  const started: string[] = [];
  const { informer: primary, state } = counted(fakeListWatch<Set>([set('a'), set('b'), set('c')]));
  runMarbles(t, ({ cold, expectObservable }) => {
    const out = controller(primary, {
      reconcile: (o) => (started.push(o!.metadata!.name!), timer(5).pipe(map(() => undefined))),
      shutdownOn: cold('--s'),
    });
    expectObservable(out.pipe(map(view))).toBe('-----(x|)', { x: 'n/a ok' });
  });
  t.deepEqual(started, ['a']);
  t.deepEqual(state, { subscriptions: 1, open: 0 });
});

test('a shutdown that outlives shutdownGraceMs aborts the running reconciles and errors, naming them', (t) => {
  const signals: AbortSignal[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const { informer: primary } = sets([set('slow')]);
    const out = controller(primary, { reconcile: (_o, { signal }) => (signals.push(signal), NEVER), shutdownOn: cold('-s'), shutdownGraceMs: 10 });
    expectObservable(out).toBe('-' + '-'.repeat(10) + '#', undefined, { name: 'ControllerError', message: 'controller: reconciles still running 10 ms (shutdownGraceMs) after shutdown began: n/slow; aborted' });
  });
  t.is(signals.length, 1);
  t.true(signals[0]!.aborted);
});

test('unsubscribing stops at once: running reconciles are aborted, the informers are let go', (t) => {
  const signals: AbortSignal[] = [];
  const { informer: primary, state } = counted(fakeListWatch<Set>([set('a')]));
  runMarbles(t, ({ expectObservable }) => {
    expectObservable(controller(primary, { reconcile: (_o, { signal }) => (signals.push(signal), NEVER) }), '^--!').toBe('---');
  });
  t.true(signals[0]!.aborted);
  t.deepEqual(state, { subscriptions: 1, open: 0 });
});

test("an informer's failure errors the output", (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const { informer: primary } = sets([set('a')]);
    const broken = informer<KubeObject>(cold<RawEvent<KubeObject>>('---#', undefined, new Error('source gave up')));
    const out = controller(primary, { watches: [{ informer: broken, map: () => [] }], reconcile: () => undefined });
    expectObservable(out).toBe('---#', undefined, { name: 'Error', message: 'source gave up' });
  }));

test('bad configuration is a TypeError at call time', (t) => {
  const { informer: primary } = sets();
  t.throws(() => controller(primary, {} as ControllerConfig<Set>), { instanceOf: TypeError, message: /config.reconcile/ });
  t.throws(() => controller({} as never, { reconcile: () => undefined }), { instanceOf: TypeError, message: /primary must be an informer/ });
  t.throws(() => controller(primary, { owns: [primary as never], reconcile: () => undefined }), { instanceOf: TypeError, message: /owns needs the primary's kind/ });
  t.throws(() => controller(primary, { owns: [{} as never], kind: setKind, reconcile: () => undefined }), { instanceOf: TypeError, message: /owns\[0\] is not an informer/ });
  t.throws(() => controller(primary, { watches: [{ informer: primary } as never], reconcile: () => undefined }), { instanceOf: TypeError, message: /watches\[0\] needs/ });
  t.throws(() => controller(primary, { concurrency: 0, reconcile: () => undefined }), { instanceOf: TypeError, message: /concurrency/ });
  t.throws(() => controller(primary, { errorPolicy: 1 as never, reconcile: () => undefined }), { instanceOf: TypeError, message: /errorPolicy/ });
  t.throws(() => controller(primary, { shutdownGraceMs: -1, reconcile: () => undefined }), { instanceOf: TypeError, message: /shutdownGraceMs/ });
  t.throws(() => controller(primary, { syncTimeoutMs: Infinity, reconcile: () => undefined }), { instanceOf: TypeError, message: /syncTimeoutMs must be a finite number >= 0/ });
  t.throws(() => controller(primary, { initialPriority: 3 as never, reconcile: () => undefined }), { instanceOf: TypeError, message: /initialPriority/ });
});
