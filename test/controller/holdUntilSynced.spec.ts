import test from 'ava';
import { map, type Observable } from 'rxjs';
import { holdUntilSynced } from '../../src/controller/holdUntilSynced.js';
import type { ObjectRef } from '../../src/controller/objectRef.js';
import { runMarbles } from '../../src/testing/marbles.js';

const refs = { a: { namespace: 'n', name: 'a' }, b: { namespace: 'n', name: 'b' }, c: { namespace: 'n', name: 'c' } } as const;
const name = (ref: ObjectRef) => ref.name;
const informer = (synced$: Observable<boolean>) => ({ synced$ });

test('refs wait until every informer is synced, come out once each in first-seen order, then pass as they come', (t) =>
  runMarbles(t, ({ cold, hot, expectObservable, expectSubscriptions }) => {
    const input = hot<ObjectRef>('-a-b-a----c--|', refs);
    const one = cold('f-t', { f: false, t: true });
    const two = cold('f-----t', { f: false, t: true });
    expectObservable(input.pipe(holdUntilSynced([informer(one), informer(two)]), map(name))).toBe('------(ab)c--|', { a: 'a', b: 'b', c: 'c' });
    expectSubscriptions(input.subscriptions).toBe('^------------!');
  }));

test('already synced (replayed true): nothing is held; no informers: nothing to wait for', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold<ObjectRef>('-a-b|', refs).pipe(holdUntilSynced([informer(cold('t', { t: true }))]), map(name))).toBe('-a-b|', { a: 'a', b: 'b' });
    expectObservable(cold<ObjectRef>('-a|', refs).pipe(holdUntilSynced([]), map(name))).toBe('-a|', { a: 'a' });
  }));

test('empty and never; completing before the sync drops what was held; an input error passes', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const never = informer(cold('f', { f: false }));
    expectObservable(cold<ObjectRef>('|').pipe(holdUntilSynced([never], { timeoutMs: 0 }))).toBe('|');
    expectObservable(cold<ObjectRef>('-').pipe(holdUntilSynced([never], { timeoutMs: 0 }))).toBe('-');
    expectObservable(cold<ObjectRef>('-a|', refs).pipe(holdUntilSynced([never], { timeoutMs: 0 }))).toBe('--|');
    expectObservable(cold<ObjectRef>('-#').pipe(holdUntilSynced([never], { timeoutMs: 0 }))).toBe('-#');
  }));

test('not synced within timeoutMs: a syncTimeout error naming which; an informer that ends unsynced errors too; an informer error passes', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const synced = informer(cold('t', { t: true }));
    const stuck = informer(cold('f', { f: false }));
    expectObservable(cold<ObjectRef>('-a', refs).pipe(holdUntilSynced([synced, stuck], { timeoutMs: 5 }))).toBe('-----#', undefined, {
      name: 'ControllerError',
      message: '[informer] controller: informer(s) #2 of 2 not synced after 5 ms',
    });
    expectObservable(cold<ObjectRef>('-a', refs).pipe(holdUntilSynced([informer(cold('f-|', { f: false }))]))).toBe('--#', undefined, {
      name: 'ControllerError',
      message: '[informer] controller: informer #1 of 1 ended before it synced',
    });
    expectObservable(cold<ObjectRef>('-a', refs).pipe(holdUntilSynced([informer(cold('f-#', { f: false }, new Error('list failed')))]))).toBe('--#', undefined, new Error('list failed'));
  }));

test('unsubscribing early lets go of the input and the informers', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const input = cold<ObjectRef>('-a-b', refs);
    const synced = cold('f---t', { f: false, t: true });
    expectObservable(input.pipe(holdUntilSynced([informer(synced)])), '^--!').toBe('---');
    expectSubscriptions(input.subscriptions).toBe('^--!');
    expectSubscriptions(synced.subscriptions).toBe('^--!');
  }));

test('bad arguments are TypeErrors', (t) => {
  t.throws(() => holdUntilSynced([{}] as never), { instanceOf: TypeError });
  t.throws(() => holdUntilSynced([], { timeoutMs: -1 }), { instanceOf: TypeError, message: /timeoutMs/ });
});
