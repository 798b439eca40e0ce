/*
 * A property of the merge: under any sequence of engagements, re-engagements with other contents,
 * changes, releases and readers joining late, every reader's view built from its notifications
 * alone (an add only for a key it does not hold, an update or delete only for one it holds) equals
 * the engaged clusters' caches after every step, and is empty once every cluster left.
 * On virtual time: the informers close their batches on asapScheduler, so every step is flushed
 * before the check.
 */
import test from 'ava';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BehaviorSubject, type Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { fleetUpdates } from '../../src/fleet/fleetUpdates.js';
import { informer, type Informer } from '../../src/informer/informer.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { fakeListWatch, type FakeListWatch } from '../../src/testing/fakeListWatch.js';
import { configMap } from '../../src/testing/objects.js';
import { assertProperty } from '../helpers/assertProperty.js';

interface Cluster {
  readonly fake: FakeListWatch<KubeObject>;
  readonly informer: Informer<KubeObject>;
}
const names = ['a', 'b', 'c'] as const;
const keys = ['k0', 'k1', 'k2', 'k3'] as const;
type Step = { op: 'engage'; cluster: string; objects: string[] } | { op: 'release'; cluster: string } | { op: 'change'; cluster: string; key: string } | { op: 'reader' };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('engage' as const), cluster: fc.constantFrom(...names), objects: fc.subarray([...keys]) }),
  fc.record({ op: fc.constant('release' as const), cluster: fc.constantFrom(...names) }),
  fc.record({ op: fc.constant('change' as const), cluster: fc.constantFrom(...names), key: fc.constantFrom(...keys) }),
  fc.record({ op: fc.constant('reader' as const) }),
);

test('every reader\'s view, built from its notifications alone, equals the engaged clusters\' caches after every step', (t) => {
  assertProperty(
    t,
    fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
      const scheduler = new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));
      scheduler.run(() => run(steps, () => scheduler.flush()));
    }),
    { numRuns: 200 },
  );
});

/** One run of the steps, checking after each once `settle` has flushed the virtual time. */
function run(steps: readonly Step[], settle: () => void): void {
  const clusters$ = new BehaviorSubject<ReadonlyMap<string, Cluster>>(new Map());
  const readers: Array<{ view: Map<string, Map<string, string>>; subscription: Subscription }> = [];
  const addReader = () => {
    const view = new Map<string, Map<string, string>>();
    const subscription = fleetUpdates(clusters$, (c: Cluster) => c.informer).subscribe((update) => {
      for (const change of update.changes) {
        const held = view.get(change.cluster) ?? new Map<string, string>();
        view.set(change.cluster, held);
        if (change.type === 'add') assert.ok(!held.has(change.key), `a second add of ${change.cluster}/${change.key}`);
        else assert.ok(held.has(change.key), `${change.type} of ${change.cluster}/${change.key}, which the reader does not hold`);
        if (change.type === 'delete') held.delete(change.key);
        else held.set(change.key, change.object.metadata!.resourceVersion!);
        if (held.size === 0) view.delete(change.cluster);
      }
    });
    readers.push({ view, subscription });
  };
  let seenSynced = steps.every((s) => s.op !== 'engage');
  const truth = () => {
    const out = new Map<string, Map<string, string>>();
    for (const [name, cluster] of clusters$.value) {
      const held = new Map([...cluster.informer.snapshot.entries()].map(([key, object]) => [key, object.metadata!.resourceVersion!] as const));
      if (held.size > 0) out.set(name, held);
      seenSynced ||= cluster.informer.snapshot.synced;
    }
    return out;
  };
  addReader();
  for (const s of steps) {
    const current = new Map(clusters$.value);
    if (s.op === 'engage') {
      const fake = fakeListWatch<KubeObject>(s.objects.map((key) => configMap(key, { namespace: 'ns' })));
      current.set(s.cluster, { fake, informer: informer(fake.events$) });
      clusters$.next(current);
    } else if (s.op === 'release') {
      current.delete(s.cluster);
      clusters$.next(current);
    } else if (s.op === 'change') {
      const fake = current.get(s.cluster)?.fake;
      if (fake === undefined) continue;
      const exists = fake.list().some((o) => o.metadata?.name === s.key);
      if (exists) fake.modify(configMap(s.key, { namespace: 'ns', labels: { touched: 'yes' } }));
      else fake.add(configMap(s.key, { namespace: 'ns' }));
    } else addReader();
    settle();
    for (const reader of readers) assert.deepEqual(reader.view, truth());
  }
  clusters$.next(new Map());
  for (const reader of readers) assert.deepEqual(reader.view, new Map());
  clusters$.complete();
  for (const reader of readers) assert.ok(reader.subscription.closed);
  assert.ok(seenSynced, 'some step saw a synced cluster (the property is not empty)');
}
