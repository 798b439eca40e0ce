import test from 'ava';
import { applyBatch } from '../../src/store/applyBatch.js';
import type { Delta } from '../../src/store/delta.js';
import { byNamespace, type Indexers } from '../../src/store/indexFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { parseLabelSelector } from '../../src/store/labelSelector.js';
import { emptySnapshot, type Snapshot } from '../../src/store/snapshot.js';
import { configMap } from '../../src/testing/objects.js';

const objects = [
  configMap('a', { namespace: 'web', resourceVersion: '1', labels: { app: 'web', tier: 'front' } }),
  configMap('b', { namespace: 'web', resourceVersion: '2', labels: { app: 'web', tier: 'back' } }),
  configMap('c', { namespace: 'db', resourceVersion: '3', labels: { app: 'db' } }),
  configMap('node-config', { namespace: '', resourceVersion: '4' }),
];
const keyOf = (o: KubeObject) => (o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata!.name!);

function build(indexers: Indexers<KubeObject> = {}): Snapshot<KubeObject> {
  const deltas = new Map<string, Delta<KubeObject>[]>(objects.map((o) => [keyOf(o), [{ type: 'Replaced', key: keyOf(o), object: o }]]));
  return applyBatch(emptySnapshot(Object.keys(indexers)), { deltas, resourceVersion: '4', listed: true }, indexers).snapshot;
}

test('get and has by key and by namespace + name; cluster-scoped by name', (t) => {
  const s = build();
  t.is(s.get('web/a')?.metadata?.resourceVersion, '1');
  t.is(s.get('web', 'b')?.metadata?.resourceVersion, '2');
  t.is(s.get('node-config')?.metadata?.resourceVersion, '4');
  t.is(s.get('', 'node-config')?.metadata?.resourceVersion, '4');
  t.true(s.has('db', 'c'));
  t.false(s.has('db/zz'));
  t.is(s.get('web', 'zz'), undefined);
  t.is(s.size, 4);
  t.is(s.resourceVersion, '4');
  t.true(s.synced);
});

test('iteration without copying: keys, values, entries, forEach and for..of agree', (t) => {
  const s = build();
  const keys = [...s.keys()].sort();
  t.deepEqual(keys, ['db/c', 'node-config', 'web/a', 'web/b']);
  t.deepEqual([...s.entries()].map(([k]) => k).sort(), keys);
  t.deepEqual([...s].map(keyOf).sort(), keys);
  t.deepEqual([...s.values()].map(keyOf).sort(), keys);
  const visited: string[] = [];
  s.forEach((_, key) => void visited.push(key));
  t.deepEqual(visited.sort(), keys);
});

test('list: all (cached per snapshot), by namespace, by label selector text or parsed, both', (t) => {
  for (const s of [build(), build({ namespace: byNamespace as (o: KubeObject) => readonly string[] })]) {
    t.is(s.list(), s.list(), 'the unfiltered list is computed once per snapshot');
    t.is(s.list().length, 4);
    t.deepEqual(s.list({ namespace: 'web' }).map(keyOf).sort(), ['web/a', 'web/b']);
    t.deepEqual(s.list({ labelSelector: 'app=web,tier!=back' }).map(keyOf), ['web/a']);
    t.deepEqual(s.list({ labelSelector: parseLabelSelector('app in (db)') }).map(keyOf), ['db/c']);
    t.deepEqual(s.list({ namespace: 'db', labelSelector: 'app=web' }), []);
    t.deepEqual(s.list({ namespace: 'web', labelSelector: '!tier' }), []);
    t.true(Object.isFrozen(s.list({ namespace: 'web' })));
  }
});

test('a bad selector in list() throws a clear error and changes nothing', (t) => {
  const s = build();
  t.throws(() => s.list({ labelSelector: 'app in (web' }), { name: 'LabelSelectorError', message: /unbalanced/ });
  t.is(s.size, 4);
});

test('an empty snapshot answers every query', (t) => {
  const s = emptySnapshot(['namespace']);
  t.is(s.size, 0);
  t.false(s.synced);
  t.is(s.resourceVersion, '');
  t.deepEqual(s.list(), []);
  t.deepEqual([...s.keys()], []);
  t.deepEqual(s.byIndex('namespace', 'x'), []);
  t.deepEqual(s.indexNames, ['namespace']);
});

test('a snapshot cannot be mutated', (t) => {
  const s = build();
  t.throws(() => {
    (s as unknown as { resourceVersion: string }).resourceVersion = 'x';
  }, { instanceOf: TypeError });
  t.throws(() => {
    (s.list() as KubeObject[]).push(configMap('x'));
  }, { instanceOf: TypeError });
});
