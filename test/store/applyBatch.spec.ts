import test from 'ava';
import { applyBatch } from '../../src/store/applyBatch.js';
import { tombstone, type Delta, type DeltaBatch } from '../../src/store/delta.js';
import { byLabel, byNamespace, type Indexers } from '../../src/store/indexFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { emptySnapshot, type Snapshot } from '../../src/store/snapshot.js';
import { configMap, pod, type PodObject } from '../../src/testing/objects.js';
import { changeView, snapshotView } from '../helpers/views.js';

type K = KubeObject;
const keyOf = (o: K) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
const d = (type: Delta<K>['type'], object: K): Delta<K> => ({ type, key: keyOf(object), object }) as Delta<K>;
const batch = (deltas: Delta<K>[], extra: Partial<DeltaBatch<K>> = {}): DeltaBatch<K> => {
  const m = new Map<string, Delta<K>[]>();
  for (const delta of deltas) m.set(delta.key, [...(m.get(delta.key) ?? []), delta]);
  return { deltas: m, ...extra };
};
const cm = (name: string, rv: string, labels?: Record<string, string>) => configMap(name, { resourceVersion: rv, namespace: 'ns', ...(labels ? { labels } : {}) });

function run(steps: DeltaBatch<K>[], indexers: Indexers<K> = {}, start: Snapshot<K> = emptySnapshot(Object.keys(indexers))) {
  let snapshot = start;
  const changes: string[][] = [];
  for (const step of steps) {
    const update = applyBatch(snapshot, step, indexers);
    snapshot = update.snapshot;
    changes.push(update.changes.map(changeView));
  }
  return { snapshot, changes };
}

test('R21: each delta type against a present and an absent key', (t) => {
  const cases: [string, Delta<K>[], string[]][] = [
    // Before the first list only the list's own objects (Replaced) are initial (R19).
    ['Added, absent', [d('Added', cm('x', '2'))], ['add ns/x@2']],
    ['Added, present (a late ADDED) is an update', [d('Added', cm('a', '2'))], ['update ns/a@1->2']],
    ['Updated, absent is an add', [d('Updated', cm('x', '2'))], ['add ns/x@2']],
    ['Updated, present', [d('Updated', cm('a', '2'))], ['update ns/a@1->2']],
    ['Replaced, present, same rv is a sync update', [d('Replaced', cm('a', '1'))], ['update ns/a@1->1 sync']],
    ['Replaced, absent', [d('Replaced', cm('x', '3'))], ['add ns/x@3 initial']],
    ['Sync, present', [d('Sync', cm('a', '1'))], ['update ns/a@1->1 sync']],
    ['Deleted, present', [d('Deleted', cm('a', '5'))], ['delete ns/a@5']],
    ['Deleted, absent still notifies', [d('Deleted', cm('x', '5'))], ['delete ns/x@5']],
    ['Deleted with a tombstone', [{ type: 'Deleted', key: 'ns/a', object: tombstone('ns/a', cm('a', '1')) }], ['delete ns/a@tombstone(1)']],
    ['a key with several deltas, oldest first', [d('Updated', cm('a', '2')), d('Deleted', cm('a', '3')), d('Added', cm('a', '4'))], ['update ns/a@1->2', 'delete ns/a@3', 'add ns/a@4']],
  ];
  for (const [name, deltas, expected] of cases) {
    const { changes } = run([batch([d('Added', cm('a', '1'))]), batch(deltas)]);
    t.deepEqual(changes[1], expected, name);
  }
});

test('R19/R21: isInInitialList is true until the first listed batch has been applied, then false', (t) => {
  const { changes, snapshot } = run([
    batch([d('Replaced', cm('a', '1'))], { listed: true, resourceVersion: '1' }),
    batch([d('Added', cm('b', '2'))], { resourceVersion: '2' }),
    batch([d('Replaced', cm('c', '3'))], { listed: true, resourceVersion: '3' }),
  ]);
  t.deepEqual(changes, [['add ns/a@1 initial'], ['add ns/b@2'], ['add ns/c@3']]);
  t.true(snapshot.synced);
});

test('synced flips exactly once, with the first listed batch', (t) => {
  let snapshot = emptySnapshot<K>();
  const flags: boolean[] = [];
  for (const step of [batch([d('Added', cm('a', '1'))]), batch([], { listed: true, resourceVersion: '1' }), batch([d('Deleted', cm('a', '2'))]), batch([])]) {
    snapshot = applyBatch(snapshot, step).snapshot;
    flags.push(snapshot.synced);
  }
  t.deepEqual(flags, [false, true, true, true]);
});

test('R28: the store resourceVersion follows the batch; batches without one keep it', (t) => {
  const rvs: string[] = [];
  let snapshot = emptySnapshot<K>();
  for (const step of [batch([d('Replaced', cm('a', '4'))], { listed: true, resourceVersion: '4' }), batch([], { resourceVersion: '9' }), batch([d('Sync', cm('a', '4'))]), batch([d('Deleted', cm('a', '11'))], { resourceVersion: '11' })]) {
    snapshot = applyBatch(snapshot, step).snapshot;
    rvs.push(snapshot.resourceVersion);
  }
  t.deepEqual(rvs, ['4', '9', '9', '11']);
});

test('identity: a no-op batch returns the same snapshot, index tries and all', (t) => {
  const indexers = { namespace: byNamespace as (o: K) => readonly string[] };
  const first = applyBatch(emptySnapshot<K>(['namespace']), batch([d('Replaced', cm('a', '1'))], { listed: true, resourceVersion: '1' }), indexers);
  const cached = first.snapshot.get('ns/a')!;
  for (const step of [batch([]), batch([{ type: 'Sync', key: 'ns/a', object: cached }]), batch([d('Deleted', cm('zz', '1'))]), batch([], { resourceVersion: '1' })]) {
    t.is(applyBatch(first.snapshot, step, indexers).snapshot, first.snapshot);
  }
});

test('R26: indexes follow adds, updates that move values, multi-valued functions and deletes; empty sets go away', (t) => {
  const indexers: Indexers<K> = {
    app: byLabel('app') as (o: K) => readonly string[],
    tags: (o) => (o.metadata?.labels?.tags ?? '').split('.').filter(Boolean),
  };
  let { snapshot } = run([batch([d('Added', cm('a', '1', { app: 'web', tags: 'x.y' })), d('Added', cm('b', '1', { app: 'web' })), d('Added', cm('c', '1', { app: 'db', tags: 'y' }))])], indexers);
  t.deepEqual(snapshot.indexKeys('app', 'web'), ['ns/a', 'ns/b']);
  t.deepEqual([...snapshot.indexValues('tags')].sort(), ['x', 'y']);
  t.deepEqual(snapshot.indexKeys('tags', 'y'), ['ns/a', 'ns/c']);

  ({ snapshot } = run([batch([d('Updated', cm('a', '2', { app: 'db', tags: 'z' })), d('Deleted', cm('b', '3'))])], indexers, snapshot));
  t.deepEqual(snapshot.indexKeys('app', 'web'), [], 'moved and deleted keys leave their values');
  t.deepEqual([...snapshot.indexValues('app')], ['db'], 'an emptied value is removed');
  t.deepEqual(snapshot.indexKeys('app', 'db'), ['ns/a', 'ns/c']);
  t.deepEqual([...snapshot.indexValues('tags')].sort(), ['y', 'z']);
  t.deepEqual(snapshot.byIndex('tags', 'z').map((o) => o.metadata?.resourceVersion), ['2']);
});

test('R26: a relist that drops keys rebuilds the indexes to exactly the listed objects', (t) => {
  const indexers = { namespace: byNamespace as (o: K) => readonly string[] };
  const a = configMap('a', { namespace: 'one', resourceVersion: '1' });
  const b = configMap('b', { namespace: 'two', resourceVersion: '1' });
  let { snapshot } = run([batch([d('Replaced', a), d('Replaced', b)], { listed: true, resourceVersion: '1' })], indexers);
  ({ snapshot } = run([batch([d('Replaced', a), { type: 'Deleted', key: keyOf(b), object: tombstone(keyOf(b), b) }], { listed: true, resourceVersion: '5' })], indexers, snapshot));
  t.deepEqual([...snapshot.indexValues('namespace')], ['one']);
  t.deepEqual(snapshotView(snapshot), { items: ['one/a@1'], rv: '5', synced: true });
});

test('R26: an index function that returns something other than strings is reported, the object left out', (t) => {
  const indexers: Indexers<K> = { bad: () => [42 as unknown as string] };
  const update = applyBatch(emptySnapshot<K>(['bad']), batch([d('Added', cm('a', '1'))]), indexers);
  t.is(update.snapshot.size, 1);
  t.deepEqual([...update.snapshot.indexValues('bad')], []);
  t.is(update.errors.length, 1);
  t.is(update.errors[0]!.reason, 'indexFunc');
  t.regex(update.errors[0]!.message, /index function "bad" failed for ns\/a: expected an array of strings, got \[42\]/);
});

test('R27: unknown index throws naming it; an unknown value gives []; indexKeys are sorted', (t) => {
  const indexers: Indexers<K> = { node: (o) => [(o as PodObject).spec?.nodeName ?? 'none'] };
  const pods = ['p3', 'p1', 'p2'].map((name, i) => pod(name, { nodeName: 'n1', resourceVersion: String(i + 1) }));
  const { snapshot } = run([batch(pods.map((p) => d('Added', p)))], indexers);
  t.deepEqual(snapshot.indexKeys('node', 'n1'), ['default/p1', 'default/p2', 'default/p3']);
  t.deepEqual(snapshot.byIndex('node', 'n9'), []);
  t.deepEqual(snapshot.indexKeys('node', 'n9'), []);
  const error = t.throws(() => snapshot.byIndex('zone', 'a'));
  t.is(error?.name, 'UnknownIndexError');
  t.is(error?.message, '[informer] index "zone" does not exist (known: node)');
  t.throws(() => snapshot.indexValues('zone'), { name: 'UnknownIndexError' });
  t.throws(() => snapshot.indexKeys('zone', 'x'), { name: 'UnknownIndexError' });
});

test('objects entering the store are deeply frozen; old snapshots keep their objects', (t) => {
  const a = cm('a', '1', { app: 'web' });
  const first = applyBatch(emptySnapshot<K>(), batch([d('Added', a)])).snapshot;
  const second = applyBatch(first, batch([d('Updated', cm('a', '2'))])).snapshot;
  t.true(Object.isFrozen(first.get('ns/a')));
  t.true(Object.isFrozen(first.get('ns/a')!.metadata!.labels));
  t.true(Object.isFrozen(first));
  t.throws(() => {
    (first.get('ns/a')!.metadata as { name: string }).name = 'hacked';
  }, { instanceOf: TypeError });
  t.is(first.get('ns/a')!.metadata?.resourceVersion, '1');
  t.is(second.get('ns/a')!.metadata?.resourceVersion, '2');
});

test('hostile strings are plain keys: __proto__, constructor and empty values cause no pollution', (t) => {
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  const objects = names.map((name) => configMap(name, { namespace: '__proto__', resourceVersion: '1', labels: { __proto__x: 'y', app: '__proto__' } }));
  const indexers: Indexers<K> = { app: byLabel('app') as (o: K) => readonly string[], empty: () => ['', 'constructor', '__proto__'] };
  const { snapshot } = run([batch(objects.map((o) => ({ type: 'Added', key: `__proto__/${o.metadata!.name}`, object: o }) as Delta<K>))], indexers);
  t.is(snapshot.size, 4);
  t.is(snapshot.get('__proto__', '__proto__')?.metadata?.name, '__proto__');
  t.deepEqual(snapshot.indexKeys('app', '__proto__'), names.map((n) => `__proto__/${n}`).sort());
  t.deepEqual(snapshot.indexKeys('empty', ''), names.map((n) => `__proto__/${n}`).sort());
  t.is(snapshot.get('constructor'), undefined);
  t.is(({} as Record<string, unknown>).app, undefined);
  t.is(Object.prototype.hasOwnProperty.call(Object.prototype, 'app'), false);
});

test('an update keeps the parts of the cached version it does not change: same objects, frozen, the new content', (t) => {
  const first = applyBatch(emptySnapshot<K>(), batch([d('Added', configMap('a', { namespace: 'ns', resourceVersion: '1', labels: { app: 'web' }, data: { x: '1', y: '2' } }))]));
  const old = first.snapshot.get('ns/a') as ReturnType<typeof configMap>;
  const update = applyBatch(first.snapshot, batch([d('Updated', configMap('a', { namespace: 'ns', resourceVersion: '2', labels: { app: 'web' }, data: { x: '1', y: '3' } }))]));
  const next = update.snapshot.get('ns/a') as ReturnType<typeof configMap>;
  t.is(next.metadata.labels, old.metadata.labels);
  t.not(next.data, old.data);
  t.deepEqual(next.data, { x: '1', y: '3' });
  t.is(next.metadata.resourceVersion, '2');
  t.true(Object.isFrozen(next) && Object.isFrozen(next.data));
  t.deepEqual(old.data, { x: '1', y: '2' }, 'the old version is as it was');
  const change = update.changes[0]!;
  t.true(change.type === 'update' && change.oldObject === old && change.object === next);
});
