import test from 'ava';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import { toDeltas } from '../../src/operators/toDeltas.js';
import { invalidObjectError, type InformerError } from '../../src/errors.js';
import { tombstone, type DeltaEvent } from '../../src/store/delta.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { added, bookmark, deleted, listDone, listPage, listStart, modified } from '../../src/testing/events.js';
import { marbleSource, runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

const a = configMap('a', { resourceVersion: '1' });
const a2 = configMap('a', { resourceVersion: '4' });
const b = configMap('b', { resourceVersion: '2' });
const c = configMap('c', { resourceVersion: '3' });
const nameless = { metadata: { namespace: 'x' } } as KubeObject;

type E = RawEvent<KubeObject>;
type D = DeltaEvent<KubeObject>;

test('empty and never', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const empty = cold<E>('|');
    const never = cold<E>('-');
    expectObservable(empty.pipe(toDeltas())).toBe('|');
    expectObservable(never.pipe(toDeltas())).toBe('-');
    expectSubscriptions(never.subscriptions).toBe('^');
  }));

test('watch events map to deltas with default keys (namespace/name)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<E>('-a-m-|', { a: added(a), m: modified(a2) });
    expectObservable(source.pipe(toDeltas())).toBe('-x-y-|', {
      x: { type: 'Added', key: 'default/a', object: a },
      y: { type: 'Updated', key: 'default/a', object: a2 },
    });
  }));

test('a list is held until LIST_DONE, then Replaced in list order and a Listed marker (R16.1)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<E>('-s-p-q-d------|', { s: listStart(), p: listPage([b, a]), q: listPage([c], { page: 2, itemsSoFar: 3 }), d: listDone('7') });
    expectObservable(source.pipe(toDeltas())).toBe('-------(xyzL)-|', {
      x: { type: 'Replaced', key: 'default/b', object: b },
      y: { type: 'Replaced', key: 'default/a', object: a },
      z: { type: 'Replaced', key: 'default/c', object: c },
      L: { type: 'Listed', resourceVersion: '7' },
    });
  }));

test('a relist emits tombstones, with the last known object, for known keys it lacks (R16.2-3)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = marbleSource<E>(cold, '-L----a-m-R-------|', {
      L: [listStart(), listPage([a, b]), listDone('2')],
      a: added(c),
      m: modified(a2),
      R: [listStart(), listPage([b]), listDone('9')],
    });
    const out: Record<string, D> = {
      1: { type: 'Replaced', key: 'default/a', object: a },
      2: { type: 'Replaced', key: 'default/b', object: b },
      L: { type: 'Listed', resourceVersion: '2' },
      c: { type: 'Added', key: 'default/c', object: c },
      m: { type: 'Updated', key: 'default/a', object: a2 },
      r: { type: 'Replaced', key: 'default/b', object: b },
      x: { type: 'Deleted', key: 'default/a', object: tombstone('default/a', a2) },
      y: { type: 'Deleted', key: 'default/c', object: tombstone('default/c', c) },
      R: { type: 'Listed', resourceVersion: '9' },
    };
    expectObservable(source.pipe(toDeltas())).toBe('-(12L)c-m-(rxyR)--|', out);
  }));

test('LIST_START drops a half-received list', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<E>('-s-p-s-q-d----|', { s: listStart(), p: listPage([a, b]), q: listPage([c]), d: listDone('5') });
    expectObservable(source.pipe(toDeltas())).toBe('---------(xL)-|', {
      x: { type: 'Replaced', key: 'default/c', object: c },
      L: { type: 'Listed', resourceVersion: '5' },
    });
  }));

test('a DELETED for a key that is not known is dropped (R15); a known one carries the final object', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<E>('-d-a-D-D|', { d: deleted(b), a: added(a), D: deleted(a2) });
    expectObservable(source.pipe(toDeltas())).toBe('---x-y--|', {
      x: { type: 'Added', key: 'default/a', object: a },
      y: { type: 'Deleted', key: 'default/a', object: a2 },
    });
  }));

test('a bookmark becomes a Bookmark marker', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold<E>('-k|', { k: bookmark('42') }).pipe(toDeltas())).toBe('-m|', { m: { type: 'Bookmark', resourceVersion: '42' } });
  }));

test('an injected key function is used for every event', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<E>('-a|', { a: added(a) });
    const byUid = toDeltas<KubeObject>({ keyFunc: (o) => `uid:${o.metadata?.name}` });
    expectObservable(source.pipe(byUid)).toBe('-x|', { x: { type: 'Added', key: 'uid:a', object: a } });
  }));

test('a source error passes through; early unsubscribe unsubscribes the source', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const failing = cold<E>('-a-#', { a: added(a) }, new Error('gone'));
    expectObservable(failing.pipe(toDeltas())).toBe('-x-#', { x: { type: 'Added', key: 'default/a', object: a } }, new Error('gone'));
    const long = cold<E>('-a-a-a-a', { a: added(a) });
    expectObservable(long.pipe(toDeltas()), '^---!').toBe('-x-x', { x: { type: 'Added', key: 'default/a', object: a } });
    expectSubscriptions(long.subscriptions).toBe('^---!');
  }));

test('an object the key function rejects errors the stream when nobody handles it', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const source = cold<E>('-a-n-a', { a: added(a), n: added(nameless) });
    expectObservable(source.pipe(toDeltas())).toBe('-x-#', { x: { type: 'Added', key: 'default/a', object: a } }, invalidObjectError('ADDED', new TypeError('[keyFunc] object has no metadata.name: {"metadata":{"namespace":"x"}}')));
    expectSubscriptions(source.subscriptions).toBe('^--!');
  }));

test('with onInvalidObject, a rejected object is reported and skipped, and the stream goes on', (t) => {
  const reported: InformerError[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = marbleSource<E>(cold, '-n-L-----a|', { n: added(nameless), L: [listStart(), listPage([nameless, b]), listDone('3')], a: added(a) });
    expectObservable(source.pipe(toDeltas({ onInvalidObject: (e) => reported.push(e) }))).toBe('---(bL)--x|', {
      b: { type: 'Replaced', key: 'default/b', object: b },
      L: { type: 'Listed', resourceVersion: '3' },
      x: { type: 'Added', key: 'default/a', object: a },
    });
  });
  t.deepEqual(reported.map((e) => [e.name, e.reason, e.eventType]), [['InformerError', 'invalidObject', 'ADDED'], ['InformerError', 'invalidObject', 'LIST_DONE']]);
  t.regex(reported[0]!.message, /^\[informer\] skipped the object of a ADDED event: \[keyFunc\] object has no metadata\.name/);
});

test('a throwing custom key function is wrapped, never thrown from next()', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<E>('-a', { a: added(a) });
    const boom = toDeltas<KubeObject>({ keyFunc: () => { throw new Error('nope'); } });
    expectObservable(source.pipe(boom)).toBe('-#', undefined, invalidObjectError('ADDED', new Error('nope')));
  }));

test('an unknown raw event type is a clear error', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold<E>('-z', { z: { type: 'ERROR' } as unknown as E });
    expectObservable(source.pipe(toDeltas())).toBe('-#', undefined, new TypeError('[toDeltas] unknown raw event type "ERROR"'));
  }));

test('a key function that is not a function is rejected at call time', (t) => {
  t.throws(() => toDeltas({ keyFunc: 42 as never }), { instanceOf: TypeError, message: /keyFunc/ });
});
