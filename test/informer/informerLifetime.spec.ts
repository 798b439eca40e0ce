// The informer's lifetime on virtual time: connect() counted with the other subscribers, graceMs,
// whenSynced's timeout on the informer's scheduler, in-band statuses. Real time is in
// informerLifetime.live.spec.ts.
import test from 'ava';
import { defer, map, Subject, timer, VirtualTimeScheduler } from 'rxjs';
import { NotSyncedError, TransportError } from '../../src/errors.js';
import { informer } from '../../src/informer/informer.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { added, listEvents } from '../../src/testing/events.js';
import { marbleSource, runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

type E = RawEvent<KubeObject>;
const cm = (name: string, rv: string) => configMap(name, { namespace: 'ns', resourceVersion: rv });

test('connect() holds the source like any subscriber: from the first holder until graceMs after the last', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const source = cold<E>('-a---------', { a: added(cm('a', '1')) });
    const inf = informer(source, { graceMs: 3 });
    const connection = inf.connect();
    timer(4).subscribe(() => connection.unsubscribe());
    expectObservable(inf.snapshots$.pipe(map((s) => s.size)), '--^---!').toBe('--1----', { 1: 1 });
    // The connection leaves at 4, the stream subscriber at 6: the source goes at 6 + 3.
    expectSubscriptions(source.subscriptions).toBe('^--------!');
  }));

test('two connections are counted: the source stays until both are gone', (t) =>
  runMarbles(t, ({ cold, expectSubscriptions }) => {
    const source = cold<E>('-a------', { a: added(cm('a', '1')) });
    const inf = informer(source);
    const first = inf.connect();
    const second = inf.connect();
    timer(2).subscribe(() => first.unsubscribe());
    timer(5).subscribe(() => second.unsubscribe());
    expectSubscriptions(source.subscriptions).toBe('^----!');
  }));

test('in-band STATUS events go to status$, not to the store; snapshots and changes are unchanged', (t) => {
  const seen: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const error = new TransportError('list', 'connect ECONNREFUSED 127.0.0.1:1', { code: 'ECONNREFUSED' });
    const raw = marbleSource<E>(cold, 'e-L-w', {
      e: [{ type: 'STATUS', status: { type: 'ERROR', error, permanent: false } }],
      L: listEvents([cm('a', '1')], '1'),
      w: [{ type: 'STATUS', status: { type: 'WATCHING', resourceVersion: '1' } }],
    });
    const inf = informer(raw);
    inf.status$.subscribe((s) => seen.push(s.type));
    expectObservable(inf.changes$.pipe(map((c) => `${c.type} ${c.key}`))).toBe('--a--', { a: 'add ns/a' });
  });
  t.deepEqual(seen, ['ERROR', 'WATCHING']);
});

test('whenSynced({ timeoutMs }) counts on the informer scheduler and names the last error', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const events = new Subject<E>();
  const inf = informer(events, { scheduler, name: 'configmaps' });
  const connection = inf.connect();
  const waiting = inf.whenSynced({ timeoutMs: 5000 });
  const error = new TransportError('list', 'connect ECONNREFUSED 127.0.0.1:1', { code: 'ECONNREFUSED' });
  events.next({ type: 'STATUS', status: { type: 'ERROR', error, permanent: false } });
  scheduler.flush();
  const rejected = await t.throwsAsync(waiting, { instanceOf: NotSyncedError });
  t.is(rejected?.message, '[informer] configmaps: not synced after 5000 ms: list failed: connect ECONNREFUSED 127.0.0.1:1');
  t.is(rejected?.timeoutMs, 5000);
  t.is(scheduler.now(), 5000);
  connection.unsubscribe();
});

test('whenSynced resolves with the first synced snapshot and clears its timer', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const events = new Subject<E>();
  const inf = informer(events, { scheduler });
  const connection = inf.connect();
  const waiting = inf.whenSynced({ timeoutMs: 5000 });
  for (const event of listEvents([cm('a', '1')], '1')) events.next(event);
  const snapshot = await waiting;
  t.is(snapshot.size, 1);
  t.is(scheduler.actions.length, 0, 'no timer left behind');
  connection.unsubscribe();
});

test('a FAILED status in band is reported once, and the error that follows does not add another', async (t) => {
  const events = new Subject<E>();
  const inf = informer(events);
  const seen: string[] = [];
  inf.status$.subscribe((s) => seen.push(s.type));
  inf.connect();
  const error = new Error('gone for good');
  events.next({ type: 'STATUS', status: { type: 'FAILED', error } });
  events.error(error);
  t.deepEqual(seen, ['FAILED']);
  await t.throwsAsync(inf.whenSynced(), { instanceOf: NotSyncedError, message: /the source failed: gone for good$/ }, 'after the failure nothing runs it: the failure is the reason');
});

test('whenSynced checks its options', (t) => {
  const inf = informer(new Subject<E>());
  t.throws(() => inf.whenSynced({ timeoutMs: -1 }), { instanceOf: TypeError, message: /timeoutMs/ });
  t.throws(() => inf.whenSynced({ signal: {} as AbortSignal }), { instanceOf: TypeError, message: /signal/ });
});

test('after the source failed for good, whenSynced rejects with failed and the source error until the next connect()', async (t) => {
  let source = new Subject<E>();
  // A fresh subject per run, so that connecting again starts the source afresh.
  const inf = informer(defer(() => source), { name: 'cms' });
  inf.connect();
  source.error(new Error('connection refused'));
  const error = await t.throwsAsync(inf.whenSynced(), { instanceOf: NotSyncedError });
  t.is(error?.reason, 'failed');
  t.is(error?.message, '[informer] cms: the source failed: connection refused');
  const again = await t.throwsAsync(inf.whenSynced(), { instanceOf: NotSyncedError });
  t.is(again?.reason, 'failed', 'still failed, whatever the timing of the question');
  // The next connect() starts afresh: the failure is forgotten and whenSynced waits for the new run.
  source = new Subject<E>();
  const second = inf.connect();
  const synced = inf.whenSynced();
  for (const event of listEvents([cm('a', '1')], '1')) source.next(event);
  t.is((await synced).size, 1);
  second.unsubscribe();
  const stopped = await t.throwsAsync(inf.whenSynced(), { instanceOf: NotSyncedError });
  t.is(stopped?.reason, 'notConnected', 'a run that ended without failing is not reported as failed');
});
