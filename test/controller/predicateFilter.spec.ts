import test from 'ava';
import { predicateFilter } from '../../src/controller/predicateFilter.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { Notification } from '../../src/store/notification.js';
import { predicates } from '../../src/controller/predicates.js';
import { runMarbles } from '../../src/testing/marbles.js';

const obj = (meta: Record<string, unknown>): KubeObject => ({ metadata: { name: 'a', ...meta } }) as KubeObject;
const update = (oldMeta: Record<string, unknown>, newMeta: Record<string, unknown>, sync = false): Notification<KubeObject> => ({
  type: 'update',
  key: 'a',
  oldObject: obj(oldMeta),
  object: obj(newMeta),
  sync,
});

test('predicates, table-driven: does the update pass?', (t) => {
  const cases: [string, (o: KubeObject) => string | undefined, Record<string, unknown>, Record<string, unknown>, boolean][] = [
    ['generation changed', predicates.generation, { generation: 1 }, { generation: 2 }, true],
    ['generation same (status change)', predicates.generation, { generation: 1, resourceVersion: '1' }, { generation: 1, resourceVersion: '2' }, false],
    ['no generation: cannot tell, passes', predicates.generation, {}, {}, true],
    ['resourceVersion changed', predicates.resourceVersion, { resourceVersion: '1' }, { resourceVersion: '2' }, true],
    ['labels reordered are the same', predicates.labels, { labels: { a: '1', b: '2' } }, { labels: { b: '2', a: '1' } }, false],
    ['labels changed', predicates.labels, { labels: { a: '1' } }, { labels: { a: '2' } }, true],
    ['labels added where there were none', predicates.labels, {}, { labels: { a: '1' } }, true],
    ['annotations same', predicates.annotations, { annotations: { x: 'y' } }, { annotations: { x: 'y' } }, false],
    ['finalizers removed', predicates.finalizers, { finalizers: ['f'] }, {}, true],
    ['combine: one part changed', predicates.combine(predicates.generation, predicates.labels), { generation: 1, labels: { a: '1' } }, { generation: 1, labels: { a: '2' } }, true],
    ['combine: nothing changed', predicates.combine(predicates.generation, predicates.labels), { generation: 1, labels: {} }, { generation: 1 }, false],
    ['fallback: generation when present', predicates.fallback(predicates.generation, predicates.resourceVersion), { generation: 3, resourceVersion: '1' }, { generation: 3, resourceVersion: '2' }, false],
    ['fallback: resourceVersion without generation', predicates.fallback(predicates.generation, predicates.resourceVersion), { resourceVersion: '1' }, { resourceVersion: '2' }, true],
  ];
  for (const [name, predicate, before, after, passes] of cases) {
    let passed = false;
    runMarbles(t, ({ cold }) => {
      cold('a', { a: update(before, after) })
        .pipe(predicateFilter(predicate))
        .subscribe(() => (passed = true));
    });
    t.is(passed, passes, name);
  }
});

test('adds and deletes always pass; resyncs are dropped unless kept', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const add: Notification<KubeObject> = { type: 'add', key: 'a', object: obj({ generation: 1 }), isInInitialList: false };
    const del: Notification<KubeObject> = { type: 'delete', key: 'a', object: obj({ generation: 1 }) };
    const sync = update({ generation: 1, resourceVersion: '5' }, { generation: 1, resourceVersion: '5' }, true);
    const spec = update({ generation: 1 }, { generation: 2 });
    const status = update({ generation: 2, resourceVersion: '1' }, { generation: 2, resourceVersion: '2' });
    const source = cold('-a-u-x-s-d-|', { a: add, u: spec, x: status, s: sync, d: del });
    expectObservable(source.pipe(predicateFilter(predicates.generation))).toBe('-a-u-----d-|', { a: add, u: spec, d: del });
    expectObservable(source.pipe(predicateFilter(predicates.generation, { keepSyncs: true }))).toBe('-a-u---s-d-|', { a: add, u: spec, s: sync, d: del });
  }));

test('a throwing predicate errors the stream through RxJS, not from next(); errors and unsubscription pass through', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const spec = update({ generation: 1 }, { generation: 2 });
    const boom = () => {
      throw new Error('predicate bug');
    };
    expectObservable(cold('-u-u', { u: spec }).pipe(predicateFilter(boom))).toBe('-#', undefined, new Error('predicate bug'));
    expectObservable(cold<Notification<KubeObject>>('-#', undefined, new Error('up')).pipe(predicateFilter(predicates.generation))).toBe('-#', undefined, new Error('up'));
    const long = cold('-u-u-u', { u: spec });
    expectObservable(long.pipe(predicateFilter(predicates.generation)), '^--!').toBe('-u--', { u: spec });
    expectSubscriptions(long.subscriptions).toBe('^--!');
    expectObservable(cold<Notification<KubeObject>>('|').pipe(predicateFilter(predicates.generation))).toBe('|');
  }));

test('a predicate that is not a function is rejected at call time', (t) => {
  t.throws(() => predicateFilter('generation' as never), { instanceOf: TypeError, message: /predicate must be a function/ });
});
