/** Scoped listers (a snapshot bound to a namespace) with the default key and with custom keys. */
import test from 'ava';
import { applyBatch } from '../../src/store/applyBatch.js';
import type { Delta, DeltaBatch } from '../../src/store/delta.js';
import { byNamespace, type Indexers } from '../../src/store/indexFunc.js';
import { metaNamespaceKey, type KeyFunc } from '../../src/store/keyFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { stateOf, emptySnapshot, type Snapshot } from '../../src/store/snapshot.js';
import { configMap } from '../../src/testing/objects.js';
import { informer } from '../../src/informer/informer.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import { added, listEvents } from '../../src/testing/events.js';
import { marbleSource, runMarbles } from '../../src/testing/marbles.js';

const objects = [
  configMap('a', { namespace: 'web', resourceVersion: '1', labels: { app: 'web', tier: 'front' } }),
  configMap('b', { namespace: 'web', resourceVersion: '2', labels: { app: 'web', tier: 'back' } }),
  configMap('a', { namespace: 'db', resourceVersion: '3', labels: { app: 'db' } }),
  configMap('node-config', { namespace: '', resourceVersion: '4' }),
];

function batchOf(deltas: readonly Delta<KubeObject>[], listed = false): DeltaBatch<KubeObject> {
  const map = new Map<string, Delta<KubeObject>[]>();
  for (const delta of deltas) map.set(delta.key, [...(map.get(delta.key) ?? []), delta]);
  return { deltas: map, resourceVersion: '9', ...(listed ? { listed: true } : {}) };
}

function build(keyFunc: KeyFunc<KubeObject>, indexers: Indexers<KubeObject> = {}): Snapshot<KubeObject> {
  const deltas = objects.map((object): Delta<KubeObject> => ({ type: 'Replaced', key: keyFunc(object), object }));
  return applyBatch(emptySnapshot(Object.keys(indexers)), batchOf(deltas, true), indexers).snapshot;
}

const keyFuncs: Record<string, KeyFunc<KubeObject>> = {
  default: metaNamespaceKey,
  'custom (kind:namespace:name)': (o) => `cm:${o.metadata?.namespace ?? ''}:${o.metadata?.name}`,
  // a key that is some other object's default key: the lookup must not return the wrong object
  'custom (swapped)': (o) => (o.metadata?.namespace === 'web' ? `db/${o.metadata.name}` : o.metadata?.namespace === 'db' ? `web/${o.metadata.name}` : `x-${o.metadata?.name}`),
};

for (const [label, keyFunc] of Object.entries(keyFuncs)) {
  for (const indexers of [{}, { namespace: byNamespace }] as Indexers<KubeObject>[]) {
    test(`inNamespace: get, has and list with the ${label} key, ${Object.keys(indexers).length ? 'with' : 'without'} a namespace index`, (t) => {
      const s = build(keyFunc, indexers);
      const web = s.inNamespace('web');
      t.is(web.namespace, 'web');
      t.is(web.get('a')?.metadata?.resourceVersion, '1');
      t.is(s.inNamespace('db').get('a')?.metadata?.resourceVersion, '3');
      t.is(s.inNamespace('').get('node-config')?.metadata?.resourceVersion, '4');
      t.is(s.get('db', 'a')?.metadata?.resourceVersion, '3', 'get(namespace, name) too');
      t.true(web.has('b'));
      t.false(web.has('zz'));
      t.is(web.get('zz'), undefined);
      t.is(s.inNamespace('nowhere').get('a'), undefined);
      t.deepEqual(web.list().map((o) => o.metadata?.name).sort(), ['a', 'b']);
      t.deepEqual(web.list('tier=back').map((o) => o.metadata?.name), ['b']);
      t.deepEqual(s.inNamespace('db').list('app=web'), []);
      t.true(Object.isFrozen(web) && Object.isFrozen(web.list('tier=front')));
    });
  }
}

test('with custom keys the name lookup follows updates, renames under one key, and deletes', (t) => {
  const byUid: KeyFunc<KubeObject> = (o) => `uid-${o.metadata?.uid}`;
  const a1 = configMap('a', { namespace: 'web', resourceVersion: '1', uid: 'u1' });
  const renamed = configMap('a2', { namespace: 'web', resourceVersion: '2', uid: 'u1' });
  let s = applyBatch(emptySnapshot(), batchOf([{ type: 'Replaced', key: byUid(a1), object: a1 }], true)).snapshot;
  t.is(s.inNamespace('web').get('a'), a1);
  s = applyBatch(s, batchOf([{ type: 'Updated', key: 'uid-u1', object: renamed }])).snapshot;
  t.is(s.inNamespace('web').get('a'), undefined, 'the old name no longer finds it');
  t.is(s.inNamespace('web').get('a2'), renamed);
  const before = s;
  s = applyBatch(s, batchOf([{ type: 'Deleted', key: 'uid-u1', object: renamed }])).snapshot;
  t.is(s.inNamespace('web').get('a2'), undefined);
  t.is(before.inNamespace('web').get('a2'), renamed, 'an older snapshot still answers as it was');
});

test('with the default key the store keeps no name lookup at all: a miss costs one map lookup, never a scan', (t) => {
  const s = build(metaNamespaceKey);
  t.is(stateOf(s).names.size, 0);
  const custom = build(keyFuncs['custom (kind:namespace:name)']!);
  t.is(stateOf(custom).names.size, objects.length, 'one entry per object whose key is not its default key');
});

test('an empty snapshot answers a scoped lister', (t) => {
  const view = emptySnapshot().inNamespace('web');
  t.is(view.get('a'), undefined);
  t.false(view.has('a'));
  t.deepEqual(view.list(), []);
});

test('an informer with a custom key function: the scoped lister finds objects from the initial list (fast path) and from the watch', (t) =>
  runMarbles(t, ({ cold }) => {
    const byUid: KeyFunc<KubeObject> = (o) => `uid:${o.metadata?.uid}`;
    const raw = marbleSource<RawEvent<KubeObject>>(cold, '-L-a', {
      L: listEvents([configMap('x', { namespace: 'web', uid: '1' }), configMap('y', { namespace: 'db', uid: '2' })], '1'),
      a: added(configMap('z', { namespace: 'web', uid: '3' })),
    });
    const inf = informer(raw, { keyFunc: byUid });
    const seen: string[] = [];
    inf.snapshots$.subscribe((s) => seen.push([s.inNamespace('web').get('x')?.metadata?.uid, s.inNamespace('db').get('y')?.metadata?.uid, s.inNamespace('web').get('z')?.metadata?.uid, s.get('web', 'x')?.metadata?.uid].join(',')));
    return () => t.deepEqual(seen, ['1,2,,1', '1,2,3,1']);
  })());
