import test from 'ava';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import { fakeListWatch } from '../../src/testing/fakeListWatch.js';
import { configMap, type ConfigMapObject } from '../../src/testing/objects.js';

const summary = (e: RawEvent<ConfigMapObject>) =>
  e.type === 'LIST_PAGE' ? `PAGE ${e.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).join(',')}`
  : e.type === 'LIST_DONE' || e.type === 'BOOKMARK' ? `${e.type} ${e.resourceVersion}`
  : e.type === 'LIST_START' ? e.type
  : e.type === 'STATUS' ? `STATUS ${e.status.type}`
  : `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}`;

test('a subscriber gets a list of the current state, then live changes with increasing resourceVersions', (t) => {
  const api = fakeListWatch([configMap('a'), configMap('b')]);
  const seen: string[] = [];
  const sub = api.events$.subscribe((e) => seen.push(summary(e)));
  api.modify(configMap('a', { data: { x: '1' } }));
  api.delete('default/b');
  api.add(configMap('c'));
  api.bookmark();
  sub.unsubscribe();
  t.deepEqual(seen, ['LIST_START', 'PAGE a@1,b@2', 'LIST_DONE 2', 'MODIFIED a@3', 'DELETED b@4', 'ADDED c@5', 'BOOKMARK 5']);
  t.is(api.resourceVersion, '5');
});

test('drop-watch changes are invisible until a relist; a late subscriber lists the current state', (t) => {
  const api = fakeListWatch([configMap('a')]);
  const seen: string[] = [];
  const sub = api.events$.subscribe((e) => seen.push(summary(e)));
  api.addDropWatch(configMap('b'));
  api.deleteDropWatch('default/a');
  api.modifyDropWatch(configMap('b', { data: { y: '2' } }));
  t.deepEqual(seen, ['LIST_START', 'PAGE a@1', 'LIST_DONE 1']);
  api.relist();
  t.deepEqual(seen.slice(3), ['LIST_START', 'PAGE b@4', 'LIST_DONE 4']);
  sub.unsubscribe();
  const late: string[] = [];
  api.events$.subscribe((e) => late.push(summary(e))).unsubscribe();
  t.deepEqual(late, ['LIST_START', 'PAGE b@4', 'LIST_DONE 4']);
});

test('deleting an unknown key is a clear error', (t) => {
  const api = fakeListWatch<ConfigMapObject>();
  t.throws(() => api.delete('default/nope'), { message: '[fakeListWatch] cannot delete default/nope: not present' });
});
