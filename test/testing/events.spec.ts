import test from 'ava';
import { added, bookmark, deleted, listDone, listEvents, listPage, listStart, modified } from '../../src/testing/events.js';
import { configMap, pod, withResourceVersion } from '../../src/testing/objects.js';

test('event builders build the raw-event vocabulary', (t) => {
  const cm = configMap('a');
  t.deepEqual(added(cm), { type: 'ADDED', object: cm });
  t.deepEqual(modified(cm), { type: 'MODIFIED', object: cm });
  t.deepEqual(deleted(cm), { type: 'DELETED', object: cm });
  t.deepEqual(bookmark('7'), { type: 'BOOKMARK', resourceVersion: '7' });
  t.deepEqual(bookmark('7', true), { type: 'BOOKMARK', resourceVersion: '7', initialEventsEnd: true });
  t.deepEqual(listStart(), { type: 'LIST_START' });
  t.deepEqual(listPage([cm], { page: 2, itemsSoFar: 3, remainingItemCount: 4 }), { type: 'LIST_PAGE', items: [cm], page: 2, itemsSoFar: 3, remainingItemCount: 4 });
  t.deepEqual(listDone('9'), { type: 'LIST_DONE', resourceVersion: '9' });
});

test('listEvents pages items with progress and remainingItemCount on all but the last page', (t) => {
  const items = ['a', 'b', 'c', 'd', 'e'].map((n) => configMap(n));
  const events = listEvents(items, '12', { pageSize: 2 });
  t.deepEqual(
    events.map((e) => (e.type === 'LIST_PAGE' ? `${e.type}:${e.page}:${e.items.length}:${e.itemsSoFar}:${e.remainingItemCount ?? '-'}` : e.type)),
    ['LIST_START', 'LIST_PAGE:1:2:2:3', 'LIST_PAGE:2:2:4:1', 'LIST_PAGE:3:1:5:-', 'LIST_DONE'],
  );
  t.deepEqual(listEvents([], '1').map((e) => e.type), ['LIST_START', 'LIST_DONE']);
});

test('object factories build plain JSON with the given metadata', (t) => {
  const cm = configMap('a', { namespace: 'x', resourceVersion: '3', labels: { app: 'web' }, data: { k: 'v' } });
  t.deepEqual(JSON.parse(JSON.stringify(cm)), cm);
  t.deepEqual(cm.metadata, { name: 'a', namespace: 'x', resourceVersion: '3', labels: { app: 'web' } });
  t.is(configMap('c', { namespace: '' }).metadata.namespace, undefined);
  const p = pod('p', { nodeName: 'n1', phase: 'Running' });
  t.is(p.spec.nodeName, 'n1');
  t.is(p.status?.phase, 'Running');
  t.is(p.metadata.namespace, 'default');
  const copy = withResourceVersion(cm, '9');
  t.is(copy.metadata.resourceVersion, '9');
  t.is(cm.metadata.resourceVersion, '3');
});
