import test from 'ava';
import { bufferByKey } from '../../src/operators/bufferByKey.js';
import type { Delta, DeltaBatch, DeltaEvent } from '../../src/store/delta.js';
import { tombstone } from '../../src/store/delta.js';
import { configMap } from '../../src/testing/objects.js';
import { runMarbles } from '../../src/testing/marbles.js';

const a1: Delta<object> = { type: 'Added', key: 'a', object: configMap('a', { resourceVersion: '1' }) };
const a2: Delta<object> = { type: 'Updated', key: 'a', object: configMap('a', { resourceVersion: '3' }) };
const b1: Delta<object> = { type: 'Added', key: 'b', object: configMap('b', { resourceVersion: '2' }) };
const c1: Delta<object> = { type: 'Replaced', key: 'c', object: configMap('c', { resourceVersion: '4' }) };
const cGone: Delta<object> = { type: 'Deleted', key: 'c', object: tombstone('c', undefined) };
const L: DeltaEvent<object> = { type: 'Listed', resourceVersion: '5' };
const K: DeltaEvent<object> = { type: 'Bookmark', resourceVersion: '9' };

const batch = (entries: [string, Delta<object>[]][], extra: { resourceVersion?: string; listed?: true } = {}): DeltaBatch<object> => ({
  deltas: new Map(entries),
  resourceVersion: extra.resourceVersion,
  ...(extra.listed ? { listed: true } : {}),
});

test('empty source completes with no batch', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const source = cold<DeltaEvent<object>>('|');
    expectObservable(source.pipe(bufferByKey())).toBe('|');
    expectSubscriptions(source.subscriptions).toBe('(^!)');
  }));

test('never emits nothing and stays subscribed', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const source = cold<DeltaEvent<object>>('-');
    expectObservable(source.pipe(bufferByKey())).toBe('-');
    expectSubscriptions(source.subscriptions).toBe('^');
  }));

test('a single delta becomes a batch at the end of its synchronous burst (same frame)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<DeltaEvent<object>>('--a--', { a: a1 });
    expectObservable(source.pipe(bufferByKey())).toBe('--x--', { x: batch([['a', [a1]]], { resourceVersion: '1' }) });
  }));

test('a key keeps its first-arrival position and accumulates (R13)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<DeltaEvent<object>>('-(abA)-|', { a: a1, b: b1, A: a2 });
    const expected = batch([['a', [a1, a2]], ['b', [b1]]], { resourceVersion: '3' });
    expectObservable(source.pipe(bufferByKey())).toBe('-x-----|', { x: expected });
  }));

test('bursts in different frames are different batches; a popped key goes to the back', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<DeltaEvent<object>>('-a-(bA)|', { a: a1, b: b1, A: a2 });
    expectObservable(source.pipe(bufferByKey())).toBe('-x-y---|', {
      x: batch([['a', [a1]]], { resourceVersion: '1' }),
      y: batch([['b', [b1]], ['a', [a2]]], { resourceVersion: '3' }),
    });
  }));

test('a time window gathers deltas from several frames', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<DeltaEvent<object>>('-a-b-A------b|', { a: a1, b: b1, A: a2 });
    expectObservable(source.pipe(bufferByKey({ windowMs: 5 }))).toBe('------x------(y|)', {
      x: batch([['a', [a1, a2]], ['b', [b1]]], { resourceVersion: '3' }),
      y: batch([['b', [b1]]], { resourceVersion: '2' }),
    });
  }));

test('markers fold into the batch: Listed sets listed, the last event sets the resourceVersion (R28)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<DeltaEvent<object>>('-(cdL)-K-(Ka)|', { c: c1, d: cGone, L, K, a: a1 });
    expectObservable(source.pipe(bufferByKey())).toBe('-x-----k-y---|', {
      x: batch([['c', [c1, cGone]]], { resourceVersion: '5', listed: true }),
      k: batch([], { resourceVersion: '9' }),
      y: batch([['a', [a1]]], { resourceVersion: '1' }),
    });
  }));

test('a tombstone does not change the batch resourceVersion', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<DeltaEvent<object>>('-(bd)-|', { b: b1, d: cGone });
    expectObservable(source.pipe(bufferByKey())).toBe('-x----|', { x: batch([['b', [b1]], ['c', [cGone]]], { resourceVersion: '2' }) });
  }));

test('completion flushes the pending batch first', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<DeltaEvent<object>>('-a-b|', { a: a1, b: b1 });
    expectObservable(source.pipe(bufferByKey({ windowMs: 10 }))).toBe('----(x|)', { x: batch([['a', [a1]], ['b', [b1]]], { resourceVersion: '2' }) });
  }));

test('an error drops the pending batch and passes the error on', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const source = cold<DeltaEvent<object>>('-a-#', { a: a1 }, new Error('boom'));
    expectObservable(source.pipe(bufferByKey({ windowMs: 10 }))).toBe('---#', undefined, new Error('boom'));
    expectSubscriptions(source.subscriptions).toBe('^--!');
  }));

test('early unsubscribe cancels the pending flush and the source', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const source = cold<DeltaEvent<object>>('-a-b---', { a: a1, b: b1 });
    expectObservable(source.pipe(bufferByKey({ windowMs: 10 })), '^--!').toBe('----');
    expectSubscriptions(source.subscriptions).toBe('^--!');
  }));

test('an invalid window is rejected at call time', (t) => {
  t.throws(() => bufferByKey({ windowMs: -1 }), { instanceOf: TypeError, message: /windowMs/ });
  t.throws(() => bufferByKey({ windowMs: Number.NaN }), { instanceOf: TypeError });
});


test('R17: a Sync for a key with deltas in the open batch is dropped; a Resync marker marks the batch resync, alone or not', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const R: DeltaEvent<object> = { type: 'Resync' };
    const aSync: Delta<object> = { type: 'Sync', key: 'a', object: configMap('a', { resourceVersion: '1' }) };
    const bSync: Delta<object> = { type: 'Sync', key: 'b', object: configMap('b', { resourceVersion: '2' }) };
    // a2 opens a 5-frame window; the tick at 2 finds a queued: only b is synced, in that batch.
    const source = cold<DeltaEvent<object>>('a-(Rst)--- 3ms R', { a: a2, R, s: aSync, t: bSync });
    const resynced = (entries: [string, Delta<object>[]][], resourceVersion?: string): DeltaBatch<object> => ({ ...batch(entries, resourceVersion ? { resourceVersion } : {}), resync: true });
    expectObservable(source.pipe(bufferByKey({ windowMs: 5 }))).toBe('-----x 12ms y', {
      x: resynced([['a', [a2]], ['b', [bSync]]], '3'), // a Sync does not move the resourceVersion (R28)
      y: resynced([]),
    });
  }));
