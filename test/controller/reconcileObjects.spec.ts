import test from 'ava';
import { map, NEVER, timer } from 'rxjs';
import type { ObjectRef } from '../../src/store/objectRef.js';
import { reconcileObjects, type ControllerOutcome } from '../../src/controller/reconcileObjects.js';
import { applyBatch } from '../../src/store/applyBatch.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { emptySnapshot, type Snapshot } from '../../src/store/snapshot.js';
import { runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

const refs: Record<string, ObjectRef> = { a: { namespace: 'n', name: 'a' }, b: { namespace: 'n', name: 'b' }, z: { namespace: 'n', name: 'gone' } };
const view = (o: ControllerOutcome) => `${o.ref.name} ${o.result}`;

function cache(...names: string[]): { snapshot: Snapshot<KubeObject>; put(name: string, data: Record<string, string>): void } {
  let snapshot = emptySnapshot<KubeObject>();
  const put = (name: string, data: Record<string, string> = {}) => {
    snapshot = applyBatch(snapshot, { deltas: new Map([[`n/${name}`, [{ type: 'Added' as const, key: `n/${name}`, object: configMap(name, { namespace: 'n', data }) }]]]) }).snapshot;
  };
  names.forEach((n) => put(n));
  return {
    get snapshot() {
      return snapshot;
    },
    put,
  };
}

test('empty, never, an input error; a queued ref runs once; outcomes carry the ref with the kind', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const primary = cache('a', 'b');
    const work = reconcileObjects(primary, () => timer(2).pipe(map(() => undefined)), { kind: { apiVersion: 'v1', kind: 'ConfigMap' } });
    expectObservable(cold<ObjectRef>('|').pipe(work)).toBe('|');
    expectObservable(cold<ObjectRef>('-').pipe(work)).toBe('-');
    expectObservable(cold<ObjectRef>('-#').pipe(work)).toBe('-#');
    // b runs 1–3; a, queued twice meanwhile, runs once after it.
    expectObservable(cold<ObjectRef>('-b(aa)-----|', refs).pipe(work, map(view))).toBe('---b-a-----|', { a: 'a success', b: 'b success' });
    expectObservable(cold<ObjectRef>('-a|', refs).pipe(work, map((o) => o.ref))).toBe('---(a|)', { a: { namespace: 'n', name: 'a', kind: 'ConfigMap', apiVersion: 'v1' } });
  }));

test('the reconciler gets the object as cached when its run starts, or undefined; with the snapshot it read', (t) => {
  const seen: unknown[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const primary = cache('a');
    cold('--x').subscribe(() => primary.put('a', { v: '2' }));
    const work = reconcileObjects(primary, (object, { snapshot, ref }) => void seen.push([ref.name, (object as { data?: unknown } | undefined)?.data, snapshot.size]));
    expectObservable(cold<ObjectRef>('-a-a-z', refs).pipe(work, map(view))).toBe('-a-a-z', { a: 'a success', z: 'gone success' });
  });
  t.deepEqual(seen, [
    ['a', {}, 1],
    ['a', { v: '2' }, 1],
    ['gone', undefined, 1],
  ]);
});

test('a throwing reconciler is retried with backoff; the error policy sees the object and may set the delay; unsubscribing aborts', (t) => {
  const signals: AbortSignal[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const primary = cache('a', 'b');
    let runs = 0;
    const work = reconcileObjects(
      primary,
      (object, { signal }) => {
        if (object?.metadata?.name === 'b') return (signals.push(signal), NEVER);
        if (runs++ === 0) throw new Error('first run fails');
        return undefined;
      },
      { concurrency: 2, errorPolicy: (_e, object) => (object?.metadata?.name === 'a' ? { requeueAfterMs: 3 } : undefined) },
    );
    expectObservable(cold<ObjectRef>('-ab', refs).pipe(work, map(view)), '^------!').toBe('-e--s', { e: 'a error', s: 'a success' });
  });
  t.true(signals[0]!.aborted);
});

test('bad arguments are TypeErrors', (t) => {
  t.throws(() => reconcileObjects({} as never, () => undefined), { instanceOf: TypeError, message: /primary/ });
  t.throws(() => reconcileObjects(cache(), 'no' as never), { instanceOf: TypeError, message: /reconciler/ });
  t.throws(() => reconcileObjects(cache(), () => undefined, { errorPolicy: 1 as never }), { instanceOf: TypeError, message: /errorPolicy/ });
  t.throws(() => reconcileObjects(cache(), () => undefined, { concurrency: -1 }), { instanceOf: TypeError, message: /concurrency/ });
});
