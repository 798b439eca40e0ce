/** The controller's trigger operators on their own: toOwnerRefs, toRefs, reconcileAllOf. */
import test from 'ava';
import { from, map } from 'rxjs';
import type { ControllerRequest } from '../../src/controller/controllerRequest.js';
import { reconcileAllOf } from '../../src/controller/reconcileAllOf.js';
import { toOwnerRefs } from '../../src/controller/toOwnerRefs.js';
import { toRefs } from '../../src/controller/toRefs.js';
import { toSelfRefs } from '../../src/controller/toSelfRefs.js';
import { lowPriority } from '../../src/controller/reconcileReason.js';
import { applyBatch } from '../../src/store/applyBatch.js';
import { tombstone } from '../../src/store/delta.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { Notification } from '../../src/store/notification.js';
import { emptySnapshot } from '../../src/store/snapshot.js';
import { runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

const owner = { apiVersion: 'demo.example.com/v1', kind: 'Set' };
const ownedBy = (name: string, ...owners: string[]): KubeObject => ({
  ...configMap(name, { namespace: 'n' }),
  metadata: { name, namespace: 'n', ownerReferences: owners.map((o, i) => ({ ...owner, name: o, uid: o, controller: i === 0 })) } as KubeObject['metadata'],
});
const name = ({ ref }: ControllerRequest) => `${ref.namespace ?? ''}/${ref.name}`;
const add = (object: KubeObject): Notification<KubeObject> => ({ type: 'add', key: `n/${object.metadata!.name}`, object, isInInitialList: false });
const update = (oldObject: KubeObject, object: KubeObject): Notification<KubeObject> => ({ type: 'update', key: `n/${object.metadata!.name}`, oldObject, object, sync: false });
const remove = (object: KubeObject | undefined, key = 'n/c'): Notification<KubeObject> => ({ type: 'delete', key, object: object === undefined ? tombstone(key, undefined) : tombstone(key, object) });

test('toOwnerRefs: empty, never, error pass through', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold<Notification<KubeObject>>('|').pipe(toOwnerRefs(owner))).toBe('|');
    expectObservable(cold<Notification<KubeObject>>('-').pipe(toOwnerRefs(owner))).toBe('-');
    expectObservable(cold<Notification<KubeObject>>('-#').pipe(toOwnerRefs(owner))).toBe('-#');
  }));

test('toOwnerRefs: add → its controller owner; update → old and new owners; delete (tombstone) → the last owner; unowned → nothing', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const changes = cold('-a-u----d-x-o|', {
      a: add(ownedBy('c', 's1', 's2')),
      u: update(ownedBy('c', 's1'), ownedBy('c', 's3')),
      d: remove(ownedBy('c', 's3')),
      x: remove(undefined),
      o: add(configMap('free', { namespace: 'n' })),
    });
    expectObservable(changes.pipe(toOwnerRefs(owner), map(name))).toBe('-a-(bc)-d----|', { a: 'n/s1', b: 'n/s1', c: 'n/s3', d: 'n/s3' });
    expectSubscriptions(changes.subscriptions).toBe('^------------!');
  }));

test('toOwnerRefs: match any; early unsubscribe; a bad owner type is a TypeError', (t) => {
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const changes = cold('-a-a', { a: add(ownedBy('c', 's1', 's2')) });
    expectObservable(changes.pipe(toOwnerRefs(owner, { match: 'any' }), map(name)), '^--!').toBe('-(xy)', { x: 'n/s1', y: 'n/s2' });
    expectSubscriptions(changes.subscriptions).toBe('^--!');
  });
  t.throws(() => toOwnerRefs({ apiVersion: 'v1' } as never), { instanceOf: TypeError, message: /apiVersion and kind/ });
  t.throws(() => toOwnerRefs(owner, { match: 'some' as never }), { instanceOf: TypeError, message: /match/ });
});

test('toOwnerRefs and toRefs: one notification yields one ref per distinct object (an update that keeps its owner, a mapper that repeats itself)', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const changes = cold('-u-----m-----|', { u: update(ownedBy('c', 's1'), ownedBy('c', 's1')), m: add(configMap('s', { namespace: 'n' })) });
    expectObservable(changes.pipe(toOwnerRefs(owner, { match: 'any' }), map(name))).toBe('-a-----------|', { a: 'n/s1' });
    const mapper = () => [{ namespace: 'n', name: 'x' }, { namespace: 'n', name: 'y' }, { namespace: 'n', name: 'x' }];
    expectObservable(changes.pipe(toRefs(mapper), map(name))).toBe('-(xy)--(xy)--|', { x: 'n/x', y: 'n/y' });
  }));

test('toRefs: the mapper sees the new (and old) object; a tombstone without an object maps nothing; a throwing mapper errors', (t) => {
  runMarbles(t, ({ cold, expectObservable }) => {
    const mapper = (o: KubeObject) => [{ namespace: 'n', name: `for-${o.metadata!.name}` }];
    const changes = cold('-a-u---x|', { a: add(configMap('s', { namespace: 'n' })), u: update(configMap('s', { namespace: 'n' }), configMap('t', { namespace: 'n' })), x: remove(undefined) });
    expectObservable(changes.pipe(toRefs(mapper), map(name))).toBe('-a-(ab)-|', { a: 'n/for-s', b: 'n/for-t' });
    expectObservable(cold<Notification<KubeObject>>('|').pipe(toRefs(mapper))).toBe('|');
    expectObservable(cold<Notification<KubeObject>>('-').pipe(toRefs(mapper))).toBe('-');
    const boom = () => {
      throw new Error('mapper broke');
    };
    expectObservable(cold('-a', { a: add(configMap('s')) }).pipe(toRefs(boom))).toBe('-#', undefined, new Error('mapper broke'));
  });
  t.throws(() => toRefs('x' as never), { instanceOf: TypeError });
});

test('reconcileAllOf: every emission maps to the keys of the snapshot at that moment', (t) => {
  let snapshot = emptySnapshot<KubeObject>();
  const holder = {
    get snapshot() {
      return snapshot;
    },
  };
  const put = (...names: string[]) => {
    snapshot = applyBatch(snapshot, { deltas: new Map(names.map((n) => [`n/${n}`, [{ type: 'Added' as const, key: `n/${n}`, object: configMap(n, { namespace: 'n' }) }]])) }).snapshot;
  };
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const trigger = cold('-t---t---t|');
    put('a', 'b');
    expectObservable(trigger.pipe(reconcileAllOf(holder), map(name)), '^-------!').toBe('-(ab)(ab)', { a: 'n/a', b: 'n/b' });
    expectSubscriptions(trigger.subscriptions).toBe('^-------!');
    expectObservable(cold('|').pipe(reconcileAllOf(holder))).toBe('|');
    expectObservable(cold('-#').pipe(reconcileAllOf(holder))).toBe('-#');
  });
  t.throws(() => reconcileAllOf({} as never), { instanceOf: TypeError });
});

test('every trigger emits ControllerRequests: the change\'s priority (low for the initial list and resyncs) and a reason naming where it came from', (t) => {
  const listed: Notification<KubeObject> = { ...add(ownedBy('c', 's1')), isInInitialList: true } as Notification<KubeObject>;
  const changed = update(ownedBy('c', 's1'), { ...ownedBy('c', 's1'), metadata: { ...ownedBy('c', 's1').metadata, resourceVersion: '7' } });
  const resync: Notification<KubeObject> = { ...changed, sync: true } as Notification<KubeObject>;
  const requests = (operator: (source: import('rxjs').Observable<Notification<KubeObject>>) => import('rxjs').Observable<ControllerRequest>, ...changes: Notification<KubeObject>[]) => {
    const out: ControllerRequest[] = [];
    operator(from(changes)).subscribe((r) => out.push(r));
    return out.map((r) => ({ name: name(r), priority: r.priority, reasons: r.reasons }));
  };
  const child = { namespace: 'n', name: 'c' };
  t.deepEqual(requests(toOwnerRefs(owner), listed, changed, resync), [
    { name: 'n/s1', priority: lowPriority, reasons: [{ type: 'owned', child }] },
    { name: 'n/s1', priority: 0, reasons: [{ type: 'owned', child }] },
    { name: 'n/s1', priority: lowPriority, reasons: [{ type: 'owned', child }] },
  ]);
  t.deepEqual(requests(toRefs(() => [{ namespace: 'n', name: 'x' }], { name: 'secrets' }), listed, changed), [
    { name: 'n/x', priority: lowPriority, reasons: [{ type: 'watched', source: 'secrets', object: child }] },
    { name: 'n/x', priority: 0, reasons: [{ type: 'watched', source: 'secrets', object: child }] },
  ]);
  t.deepEqual(requests(toRefs(() => [{ namespace: 'n', name: 'x' }]), changed)[0]?.reasons, [{ type: 'watched', source: 'toRefs', object: child }]);
  t.deepEqual(requests(toSelfRefs(), listed, changed, resync), [
    { name: 'n/c', priority: lowPriority, reasons: [{ type: 'initial' }] },
    { name: 'n/c', priority: 0, reasons: [{ type: 'changed', change: 'update', resourceVersion: '7' }] },
    { name: 'n/c', priority: lowPriority, reasons: [{ type: 'changed', change: 'resync', resourceVersion: '7' }] },
  ]);
  t.deepEqual(requests(toSelfRefs({ initialPriority: () => 5 }), listed)[0]?.priority, 5);
  t.throws(() => toSelfRefs({ initialPriority: 3 as never }), { instanceOf: TypeError, message: /initialPriority/ });
  t.throws(() => toRefs(() => [], { name: '' }), { instanceOf: TypeError, message: /name/ });
  const holder = { snapshot: applyBatch(emptySnapshot<KubeObject>(), { deltas: new Map([['n/a', [{ type: 'Added' as const, key: 'n/a', object: configMap('a', { namespace: 'n' }) }]]]) }).snapshot };
  const all: ControllerRequest[] = [];
  from([1]).pipe(reconcileAllOf(holder)).subscribe((r) => all.push(r));
  t.deepEqual(all, [{ ref: { namespace: 'n', name: 'a' }, priority: lowPriority, reasons: [{ type: 'reconcileAll' }] }]);
});
