// Informer tests on real time (promises, microtasks). Kept apart from the marble specs: ava runs a
// file's tests concurrently, and real asap flushes must not interleave with a TestScheduler run.
import test from 'ava';
import { Subject } from 'rxjs';
import { informer } from '../../src/informer/informer.js';
import { InformerError } from '../../src/errors.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import { byNamespace } from '../../src/store/indexFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { Notification } from '../../src/store/notification.js';
import { added, listEvents } from '../../src/testing/events.js';
import { fakeListWatch } from '../../src/testing/fakeListWatch.js';
import { configMap } from '../../src/testing/objects.js';
import { until } from '../helpers/until.js';
import { snapshotView } from '../helpers/views.js';

const cm = (name: string, rv: string) => configMap(name, { namespace: 'ns', resourceVersion: rv });
type E = RawEvent<KubeObject>;

test('handlers: live callbacks, late replay as add(obj, true), a throwing handler is reported and others go on', async (t) => {
  const api = fakeListWatch([cm('a', '0'), cm('b', '0')]);
  const inf = informer(api.events$);
  const errors: InformerError[] = [];
  inf.errors$.subscribe((e) => errors.push(e));
  const early: string[] = [];
  const keep = inf.addHandler({
    onAdd: (o, initial) => early.push(`add ${o.metadata?.name} ${initial}`),
    onUpdate: (old, o) => early.push(`update ${old.metadata?.resourceVersion}->${o.metadata?.resourceVersion}`),
    onDelete: (o) => early.push(`delete ${'key' in o ? o.key : o.metadata?.name}`),
  });
  const throwing = inf.addHandler({
    onUpdate: () => {
      throw new Error('handler bug');
    },
  });
  await inf.whenSynced();
  api.modify(cm('a', '0'));
  api.delete('ns/b');
  await until(() => early.length === 4, 'the update and the delete');
  const late: string[] = [];
  const lateSub = inf.addHandler({ onAdd: (o, initial) => late.push(`add ${o.metadata?.name} ${initial}`) });
  api.add(cm('c', '0'));
  await until(() => early.length === 5 && late.length === 2, 'the add, in both handlers');

  t.deepEqual(early, ['add a true', 'add b true', 'update 1->3', 'delete b', 'add c false']);
  t.deepEqual(late, ['add a true', 'add c false']);
  t.is(errors.length, 1);
  t.true(errors[0] instanceof InformerError && errors[0].reason === 'handler');
  t.is(errors[0]!.message, '[informer] update handler threw for ns/a: handler bug');
  for (const s of [keep, throwing, lateSub]) s.unsubscribe();
});

test('bad objects are reported on errors$, skipped, and the cache keeps what it had', async (t) => {
  const events = new Subject<E>();
  const inf = informer<KubeObject>(events);
  const errors: InformerError[] = [];
  inf.errors$.subscribe((e) => errors.push(e));
  const sub = inf.snapshots$.subscribe();
  for (const e of listEvents([cm('a', '1')], '1')) events.next(e);
  events.next(added({ metadata: { namespace: 'ns' } }));
  events.next(added(cm('b', '3')));
  await until(() => inf.snapshot.size === 2, 'the good add');
  t.deepEqual(snapshotView(inf.snapshot), { items: ['ns/a@1', 'ns/b@3'], rv: '3', synced: true });
  t.is(errors.length, 1);
  t.is(errors[0]!.reason, 'invalidObject');
  t.regex(errors[0]!.message, /object has no metadata\.name/);
  sub.unsubscribe();
});

test('a failing index function is reported and the informer goes on', async (t) => {
  const api = fakeListWatch([cm('a', '0')]);
  const inf = informer(api.events$, {
    indexers: {
      namespace: byNamespace,
      fragile: (o) => {
        if (o.metadata?.name === 'boom') throw new Error('cannot index boom');
        return ['ok'];
      },
    },
  });
  const errors: InformerError[] = [];
  inf.errors$.subscribe((e) => errors.push(e));
  const sub = inf.snapshots$.subscribe();
  await inf.whenSynced();
  api.add(cm('boom', '0'));
  await until(() => inf.snapshot.size === 2, 'the add');
  t.is(inf.snapshot.size, 2);
  t.deepEqual(inf.snapshot.indexKeys('fragile', 'ok'), ['ns/a']);
  t.deepEqual(inf.snapshot.indexKeys('namespace', 'ns'), ['ns/a', 'ns/boom']);
  t.deepEqual(errors.map((e) => e.reason), ['indexFunc']);
  sub.unsubscribe();
});

test('a notification is delivered after the snapshot containing it is current', async (t) => {
  const api = fakeListWatch([cm('a', '0')]);
  const inf = informer(api.events$);
  const seen: boolean[] = [];
  const sub = inf.changes$.subscribe((c: Notification<KubeObject>) => {
    seen.push(c.type === 'delete' ? !inf.snapshot.has(c.key) : inf.snapshot.get(c.key) === c.object);
  });
  await inf.whenSynced();
  api.modify(cm('a', '0'));
  api.add(cm('b', '0'));
  await until(() => seen.length === 3, 'the update and the add');
  api.delete('ns/a');
  await until(() => seen.length === 4, 'the delete');
  t.deepEqual(seen, [true, true, true, true]);
  sub.unsubscribe();
});

test.serial('a subscriber that throws does not hurt the others: RxJS reports its error and the stream goes on', async (t) => {
  const { config } = await import('rxjs');
  const reported: unknown[] = [];
  const previous = config.onUnhandledError;
  config.onUnhandledError = (error) => reported.push(error);
  try {
    const api = fakeListWatch([cm('a', '0')]);
    const inf = informer(api.events$);
    const good: string[] = [];
    const bad = inf.changes$.subscribe(() => {
      throw new Error('subscriber bug');
    });
    const fine = inf.changes$.subscribe((c) => good.push(`${c.type} ${c.key}`));
    await inf.whenSynced();
    api.add(cm('b', '0'));
    // RxJS reports a subscriber's error on a timer of its own: wait for both reports too (a loaded
    // run saw the second add before the second report).
    await until(() => good.length === 2 && reported.length >= 2, 'the add and both reports');
    t.deepEqual(good, ['add ns/a', 'add ns/b']);
    t.is(reported.length, 2);
    t.is((reported[0] as Error).message, 'subscriber bug');
    bad.unsubscribe();
    fine.unsubscribe();
  } finally {
    config.onUnhandledError = previous;
  }
});
