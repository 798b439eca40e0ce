/**
 * A marble test of your own pipeline: keys of pods whose phase became Failed, deduplicated, on
 * virtual time. Uses the same kit as rx-informer's own tests (`rx-informer/testing`); here with
 * node:assert so it runs with plain tsx, in ava it is `runMarbles(t, …)`.
 *
 * Run: npx tsx examples/marbleTest.ts
 */
import type { V1Pod } from '@kubernetes/client-node';
import { deepStrictEqual } from 'node:assert';
import { distinct, filter, map, type Observable } from 'rxjs';
import { informer, type Json, type Notification } from 'rx-informer';
import { added, listEvents, marbleSource, modified, pod, runMarbles } from 'rx-informer/testing';

/** The pipeline under test: keys of pods that turned Failed, each once. */
const failedPods = (changes: Observable<Notification<Json<V1Pod>>>) =>
  changes.pipe(
    filter((change) => change.type !== 'delete' && change.object.status?.phase === 'Failed'),
    map((change) => change.key),
    distinct(),
  );

runMarbles({ deepEqual: (actual, expected) => deepStrictEqual(actual, expected) }, ({ cold, expectObservable }) => {
  const source = marbleSource(cold, '-L--a--b--c--', {
    L: listEvents([pod('web-1', { resourceVersion: '1', phase: 'Running' })], '1'),
    a: modified(pod('web-1', { resourceVersion: '2', phase: 'Failed' })),
    b: added(pod('web-2', { resourceVersion: '3', phase: 'Failed' })),
    c: modified(pod('web-1', { resourceVersion: '4', phase: 'Failed' })),
  });
  expectObservable(failedPods(informer(source).changes$)).toBe('----x--y-----', { x: 'default/web-1', y: 'default/web-2' });
});
console.log('marble test passed');
