/** holdUntilSynced over real informers fed by marble sources; the sync waits are the informers' own whenSynced. */
import test from 'ava';
import { map, NEVER, Subject, VirtualTimeScheduler, type Observable } from 'rxjs';
import { holdUntilSynced } from '../../src/controller/holdUntilSynced.js';
import type { ObjectRef } from '../../src/store/objectRef.js';
import { NotSyncedError } from '../../src/errors.js';
import { informer } from '../../src/informer/informer.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { listEvents } from '../../src/testing/events.js';
import { marbleSource, runMarbles } from '../../src/testing/marbles.js';
import type { RunHelpers } from 'rxjs/testing';

const refs = { a: { namespace: 'n', name: 'a' }, b: { namespace: 'n', name: 'b' }, c: { namespace: 'n', name: 'c' } } as const;
const name = (ref: ObjectRef) => ref.name;
type E = RawEvent<KubeObject>;
/** A source whose `s` is a whole (empty) first list. */
const listing = (cold: RunHelpers['cold'], marbles: string, error?: Error) =>
  error === undefined ? marbleSource<E>(cold, marbles, { s: listEvents([], '1') }) : cold<E>(marbles, undefined, error);

test('refs wait until every informer is synced, come out once each in first-seen order, then pass as they come', (t) =>
  runMarbles(t, ({ cold, hot, expectObservable, expectSubscriptions }) => {
    const input = hot<ObjectRef>('-a-b-a----c--|', refs);
    const one = informer(listing(cold, '--s'));
    const two = informer(listing(cold, '------s'));
    expectObservable(input.pipe(holdUntilSynced([one, two]), map(name))).toBe('------(ab)c--|', { a: 'a', b: 'b', c: 'c' });
    expectSubscriptions(input.subscriptions).toBe('^------------!');
  }));

test('already synced: nothing is held; no informers: nothing to wait for', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const synced = informer(listing(cold, 's'));
    synced.connect();
    expectObservable(cold<ObjectRef>('-a-b|', refs).pipe(holdUntilSynced([synced]), map(name))).toBe('-a-b|', { a: 'a', b: 'b' });
    expectObservable(cold<ObjectRef>('-a|', refs).pipe(holdUntilSynced([]), map(name))).toBe('-a|', { a: 'a' });
  }));

test('empty and never; completing before the sync drops what was held; an input error passes', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const never = informer<KubeObject>(NEVER as Observable<E>);
    expectObservable(cold<ObjectRef>('|').pipe(holdUntilSynced([never], { timeoutMs: 0 }))).toBe('|');
    expectObservable(cold<ObjectRef>('-').pipe(holdUntilSynced([never], { timeoutMs: 0 }))).toBe('-');
    expectObservable(cold<ObjectRef>('-a|', refs).pipe(holdUntilSynced([never], { timeoutMs: 0 }))).toBe('--|');
    expectObservable(cold<ObjectRef>('-#').pipe(holdUntilSynced([never], { timeoutMs: 0 }))).toBe('-#');
  }));

test("a source that fails before the sync errors the output with the source's error", (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const failing = informer(listing(cold, '--#', new Error('list failed')));
    expectObservable(cold<ObjectRef>('-a', refs).pipe(holdUntilSynced([failing]))).toBe('--#', undefined, new Error('list failed'));
  }));

/** Runs `refs$` through holdUntilSynced on a virtual clock until the output errors; the error and the clock then. */
async function failureOf(refs$: Observable<ObjectRef>, hold: ReturnType<typeof holdUntilSynced>, scheduler: VirtualTimeScheduler): Promise<{ error: unknown; at: number }> {
  const failed = new Promise<{ error: unknown; at: number }>((resolve) => refs$.pipe(hold).subscribe({ error: (error: unknown) => resolve({ error, at: scheduler.now() }) }));
  scheduler.flush();
  return failed;
}

test("not synced within timeoutMs: the informer's NotSyncedError (timeout) naming it and its last error, timed on its scheduler", async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const ok = new Subject<E>();
  const stuck = new Subject<E>();
  // Batches on the virtual clock too: a real asap batch would leak into the marble tests of this file.
  const one = informer(ok, { scheduler, buffer: { scheduler }, name: 'sets' });
  const two = informer(stuck, { scheduler, buffer: { scheduler }, name: 'configmaps' });
  const connections = [one.connect(), two.connect()];
  for (const event of listEvents([], '1')) ok.next(event);
  scheduler.flush();
  t.true(one.snapshot.synced);
  stuck.next({ type: 'STATUS', status: { type: 'ERROR', error: new Error('list failed: 403 forbidden'), permanent: false } });
  const { error, at } = await failureOf(new Subject<ObjectRef>(), holdUntilSynced([one, two], { timeoutMs: 5000 }), scheduler);
  t.true(error instanceof NotSyncedError);
  t.like(error, { reason: 'timeout', informer: 'configmaps', message: '[informer] configmaps: not synced after 5000 ms: list failed: 403 forbidden' });
  t.is(at, 5000);
  for (const connection of connections) connection.unsubscribe();
});

test('an informer that stops before it synced: NotSyncedError (disconnected), not an EmptyError', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const events = new Subject<E>();
  const stopping = informer(events, { scheduler, buffer: { scheduler }, name: 'sets' });
  const connection = stopping.connect();
  const refs$ = new Subject<ObjectRef>();
  const failed = new Promise<unknown>((resolve) => refs$.pipe(holdUntilSynced([stopping])).subscribe({ error: resolve }));
  events.complete();
  const error = await failed;
  t.like(error, { name: 'NotSyncedError', reason: 'disconnected' });
  connection.unsubscribe();
});

test('unsubscribing early lets go of the input and the informers, and aborts the waits', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const input = cold<ObjectRef>('-a-b', refs);
    const [start, done] = listEvents([], '1');
    const source = cold<E>('----(sd)', { s: start!, d: done! });
    expectObservable(input.pipe(holdUntilSynced([informer(source)])), '^--!').toBe('---');
    expectSubscriptions(input.subscriptions).toBe('^--!');
    expectSubscriptions(source.subscriptions).toBe('^--!');
  }));

test('bad arguments are TypeErrors', (t) => {
  t.throws(() => holdUntilSynced([{}] as never), { instanceOf: TypeError });
  t.throws(() => holdUntilSynced([{ synced$: NEVER }] as never), { instanceOf: TypeError, message: /array of informers/ });
  t.throws(() => holdUntilSynced([], { timeoutMs: -1 }), { instanceOf: TypeError, message: /timeoutMs/ });
  // The same rule as controller()'s syncTimeoutMs: a finite number >= 0, 0 waits for ever.
  t.throws(() => holdUntilSynced([], { timeoutMs: Infinity }), { instanceOf: TypeError, message: /timeoutMs must be a finite number >= 0/ });
});
