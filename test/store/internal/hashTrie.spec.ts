import test from 'ava';
import fc from 'fast-check';
import { assertProperty } from '../../helpers/assertProperty.js';
import { editTrie, emptyTrie, trieForEach, trieGet, type HashTrie } from '../../../src/store/internal/hashTrie.js';

type Op = { kind: 'set'; key: string; value: number } | { kind: 'delete'; key: string } | { kind: 'commit' };

// Short keys collide in buckets; long ones spread; '__proto__' and friends must be plain keys.
const key = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', '', 'a'),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: 0, max: 400 }).map((i) => `ns/object-${i}`),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), key }),
  fc.constant({ kind: 'commit' as const }),
);

test('property: behaves as a Map across batches, and old versions never change', (t) => {
  assertProperty(
    t,
    fc.property(fc.array(op, { maxLength: 600 }), (ops) => {
      const model = new Map<string, number>();
      let trie: HashTrie<number> = emptyTrie();
      let editor = editTrie(trie);
      const versions: [HashTrie<number>, Map<string, number>][] = [];
      for (const o of ops) {
        if (o.kind === 'set') {
          if (editor.set(o.key, o.value) !== (model.has(o.key) ? model.get(o.key) : undefined)) return false;
          model.set(o.key, o.value);
        } else if (o.kind === 'delete') {
          if (editor.delete(o.key) !== model.get(o.key)) return false;
          model.delete(o.key);
        } else {
          trie = editor.commit();
          versions.push([trie, new Map(model)]);
          editor = editTrie(trie);
        }
        if (editor.size !== model.size) return false;
      }
      versions.push([editor.commit(), new Map(model)]);
      for (const [version, expected] of versions) {
        if (version.size !== expected.size) return false;
        for (const [k, v] of expected) if (trieGet(version, k) !== v) return false;
        const entries: [string, unknown][] = [];
        trieForEach(version, (value, key) => void entries.push([key, value]));
        if (entries.length !== expected.size) return false;
        for (const [k, v] of entries) if (expected.get(k) !== v) return false;
      }
      return true;
    }),
    { numRuns: 300 },
  );
});

test('a batch without effective changes returns the same trie', (t) => {
  const editor = editTrie(emptyTrie<number>());
  editor.set('a', 1);
  const one = editor.commit();
  const again = editTrie(one);
  again.set('a', 1);
  again.delete('missing');
  t.is(again.commit(), one);
});

test('committed nodes are frozen and writes copy only the touched path', (t) => {
  const editor = editTrie(emptyTrie<number>());
  for (let i = 0; i < 5000; i++) editor.set(`k${i}`, i);
  const big = editor.commit();
  t.true(Object.isFrozen(big));
  t.true(Object.isFrozen(big.root));
  const next = editTrie(big);
  next.set('k1', -1);
  const changed = next.commit();
  t.is(trieGet(changed, 'k1'), -1);
  t.is(trieGet(big, 'k1'), 1);
  const root = big.root as unknown[];
  const newRoot = changed.root as unknown[];
  t.is(newRoot.filter((child, i) => child === root[i]).length, root.length - 1, 'all but one root slot shared');
});

test('forEach stops when the visitor returns false', (t) => {
  const editor = editTrie(emptyTrie<number>());
  for (let i = 0; i < 100; i++) editor.set(`k${i}`, i);
  let visits = 0;
  trieForEach(editor.commit(), () => ++visits < 10);
  t.is(visits, 10);
});

test('deleting everything gives back the empty trie', (t) => {
  const editor = editTrie(emptyTrie<number>());
  for (let i = 0; i < 300; i++) editor.set(`k${i}`, i);
  const full = editor.commit();
  const drain = editTrie(full);
  for (let i = 0; i < 300; i++) drain.delete(`k${i}`);
  const empty = drain.commit();
  t.is(empty.size, 0);
  t.is(empty.root, null);
});
