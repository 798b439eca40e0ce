import test from 'ava';
import fc from 'fast-check';
import { assertProperty } from '../../helpers/assertProperty.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  adoptVersionedMap,
  editVersionedMap,
  emptyVersionedMap,
  versionedContents,
  versionedGet,
  versionedSize,
  type VersionedMap,
  type VersionedMapEditor,
} from '../../../src/store/internal/versionedMap.js';

type Op =
  | { kind: 'set'; key: string; value: number }
  | { kind: 'delete'; key: string }
  | { kind: 'commit' }
  | { kind: 'branch'; from: number }
  | { kind: 'read'; version: number; key: string }
  | { kind: 'list'; version: number }
  | { kind: 'burst'; count: number };

const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', '', 'a'), fc.integer({ min: 0, max: 12 }).map((i) => `ns/object-${i}`));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), key, value: fc.integer({ min: 0, max: 5 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), key }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'commit' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('branch' as const), from: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const), version: fc.nat(), key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('list' as const), version: fc.nat() }) },
  // Many one-write commits in a row: long undo chains, compression on read, and sweeps.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('burst' as const), count: fc.integer({ min: 1, max: 150 }) }) },
);

function sameContents(version: VersionedMap<number>, expected: Map<string, number>): boolean {
  if (versionedSize(version) !== expected.size) return false;
  for (const [k, v] of expected) if (versionedGet(version, k) !== v) return false;
  const { keys, values } = versionedContents(version);
  if (keys.length !== expected.size || values.length !== expected.size || new Set(keys).size !== keys.length) return false;
  return keys.every((k, i) => expected.get(k) === values[i]);
}

test('property: every version reads as the Map it was when committed, whatever is written, branched or read later', (t) => {
  assertProperty(
    t,
    fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
      const versions: [VersionedMap<number>, Map<string, number>][] = [[emptyVersionedMap(), new Map()]];
      let model = new Map<string, number>();
      let editor: VersionedMapEditor<number> = editVersionedMap(versions[0]![0]);
      const commit = (): void => {
        versions.push([editor.commit(), new Map(model)]);
        editor = editVersionedMap(versions.at(-1)![0]);
      };
      for (const o of ops) {
        switch (o.kind) {
          case 'set':
            if (editor.set(o.key, o.value) !== model.get(o.key)) return false;
            model.set(o.key, o.value);
            break;
          case 'delete':
            if (editor.delete(o.key) !== model.get(o.key)) return false;
            model.delete(o.key);
            break;
          case 'commit':
            commit();
            break;
          case 'branch': {
            // Drop the open batch and write on from an older version (copies it).
            const [version, contents] = versions[o.from % versions.length]!;
            editor = editVersionedMap(version);
            model = new Map(contents);
            break;
          }
          case 'read': {
            const [version, contents] = versions[o.version % versions.length]!;
            if (versionedGet(version, o.key) !== contents.get(o.key)) return false;
            break;
          }
          case 'list': {
            const [version, contents] = versions[o.version % versions.length]!;
            if (!sameContents(version, contents)) return false;
            break;
          }
          case 'burst':
            for (let i = 0; i < o.count; i++) {
              const k = `burst-${i % 7}`;
              editor.set(k, i);
              model.set(k, i);
              commit();
            }
            break;
        }
        if (editor.size !== model.size) return false;
        if (editor.get('a') !== model.get('a')) return false;
      }
      commit();
      return versions.every(([version, contents]) => sameContents(version, contents));
    }),
    { numRuns: Number(process.env.VERSIONED_MAP_RUNS ?? 1000) },
  );
});

test('a batch without effective changes returns the same version', (t) => {
  const editor = editVersionedMap(emptyVersionedMap<number>());
  editor.set('a', 1);
  const one = editor.commit();
  const again = editVersionedMap(one);
  again.set('a', 1);
  again.delete('missing');
  t.is(again.commit(), one);
});

test('a version read while the next batch is being written still reads as committed', (t) => {
  const first = editVersionedMap(emptyVersionedMap<string>());
  first.set('a', 'a1');
  first.set('b', 'b1');
  const v1 = first.commit();
  const second = editVersionedMap(v1);
  second.set('a', 'a2');
  second.delete('b');
  second.set('c', 'c2');
  // Mid-batch: v1 unchanged, the editor sees its own writes.
  t.is(versionedGet(v1, 'a'), 'a1');
  t.is(versionedGet(v1, 'b'), 'b1');
  t.is(versionedGet(v1, 'c'), undefined);
  t.deepEqual([...versionedContents(v1).keys].sort(), ['a', 'b']);
  t.is(second.get('a'), 'a2');
  const v2 = second.commit();
  t.deepEqual(Object.fromEntries(versionedContents(v2).keys.map((k, i) => [k, versionedContents(v2).values[i]])), { a: 'a2', c: 'c2' });
  t.is(versionedSize(v1), 2);
  t.is(versionedSize(v2), 2);
});

test('two editors on the same version do not see each other', (t) => {
  const base = editVersionedMap(emptyVersionedMap<number>());
  base.set('x', 0);
  const v0 = base.commit();
  const left = editVersionedMap(v0);
  const right = editVersionedMap(v0);
  left.set('x', 1);
  right.set('x', 2);
  right.set('y', 2);
  const l = left.commit();
  const r = right.commit();
  t.is(versionedGet(l, 'x'), 1);
  t.is(versionedGet(l, 'y'), undefined);
  t.is(versionedGet(r, 'x'), 2);
  t.is(versionedGet(r, 'y'), 2);
  t.is(versionedGet(v0, 'x'), 0);
});

test('a held old version keeps a bounded part of the changes after it, not all of them', async (t) => {
  let version = emptyVersionedMap<object>();
  const seed = editVersionedMap(version);
  for (let i = 0; i < 100; i++) seed.set(`k${i}`, { i });
  version = seed.commit();
  const held = version;
  // 10,000 batches rewriting the same 100 keys: in one lineage, `held` would keep all 10,000 undo records alive.
  const dropped = new FinalizationRegistry<number>(() => void droppedCount++);
  let droppedCount = 0;
  for (let batch = 0; batch < 10_000; batch++) {
    const editor = editVersionedMap(version);
    const object = { batch };
    editor.set(`k${batch % 100}`, object);
    dropped.register(object, batch);
    version = editor.commit();
  }
  // Deterministic: the lineage was rebased, so `held` reaches only the nodes up to the first rebase.
  let chain = 0;
  for (let n = held as unknown as { next_: unknown } | null; n !== null && chain < 20_000; n = n.next_ as never) chain++;
  t.true(chain <= 2 * 100 + 1024 + 1, `held version reaches ${chain} nodes`);
  // And observable: superseded values that neither version holds are collected.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 5 && droppedCount < 8_000; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  t.true(droppedCount >= 8_000, `only ${droppedCount} superseded objects were collected`);
  t.truthy(dropped, 'the registry must stay reachable for its callbacks to run');
  t.is((versionedGet(held, 'k5') as { i: number }).i, 5);
  t.is((versionedGet(version, 'k5') as { batch: number }).batch, 9_905);
  t.is(versionedContents(held).keys.length, 100);
});

test('a batch applied to an old version forks it: the fork holds only its own changes and reads the rest through', (t) => {
  const seed = editVersionedMap(emptyVersionedMap<number>());
  for (let i = 0; i < 10_000; i++) seed.set(`k${i}`, i);
  const base = seed.commit();
  const first = editVersionedMap(base);
  first.set('k1', -1);
  first.commit(); // base now has a successor
  type Internals = { lineage_: { map: Map<string, unknown>; depth: number } };
  const forks = Array.from({ length: 50 }, (_, i) => {
    const editor = editVersionedMap(base);
    editor.set(`k${i}`, -i - 100);
    editor.delete(`k${i + 1000}`);
    return editor.commit();
  });
  for (const [i, fork] of forks.entries()) {
    const { map, depth } = (fork as unknown as Internals).lineage_;
    t.is(depth, 1);
    t.is(map.size, 2, 'the fork holds its two changes, not a copy of 10,000 entries');
    t.is(versionedGet(fork, `k${i}`), -i - 100);
    t.is(versionedGet(fork, `k${i + 1000}`), undefined);
    t.is(versionedGet(fork, 'k5000'), 5000);
    t.is(versionedSize(fork), 9_999);
  }
  t.is(versionedGet(base, 'k1'), 1);
  t.is(versionedContents(forks[3]!).keys.length, 9_999);
  // Forks of forks: past the depth limit an edit copies into a plain map.
  let version = forks[0]!;
  for (let depth = 0; depth < 6; depth++) {
    const again = editVersionedMap(version);
    again.set('x', depth);
    again.commit();
    const sibling = editVersionedMap(version); // `version` has a successor now: fork (or copy)
    sibling.set('y', depth);
    version = sibling.commit();
    t.true((version as unknown as Internals).lineage_.depth <= 3);
  }
  t.is(versionedGet(version, 'y'), 5);
  t.is(versionedGet(version, 'x'), undefined);
  t.is(versionedSize(version), 10_000);
});

test('an older version of a fork lists each key once after the fork deletes a key it inherited', (t) => {
  const v0 = editVersionedMap(emptyVersionedMap<number>());
  v0.set('a', 1);
  const base = v0.commit();
  const next = editVersionedMap(base);
  next.set('b', 2);
  next.commit(); // base has a successor: the next edit of base forks
  const f = editVersionedMap(base);
  f.set('c', 3);
  const f1 = f.commit();
  const g = editVersionedMap(f1);
  g.delete('a');
  const f2 = g.commit();
  t.deepEqual([...versionedContents(f1).keys].sort(), ['a', 'c']);
  t.deepEqual([...versionedContents(f1).values].sort(), [1, 3]);
  t.deepEqual([...versionedContents(f2).keys], ['c']);
  t.is(versionedSize(f1), 2);
  t.is(versionedSize(f2), 1);
});

test('an adopted Map reads as given, and stays so after edits', (t) => {
  const v = adoptVersionedMap(new Map([['a', 1], ['b', 2]]));
  const editor = editVersionedMap(v);
  editor.set('a', 10);
  editor.delete('b');
  const w = editor.commit();
  t.deepEqual(versionedContents(v).keys, ['a', 'b']);
  t.deepEqual(versionedContents(v).values, [1, 2]);
  t.is(versionedGet(w, 'a'), 10);
  t.is(versionedSize(w), 1);
});
