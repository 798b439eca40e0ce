import test from 'ava';
import { createChangeLog, type ChangeEntry } from '../../src/testServer/changeLog.js';
import { mergePatch } from '../../src/testServer/mergePatch.js';
import { createSortedKeyList } from '../../src/testServer/sortedKeyList.js';

test('the sorted key list keeps keys ordered and unique across chunk splits and merges', (t) => {
  const list = createSortedKeyList();
  const keys = Array.from({ length: 3000 }, (_, i) => `k${String((i * 7919) % 3000).padStart(5, '0')}`);
  for (const key of keys) list.insert(key);
  list.insert(keys[0]!);
  t.is(list.size, 3000);
  const sorted = [...keys].sort();
  t.deepEqual([...list.keysFrom(undefined)], sorted);
  t.deepEqual([...list.keysFrom('k02998')], ['k02998', 'k02999']);
  t.deepEqual([...list.keysFrom('k02998\u0000')], ['k02999']);
  t.is(list.countFrom('k01000'), 2000);
  for (const key of keys.slice(0, 2500)) list.delete(key);
  list.delete('absent');
  t.is(list.size, 500);
  t.deepEqual([...list.keysFrom(undefined)], sorted.filter((k) => !keys.slice(0, 2500).includes(k)));
  t.is(list.countFrom('zzz'), 0);
});

test('the change log is a bounded ring: the floor rises as entries drop; since() finds entries after an RV', (t) => {
  const log = createChangeLog(3, 10);
  const entry = (rv: number) => ({ rv, type: 'ADDED', collection: 'c', object: {} as never, previous: undefined }) as ChangeEntry;
  for (let rv = 11; rv <= 15; rv++) log.append(entry(rv));
  t.is(log.length, 3);
  t.is(log.floor, 12);
  t.deepEqual([...log.since(12)].map((e) => e.rv), [13, 14, 15]);
  t.deepEqual([...log.since(14)].map((e) => e.rv), [15]);
  t.deepEqual([...log.since(15)].map((e) => e.rv), []);
  log.compact(14);
  t.is(log.floor, 14);
  t.deepEqual([...log.since(14)].map((e) => e.rv), [15]);
  const none = createChangeLog(0, 1);
  none.append(entry(2));
  t.is(none.floor, 2);
});

test('merge patch: members merge, null deletes, arrays replace, the target is untouched', (t) => {
  const target = { a: { b: 1, c: [1, 2] }, d: 'x' };
  t.deepEqual(mergePatch(target, { a: { b: null, c: [3] }, e: { f: 1 } }), { a: { c: [3] }, d: 'x', e: { f: 1 } });
  t.deepEqual(target, { a: { b: 1, c: [1, 2] }, d: 'x' });
  t.is(mergePatch(target, 'scalar'), 'scalar');
  const hostile = mergePatch({}, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
  t.is(({} as Record<string, unknown>)['polluted'], undefined);
  t.deepEqual(Object.keys(hostile), ['__proto__']);
});
