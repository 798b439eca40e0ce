/** controller({ leadership, warmReplicas }) over real HTTP: what a follower keeps, what a new leader lists. */
import test from 'ava';
import { BehaviorSubject } from 'rxjs';
import { controller } from '../../src/controller/controller.js';
import type { Leadership } from '../../src/coordination/electionState.js';
import { informerFactory } from '../../src/informer/informerFactory.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

async function failover(warmReplicas: boolean) {
  const server = await createTestApiServer();
  for (let i = 0; i < 5; i++) server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'n' } });
  // A cold follower holds nothing only with informers that run while held: a factory's default
  // lifetime connects them from the start, whatever the controller does.
  const factory = informerFactory(server.kubeConfig, { lifetime: 'held' });
  const primary = factory.informer({ version: 'v1', plural: 'configmaps', namespace: 'n' });
  // A clock for "the follower had time to list": another informer of the same factory, connected
  // here and synced (a list and a watch), while the follower follows.
  const clock = factory.informer({ version: 'v1', plural: 'configmaps', namespace: 'clock' });
  const clockConnection = clock.connect();
  const leadership = new BehaviorSubject<Leadership>({ state: 'following', holder: 'other' });
  const runs: string[] = [];
  let completed = false;
  const lists = () => server.requests.filter((r) => r.verb === 'list' && r.resource === 'configmaps' && r.namespace === 'n').length;
  const subscription = controller(primary, { leadership, warmReplicas, reconcile: (cm) => void runs.push(cm!.metadata!.name!) }).subscribe({ complete: () => (completed = true) });
  try {
    if (warmReplicas) await until(() => primary.snapshot.size === 5, 'the follower synced');
    await clock.whenSynced();
    await until(() => server.requests.some((r) => r.verb === 'watch' && r.namespace === 'clock'), 'the clock watching');
    const cachedWhileFollowing = primary.snapshot.size;
    const runsWhileFollowing = runs.length;
    const listsBeforeLeading = lists();
    leadership.next({ state: 'leading', holder: 'me', transitions: 1 });
    await until(() => runs.length === 5, 'every object reconciled by the new leader');
    const listsAfterLeading = lists() - listsBeforeLeading;
    leadership.complete();
    await until(() => completed, 'the output ends with the leadership');
    return { cachedWhileFollowing, runsWhileFollowing, listsAfterLeading };
  } finally {
    subscription.unsubscribe();
    clockConnection.unsubscribe();
    factory.dispose();
    await server.close();
  }
}

test('warm replicas: a follower keeps the informers synced and reconciles nothing; the new leader reconciles without listing again', async (t) => {
  t.deepEqual(await failover(true), { cachedWhileFollowing: 5, runsWhileFollowing: 0, listsAfterLeading: 0 });
});

test('cold (the default), with held informers: a follower holds no cache; the new leader lists first', async (t) => {
  t.deepEqual(await failover(false), { cachedWhileFollowing: 0, runsWhileFollowing: 0, listsAfterLeading: 1 });
});

test('warmReplicas without leadership, or a leadership that is no Observable, is a TypeError at call time', async (t) => {
  const server = await createTestApiServer();
  const factory = informerFactory(server.kubeConfig);
  try {
    const primary = factory.informer({ version: 'v1', plural: 'configmaps' });
    t.throws(() => controller(primary, { warmReplicas: true, reconcile: () => undefined }), { instanceOf: TypeError, message: /warmReplicas needs leadership/ });
    t.throws(() => controller(primary, { leadership: {} as never, reconcile: () => undefined }), { instanceOf: TypeError, message: /leadership must be an Observable/ });
    t.throws(() => controller(primary, { readYourWrites: { waitMs: -1 }, reconcile: () => undefined }), { instanceOf: TypeError, message: '[controller] readYourWrites.waitMs must be a finite number >= 0, got -1' });
  } finally {
    factory.dispose();
    await server.close();
  }
});

/** A warm follower sees cm-4 (listed last) change and cm-1 deleted; then it leads: what it runs first, and with what reasons. */
async function changedWhileFollowing() {
  const server = await createTestApiServer();
  for (let i = 0; i < 5; i++) server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'n' } });
  const factory = informerFactory(server.kubeConfig);
  const primary = factory.informer({ version: 'v1', plural: 'configmaps', namespace: 'n' });
  const leadership = new BehaviorSubject<Leadership>({ state: 'following', holder: 'other' });
  const runs: { key: string; reasons: string[] }[] = [];
  const subscription = controller(primary, {
    leadership,
    warmReplicas: true,
    reconcile: (_cm, { ref, reasons }) => void runs.push({ key: `${ref.namespace}/${ref.name}`, reasons: reasons.map((r) => (r.type === 'changed' ? `changed:${r.change}` : r.type)) }),
  }).subscribe();
  try {
    await until(() => primary.snapshot.size === 5, 'the follower synced');
    server.patch('configmaps', 'n', 'cm-4', { data: { v: '1' } });
    server.delete('configmaps', 'n', 'cm-1');
    await until(() => primary.snapshot.size === 4 && (primary.snapshot.get('n/cm-4') as { data?: unknown } | undefined)?.data !== undefined, 'the follower saw both changes');
    leadership.next({ state: 'leading', holder: 'me', transitions: 1 });
    await until(() => runs.length === 5, 'every object reconciled by the new leader, the deleted one too');
    return runs;
  } finally {
    subscription.unsubscribe();
    factory.dispose();
    await server.close();
  }
}

test('warm replicas: what changed while following runs first at takeover, with its reason, a delete included; the rest as initial', async (t) => {
  const runs = await changedWhileFollowing();
  t.deepEqual(runs.slice(0, 2), [
    { key: 'n/cm-4', reasons: ['changed:update'] },
    { key: 'n/cm-1', reasons: ['changed:delete'] },
  ]);
  t.deepEqual(runs.slice(2).map((r) => r.reasons), [['initial'], ['initial'], ['initial']]);
});
