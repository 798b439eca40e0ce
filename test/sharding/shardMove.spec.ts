/** The sharder's decision per object, one row per case (style point 36). */
import test from 'ava';
import { ownerLabelSelector, shardLabels } from '../../src/sharding/label/shardLabels.js';
import { releasePatch, shardMove } from '../../src/sharding/label/shardMove.js';

const labels = shardLabels('ring');
const S = 'shard.sharding.rx-informer.dev/ring';
const D = 'drain.sharding.rx-informer.dev/ring';
const object = (l: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'ns', resourceVersion: '42', labels: { app: 'a', ...l } } });
const live = new Set(['a', 'b']);

test('label keys follow the ring name; a bad ring name is a TypeError', (t) => {
  t.deepEqual(labels, { shard: S, drain: D });
  t.is(ownerLabelSelector(labels, 'a'), `${S}=a`);
  for (const bad of ['', '-x', 'x'.repeat(51), 'a/b', 'Ring', 'a_b']) t.throws(() => shardLabels(bad), { instanceOf: TypeError, message: /ring name must be a DNS label/ });
});

test('the cases, each with its patch', (t) => {
  const rows: Array<[string, ReturnType<typeof object>, string | undefined, unknown]> = [
    ['no live member', object(), undefined, { type: 'none' }],
    ['unassigned', object(), 'a', { type: 'assign', to: 'a', patch: { metadata: { resourceVersion: '42', labels: { [S]: 'a' } } } }],
    ['unassigned, a stray drain label', object({ [D]: 'true' }), 'a', { type: 'assign', to: 'a', patch: { metadata: { resourceVersion: '42', labels: { [S]: 'a', [D]: null } } } }],
    ['where it belongs', object({ [S]: 'a' }), 'a', { type: 'none' }],
    ['owner live, ring moved it', object({ [S]: 'a' }), 'b', { type: 'drain', from: 'a', to: 'b', patch: { metadata: { resourceVersion: '42', labels: { [D]: 'true' } } } }],
    ['owner live, drain requested', object({ [S]: 'a', [D]: 'true' }), 'b', { type: 'wait', from: 'a' }],
    ['owner not live: straight to the new owner', object({ [S]: 'gone' }), 'b', { type: 'move', from: 'gone', to: 'b', patch: { metadata: { resourceVersion: '42', labels: { [S]: 'b' } } } }],
    ['owner died while draining', object({ [S]: 'gone', [D]: 'true' }), 'b', { type: 'move', from: 'gone', to: 'b', patch: { metadata: { resourceVersion: '42', labels: { [S]: 'b', [D]: null } } } }],
  ];
  for (const [name, obj, desired, expected] of rows) t.deepEqual(shardMove(obj, desired, live, labels), expected, name);
});

test('the owner lets go by removing both labels, guarded by the resourceVersion it saw', (t) => {
  t.deepEqual(releasePatch(object({ [S]: 'a', [D]: 'true' }), labels), { metadata: { resourceVersion: '42', labels: { [S]: null, [D]: null } } });
});
