import test from 'ava';
import { asyncScheduler, filter, from, map, mergeMap, of, Subject, tap, timer, type Subscription } from 'rxjs';
import { informer } from '../../src/informer/informer.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { added, bookmark, deleted, listEvents, modified } from '../../src/testing/events.js';
import { marbleSource, runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';
import { changeView, snapshotView } from '../helpers/views.js';

const cm = (name: string, rv: string) => configMap(name, { namespace: 'ns', resourceVersion: rv });
type E = RawEvent<KubeObject>;
const sameRV = (a: KubeObject, b: KubeObject) => a.metadata?.resourceVersion === b.metadata?.resourceVersion;

test('end to end on virtual time: list of 3, watch add/modify/delete, a relist missing one object; two subscribers, one upstream subscription', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const a1 = cm('a', '1'), b2 = cm('b', '2'), c3 = cm('c', '3');
    const d4 = cm('d', '4'), a5 = cm('a', '5'), b6 = cm('b', '6');
    const d7 = cm('d', '7');
    const events = {
      L: listEvents([a1, b2, c3], '3', { pageSize: 2 }),
      x: added(d4),
      y: modified(a5),
      z: deleted(b6),
      // The relist misses c (deleted while the watch was down) and shows d changed.
      R: listEvents([a5, d7], '8'),
    };
    const source = cold<E | E[]>('-L------x--y--z--R------', events);
    const raw = source.pipe(mergeMap((value) => (Array.isArray(value) ? from(value) : of(value))));
    let upstreamSubscriptions = 0;
    const inf = informer(raw.pipe(tap({ subscribe: () => upstreamSubscriptions++ })));

    const snapshots = '-s------t--u--v--w------';
    expectObservable(inf.snapshots$.pipe(map(snapshotView))).toBe(snapshots, {
      s: { items: ['ns/a@1', 'ns/b@2', 'ns/c@3'], rv: '3', synced: true },
      t: { items: ['ns/a@1', 'ns/b@2', 'ns/c@3', 'ns/d@4'], rv: '4', synced: true },
      u: { items: ['ns/a@5', 'ns/b@2', 'ns/c@3', 'ns/d@4'], rv: '5', synced: true },
      v: { items: ['ns/a@5', 'ns/c@3', 'ns/d@4'], rv: '6', synced: true },
      w: { items: ['ns/a@5', 'ns/d@7'], rv: '8', synced: true },
    });
    expectObservable(inf.changes$.pipe(map(changeView))).toBe('-(abc)--x--y--z--(pqr)', {
      a: 'add ns/a@1 initial',
      b: 'add ns/b@2 initial',
      c: 'add ns/c@3 initial',
      x: 'add ns/d@4',
      y: 'update ns/a@1->5',
      z: 'delete ns/b@6',
      p: 'update ns/a@5->5 sync',
      q: 'update ns/d@4->7',
      r: 'delete ns/c@tombstone(3)',
    });
    expectObservable(inf.synced$).toBe('fs----------------------', { f: false, s: true });
    expectSubscriptions(source.subscriptions).toBe('^');
    return () => t.is(upstreamSubscriptions, 1);
  })());

test('a late subscriber gets the current snapshot, not old notifications', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const raw = marbleSource<E>(cold, '-L---x----', { L: listEvents([cm('a', '1')], '1'), x: added(cm('b', '2')) });
    const inf = informer(raw);
    expectObservable(inf.snapshots$.pipe(map((s) => s.size))).toBe('-1---2----', { 1: 1, 2: 2 });
    expectObservable(inf.snapshots$.pipe(map((s) => s.size)), '---^------').toBe('---1-2----', { 1: 1, 2: 2 });
    expectObservable(inf.changes$.pipe(map(changeView)), '---^------').toBe('-----x----', { x: 'add ns/b@2' });
  }));

test('refCount with a grace period: the source is kept for graceMs after the last subscriber, then torn down', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const source = cold<E>('-a-------', { a: added(cm('a', '1')) });
    const inf = informer(source, { graceMs: 3 });
    expectObservable(inf.changes$.pipe(map(changeView)), '^-!').toBe('-x-', { x: 'add ns/a@1' });
    expectObservable(inf.snapshots$.pipe(map((s) => s.size)), '----^--!').toBe('----1---', { 1: 1 });
    expectSubscriptions(source.subscriptions).toBe('^---------!');
  }));

test('without a grace period the source is torn down with the last subscriber, and the cache is dropped', (t) => {
  runMarbles(t, ({ cold, expectSubscriptions, expectObservable }) => {
    const source = cold<E>('-a-------', { a: added(cm('a', '1')) });
    const inf = informer(source);
    expectObservable(inf.snapshots$.pipe(map((s) => s.size)), '^--!').toBe('-1--', { 1: 1 });
    expectObservable(inf.snapshots$.pipe(map((s) => s.size)), '-----^--!').toBe('------1-', { 1: 1 });
    expectSubscriptions(source.subscriptions).toBe(['^--!', '-----^--!']);
  });
});

test('resync re-delivers cached objects as sync updates on virtual time without changing the snapshot', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const raw = marbleSource<E>(cold, '-L--------', { L: listEvents([cm('a', '1')], '1') });
    const inf = informer(raw, { resyncMs: 4 });
    expectObservable(inf.changes$.pipe(map(changeView)), '^--------!').toBe('-a--s---s', { a: 'add ns/a@1 initial', s: 'update ns/a@1->1 sync' });
    expectObservable(inf.snapshots$.pipe(map((s) => s.size)), '^--------!').toBe('-1-------', { 1: 1 });
  }));

test('options are checked at call time', (t) => {
  t.throws(() => informer(new Subject<E>(), { graceMs: -5 }), { instanceOf: TypeError, message: /graceMs/ });
  t.throws(() => informer(new Subject<E>(), { resyncMs: -1 }), { instanceOf: TypeError, message: /^\[informer\] resyncMs must be a number >= 0, got -1$/ });
  const inf = informer(new Subject<E>());
  for (const bad of [-1, Number.NaN]) {
    t.throws(() => inf.addHandler({}, { resyncMs: bad }), { instanceOf: TypeError, message: `[addHandler] resyncMs must be a number >= 0, got ${bad}` });
  }
});

// The README's "Testing your own pipelines" snippet, verbatim.
test('indexers given as a function (not an object of them) is a TypeError naming the option, at the call', (t) => {
  // Issue 43: `indexers: (x) => [x]` was accepted and indexed nothing.
  t.throws(() => informer(new Subject<RawEvent<KubeObject>>(), { indexers: ((x: KubeObject) => [x.metadata?.name ?? '']) as never }), {
    instanceOf: TypeError,
    message: '[informer] indexers must be an object of index functions, like { byNode: (pod) => [pod.spec.nodeName] }, got a function',
  });
  t.throws(() => informer(new Subject<RawEvent<KubeObject>>(), { indexers: [] as never }), { instanceOf: TypeError, message: /indexers must be an object of index functions.*got an array$/ });
});

test('my controller sees the add', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = marbleSource(cold, '-L--a-', { L: listEvents([configMap('x')], '1'), a: added(configMap('y')) });
    expectObservable(informer(source).changes$.pipe(map((c) => c.key))).toBe('-x--y-', { x: 'default/x', y: 'default/y' });
  }));

test('R23/R24: sync updates reach each handler only when its own resync period is due', (t) => {
  const log: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const raw = marbleSource<E>(cold, '-L', { L: listEvents([cm('a', '1')], '1') });
    const inf = informer(raw, { resyncMs: 1000 });
    const record = (name: string) => ({
      onAdd: () => log.push(`${name} add`),
      onUpdate: (o: KubeObject, n: KubeObject) => log.push(`${name} ${o === n ? 'sync' : 'update'}`),
    });
    const subs = [
      inf.addHandler(record('default')),
      inf.addHandler(record('slow'), { resyncMs: 3000 }),
      inf.addHandler(record('never'), { resyncMs: 0 }),
      inf.addHandler(record('fast'), { resyncMs: 10 }),
    ];
    // Run for 6.5 s of virtual time, then remove the handlers (which stops the timer).
    timer(6500).subscribe(() => subs.forEach((s) => s.unsubscribe()));
    expectObservable(inf.synced$, '^ 6500ms !').toBe('ft', { f: false, t: true });
  });
  const count = (prefix: string) => log.filter((line) => line.startsWith(prefix)).length;
  t.is(count('default sync'), 6, 'every 1 s');
  t.is(count('slow sync'), 2, 'at 3 s and 6 s');
  t.is(count('never sync'), 0);
  t.is(count('fast sync'), 6, '10 ms is raised to the 1 s check period');
  t.is(count('default add') + count('slow add') + count('never add') + count('fast add'), 4);
});

test('R23: without a resync timer every handler gets the sync updates of a relist', (t) => {
  const log: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const raw = marbleSource<E>(cold, '-L-R', { L: listEvents([cm('a', '1')], '1'), R: listEvents([cm('a', '1')], '2') });
    const inf = informer(raw);
    const subs = [
      inf.addHandler({ onUpdate: (o, n) => log.push(`one ${o.metadata?.resourceVersion}->${n.metadata?.resourceVersion}`) }),
      // A period of its own starts a timer (R24), but its first tick is long after the relist.
      inf.addHandler({ onUpdate: (o, n) => log.push(`two ${o.metadata?.resourceVersion}->${n.metadata?.resourceVersion}`) }, { resyncMs: 5000 }),
    ];
    timer(4).subscribe(() => subs.forEach((sub) => sub.unsubscribe()));
    expectObservable(inf.synced$, '^---!').toBe('ft', { f: false, t: true });
  });
  t.deepEqual(log, ['one 1->1', 'two 1->1']);
});

test('R19: only the objects of the first list are isInInitialList, also when watch events share its burst or its batch window', (t) => {
  for (const buffer of [undefined, { windowMs: 5 }]) {
    runMarbles(t, ({ cold, expectObservable }) => {
      // The list's end and the first watch events in one synchronous burst (a streaming list's end
      // bookmark and the next event in one network chunk), then one more event later.
      const burst = [...listEvents([cm('a', '1'), cm('b', '2')], '2'), added(cm('c', '3')), modified(cm('a', '4'))];
      const raw = marbleSource<E>(cold, '-L------x', { L: burst, x: added(cm('d', '5')) });
      const inf = informer(raw, buffer ? { buffer } : {});
      const expected = {
        a: 'add ns/a@1 initial',
        b: 'add ns/b@2 initial',
        u: 'update ns/a@1->4',
        c: 'add ns/c@3',
        d: 'add ns/d@5',
      };
      // A window of 5: the first batch closes at 6, the second opens at 8 and closes at 13.
      expectObservable(inf.changes$.pipe(map(changeView))).toBe(buffer ? '------(aubc)-d' : '-(aubc)-d', expected);
    });
  }
});

test('R17: with a batch window, a resync tick skips the keys that have queued deltas; the others are synced in the open batch', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    // Window 10, resync 20. The list (a, b) is applied at 11. a changes at 15, so at the tick (20)
    // a has a queued delta: its stale object is not re-delivered; b's sync joins the open batch.
    const raw = marbleSource<E>(cold, '-L-------------m', { L: listEvents([cm('a', '1'), cm('b', '2')], '2'), m: modified(cm('a', '3')) });
    const inf = informer(raw, { buffer: { windowMs: 10 }, resyncMs: 20 });
    expectObservable(inf.changes$.pipe(map(changeView)), '^ 30ms !').toBe('-- 9ms (ab) 10ms (us)', {
      a: 'add ns/a@1 initial',
      b: 'add ns/b@2 initial',
      u: 'update ns/a@1->3',
      s: 'update ns/b@2->2 sync',
    });
  }));

test('R23: a resync tick re-flags the handlers even while the cache is empty', (t) => {
  const log: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    // Ticks every 1 s from an empty cache; a arrives at 2.5 s; a relist at 2.7 s brings it back unchanged.
    const raw = marbleSource<E>(cold, '-L 2499ms a 199ms R', { L: listEvents([], '1'), a: added(cm('a', '2')), R: listEvents([cm('a', '2')], '3') });
    const inf = informer(raw, { resyncMs: 1000 });
    const subs = [
      inf.addHandler({ onUpdate: (o, n) => log.push(`never ${sameRV(o, n) ? 'sync' : 'update'}`) }, { resyncMs: 0 }),
      inf.addHandler({ onUpdate: (o, n) => log.push(`every second ${sameRV(o, n) ? 'sync' : 'update'}`) }),
    ];
    timer(2800).subscribe(() => subs.forEach((s) => s.unsubscribe()));
    expectObservable(inf.synced$, '^ 2800ms !').toBe('ft', { f: false, t: true });
  });
  // At 1 s "never" was flagged not due, for good; "every second" was due at 2 s, so it still is at 2.7 s.
  t.deepEqual(log, ['every second sync']);
});

test('R24: a handler asking for a resync period gets it even when the informer has none, whenever it is added', (t) => {
  const log: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const raw = marbleSource<E>(cold, '-L', { L: listEvents([cm('a', '1')], '1') });
    const inf = informer(raw);
    const record = (name: string) => ({ onUpdate: (o: KubeObject, n: KubeObject) => o === n && log.push(`${name} ${asyncScheduler.now()}`) });
    const subs = [inf.addHandler(record('five')), inf.addHandler(record('plain'))];
    subs[0]!.unsubscribe();
    subs[0] = inf.addHandler(record('five'), { resyncMs: 5000 });
    // "one", added while the informer runs, lowers the timer to 1 s from 2.5 s (ticks 3.5, 4.5, …);
    // when it leaves at 7 s the timer goes back to 5 s (tick at 12 s). "five" is due at its first
    // tick at or after 5 s each time.
    let one: Subscription | undefined;
    timer(2500).subscribe(() => (one = inf.addHandler(record('one'), { resyncMs: 1000 })));
    timer(7000).subscribe(() => one?.unsubscribe());
    timer(12_500).subscribe(() => subs.forEach((s) => s.unsubscribe()));
    expectObservable(inf.synced$, '^ 12500ms !').toBe('ft', { f: false, t: true });
  });
  t.deepEqual(log.filter((l) => l.startsWith('five')), ['five 5500', 'five 12000']);
  t.deepEqual(log.filter((l) => l.startsWith('one')), ['one 3500', 'one 4500', 'one 5500', 'one 6500']);
  t.deepEqual(log.filter((l) => l.startsWith('plain')), [], 'a handler without a period gets no syncs');
});

test('a resync tick that joins a bookmark batch does not hide the bookmark: snapshots$ gets the new resourceVersion', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    // Window 5, resync 20, nothing cached: the tick at 20 opens a batch; the bookmark at 22 joins it.
    const raw = marbleSource<E>(cold, '-L 20ms B', { L: listEvents([], '1'), B: [bookmark('5')] });
    const inf = informer(raw, { buffer: { windowMs: 5 }, resyncMs: 20 });
    expectObservable(inf.snapshots$.pipe(map((s) => s.resourceVersion)), '^ 30ms !').toBe('------a 18ms b', { a: '1', b: '5' });
  }));

test('onSynced: called with the first synced snapshot, before any subscriber sees it; not again for relists', (t) =>
  runMarbles(t, ({ cold }) => {
    const log: string[] = [];
    const raw = marbleSource<E>(cold, '-x-L--y--R', { x: added(cm('early', '1')), L: listEvents([cm('a', '2'), cm('b', '3')], '3'), y: added(cm('c', '4')), R: listEvents([cm('a', '5')], '5') });
    const inf = informer(raw, {
      onSynced: (snapshot) => log.push(`onSynced ${snapshot.size} ${snapshot.synced} current=${inf.snapshot === snapshot}`),
    });
    inf.snapshots$.subscribe((s) => log.push(`snapshot ${s.size}`));
    return () => t.deepEqual(log, ['snapshot 1', 'onSynced 2 true current=true', 'snapshot 2', 'snapshot 3', 'snapshot 1']);
  })());

test('onSynced: once per run of the informer (a new run lists and syncs afresh)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const sizes: number[] = [];
    const raw = marbleSource<E>(cold, '-L--', { L: listEvents([cm('a', '1')], '1') });
    const inf = informer(raw, { onSynced: (snapshot) => void sizes.push(snapshot.size) });
    expectObservable(inf.synced$, '^----!').toBe('fs---', { f: false, s: true });
    expectObservable(inf.synced$, '-------^----!').toBe('-------fs---', { f: false, s: true });
    return () => t.deepEqual(sizes, [1, 1]);
  })());

test('onSynced that throws: an InformerError (hook) on errors$, and the informer goes on', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const raw = marbleSource<E>(cold, '-L--y', { L: listEvents([cm('a', '1')], '1'), y: added(cm('b', '2')) });
    const inf = informer(raw, {
      onSynced: () => {
        throw new Error('incomplete cache');
      },
    });
    expectObservable(inf.errors$.pipe(map((e) => `${e.name} ${e.reason} ${e.message}`))).toBe('-e---', { e: 'InformerError hook [informer] onSynced threw: incomplete cache' });
    expectObservable(inf.snapshots$.pipe(map((s) => s.size))).toBe('-1--2', { 1: 1, 2: 2 });
  }));

test('resyncMs as an Observable: the informer resyncs at the current period, 0 stops it; handlers without a period of their own follow it', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const raw = marbleSource<E>(cold, '-L', { L: listEvents([cm('a', '1')], '1') });
    // 2 s from 0, 5 s from 9 s, off from 21 s
    const periods = cold<number>('a 8999ms b 11999ms c', { a: 2000, b: 5000, c: 0 });
    const inf = informer(raw, { resyncMs: periods });
    const following: number[] = [];
    const own: number[] = [];
    // (in TestScheduler.run, asyncScheduler tells virtual time)
    const handlers = [
      inf.addHandler({ onUpdate: (o, n) => void (o === n && following.push(asyncScheduler.now())) }),
      inf.addHandler({ onUpdate: (o, n) => void (o === n && own.push(asyncScheduler.now())) }, { resyncMs: 10_000 }),
    ];
    timer(30_000).subscribe(() => handlers.forEach((h) => h.unsubscribe()));
    const syncs = inf.changes$.pipe(filter((c) => c.type === 'update' && c.sync), map(() => 's'));
    expectObservable(syncs, '^ 29999ms !').toBe('2000ms s 1999ms s 1999ms s 1999ms s 5999ms s 4999ms s', { s: 's' });
    return () => {
      t.deepEqual(following, [2000, 4000, 6000, 8000, 14000, 19000]);
      t.deepEqual(own, [14000], 'a handler with its own period keeps it: due at 10 s, synced at the 14 s tick');
    };
  })());
