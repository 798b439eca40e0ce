import test from 'ava';
import { map } from 'rxjs';
import { indexReducer } from '../../src/operators/indexReducer.js';
import type { StoreUpdate } from '../../src/store/applyBatch.js';
import type { Delta, DeltaBatch } from '../../src/store/delta.js';
import { byNamespace } from '../../src/store/indexFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { emptySnapshot } from '../../src/store/snapshot.js';
import { runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';
import { updateView } from '../helpers/views.js';

const a1 = configMap('a', { resourceVersion: '1' });
const a2 = configMap('a', { resourceVersion: '3' });
const b1 = configMap('b', { resourceVersion: '2' });
const d = (type: Delta<KubeObject>['type'], object: KubeObject): Delta<KubeObject> => ({ type, key: `default/${object.metadata!.name}`, object }) as Delta<KubeObject>;
const batch = (deltas: Delta<KubeObject>[], extra: Partial<DeltaBatch<KubeObject>> = {}): DeltaBatch<KubeObject> => {
  const map = new Map<string, Delta<KubeObject>[]>();
  for (const delta of deltas) map.set(delta.key, [...(map.get(delta.key) ?? []), delta]);
  return { deltas: map, ...extra };
};

test('empty, never, source error, early unsubscribe', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    expectObservable(cold<DeltaBatch<KubeObject>>('|').pipe(indexReducer())).toBe('|');
    expectObservable(cold<DeltaBatch<KubeObject>>('-').pipe(indexReducer())).toBe('-');
    expectObservable(cold<DeltaBatch<KubeObject>>('-#', undefined, new Error('e')).pipe(indexReducer())).toBe('-#', undefined, new Error('e'));
    const long = cold('-x-x-x', { x: batch([]) });
    expectObservable(long.pipe(indexReducer(), map(updateView)), '^--!').toBe('-u--', { u: { snapshot: { items: [], rv: '', synced: false }, changes: [], errors: [] } });
    expectSubscriptions(long.subscriptions).toBe('^--!');
  }));

test('a list, an update and a delete: snapshots and notifications in order', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const source = cold('-x-y-z|', {
      x: batch([d('Replaced', a1), d('Replaced', b1)], { listed: true, resourceVersion: '2' }),
      y: batch([d('Updated', a2)], { resourceVersion: '3' }),
      z: batch([d('Deleted', b1)], { resourceVersion: '4' }),
    });
    expectObservable(source.pipe(indexReducer(), map(updateView))).toBe('-X-Y-Z|', {
      X: { snapshot: { items: ['default/a@1', 'default/b@2'], rv: '2', synced: true }, changes: ['add default/a@1 initial', 'add default/b@2 initial'], errors: [] },
      Y: { snapshot: { items: ['default/a@3', 'default/b@2'], rv: '3', synced: true }, changes: ['update default/a@1->3'], errors: [] },
      Z: { snapshot: { items: ['default/a@3'], rv: '4', synced: true }, changes: ['delete default/b@2'], errors: [] },
    });
  }));

test('a batch that changes nothing emits the same snapshot reference', (t) => {
  const seen: StoreUpdate<KubeObject>[] = [];
  runMarbles(t, ({ cold }) => {
    cold('-x-y-z|', { x: batch([d('Replaced', a1)], { listed: true, resourceVersion: '1' }), y: batch([]), z: batch([d('Sync', a1)]) })
      .pipe(indexReducer())
      .subscribe((u) => seen.push(u));
  });
  t.is(seen.length, 3);
  t.is(seen[1]!.snapshot, seen[0]!.snapshot);
  t.is(seen[2]!.snapshot, seen[0]!.snapshot, 'a Sync of the cached object changes nothing');
  t.deepEqual(seen[2]!.changes.map((c) => c.type === 'update' && c.sync), [true]);
});

test('a throwing index function is reported in errors and never thrown into the source', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const source = cold('-x-y|', { x: batch([d('Added', a1)]), y: batch([d('Added', b1)]) });
    const indexers = {
      picky: (o: KubeObject) => {
        if (o.metadata?.name === 'a') throw new Error('no a');
        return ['ok'];
      },
    };
    expectObservable(source.pipe(indexReducer({ indexers }), map((u) => ({ ...updateView(u), picky: u.snapshot.indexKeys('picky', 'ok') })))).toBe('-X-Y|', {
      X: { snapshot: { items: ['default/a@1'], rv: '', synced: false }, changes: ['add default/a@1'], errors: ['[informer] index function "picky" failed for default/a: no a; the object is left out of that index'], picky: [] },
      Y: { snapshot: { items: ['default/a@1', 'default/b@2'], rv: '', synced: false }, changes: ['add default/b@2'], errors: [], picky: ['default/b'] },
    });
    expectSubscriptions(source.subscriptions).toBe('^---!');
  }));

test('each subscription starts from the initial snapshot (referentially transparent)', (t) => {
  const op = indexReducer<KubeObject>({ indexers: { namespace: byNamespace } });
  const sizes: number[] = [];
  runMarbles(t, ({ cold }) => {
    const source = cold('-x|', { x: batch([d('Added', a1)]) });
    source.pipe(op).subscribe((u) => sizes.push(u.snapshot.size));
    source.pipe(op).subscribe((u) => sizes.push(u.snapshot.size));
  });
  t.deepEqual(sizes, [1, 1]);
});

test('bad configuration is rejected at call time', (t) => {
  t.throws(() => indexReducer({ indexers: { x: 'nope' as never } }), { instanceOf: TypeError, message: /indexer "x" is not a function/ });
  t.throws(() => indexReducer({ indexers: { namespace: byNamespace }, initial: emptySnapshot(['other']) }), { instanceOf: TypeError, message: /initial snapshot has indexes \[other\]/ });
});
