import test from 'ava';
import { hash32 } from '../../src/sharding/hash32.js';
import { hashRing } from '../../src/sharding/label/hashRing.js';

const keys = Array.from({ length: 20_000 }, (_, i) => `v1/ConfigMap/ns-${i % 7}/cm-${i}`);
const owners = (ring: ReturnType<typeof hashRing>) => keys.map((key) => ring.ownerOf(key));

test('hash32 is stable (pinned values: every process and version must place keys alike) and spreads', (t) => {
  t.deepEqual(['', 'a', 'ab', 'abc', 'v1/ConfigMap/ns/x', 'é☃'].map((s) => hash32(s)), [0, 1867108634, 374890698, 1118836419, 760009263, 2839338903], 'MurmurHash3 x86_32 of the UTF-16LE bytes, seed 0 (checked against an independent implementation)');
  const buckets = new Array<number>(16).fill(0);
  for (const key of keys) buckets[hash32(key) >>> 28]! += 1;
  t.true(buckets.every((n) => Math.abs(n - keys.length / 16) < keys.length / 16 / 10), buckets.join(' '));
});

test('no members: no owner; one member owns everything', (t) => {
  t.is(hashRing([]).ownerOf('x'), undefined);
  t.true(owners(hashRing(['a'])).every((o) => o === 'a'));
});

test('the same members in any order (and with duplicates) make the same ring', (t) => {
  t.deepEqual(owners(hashRing(['c', 'a', 'b'])), owners(hashRing(['a', 'b', 'c', 'a'])));
  t.deepEqual(hashRing(['c', 'a', 'b']).members, ['a', 'b', 'c']);
});

test('a join moves about 1/(N+1) of the keys, all of them to the new member', (t) => {
  const members = Array.from({ length: 9 }, (_, i) => `replica-${i}`);
  const before = owners(hashRing(members));
  const after = owners(hashRing([...members, 'replica-new']));
  const moved = before.filter((owner, i) => owner !== after[i]);
  t.true(after.every((owner, i) => owner === before[i] || owner === 'replica-new'));
  t.true(Math.abs(moved.length / keys.length - 0.1) < 0.02, `${moved.length} moved`);
});

test('a leave moves only the keys of the member that left, spread over the others', (t) => {
  const members = Array.from({ length: 10 }, (_, i) => `replica-${i}`);
  const before = owners(hashRing(members));
  const after = owners(hashRing(members.filter((m) => m !== 'replica-3')));
  const moved = before.map((owner, i) => [owner, after[i]] as const).filter(([a, b]) => a !== b);
  t.true(moved.every(([from]) => from === 'replica-3'));
  t.is(moved.length, before.filter((o) => o === 'replica-3').length);
  t.true(new Set(moved.map(([, to]) => to)).size === 9, 'every remaining member takes some');
});

test('flapping: a member that leaves and comes back under its name gets back exactly its keys; under a new name (a new term of sharded()) each flap moves only its own share', (t) => {
  const members = Array.from({ length: 10 }, (_, i) => `replica-${i}`);
  const before = owners(hashRing(members));
  const without = members.filter((m) => m !== 'replica-4');
  t.notDeepEqual(owners(hashRing(without)), before);
  t.deepEqual(owners(hashRing([...without, 'replica-4'])), before, 'the ring is a function of the member set');
  const renamed = owners(hashRing([...without, 'replica-4-term2']));
  const moved = before.filter((owner, i) => owner !== renamed[i]);
  t.true(before.every((owner, i) => owner === renamed[i] || owner === 'replica-4' || renamed[i] === 'replica-4-term2'), 'only keys leaving the old name or going to the new one move');
  t.true(moved.length / keys.length < 0.25, `${moved.length} moved`);
});

test('balance with the default 2,000 points: 10 members within 1.1 × the mean', (t) => {
  const members = Array.from({ length: 10 }, (_, i) => `controller-${i}_${i * 7919}`);
  const counts = new Map<string, number>();
  for (const owner of owners(hashRing(members))) counts.set(owner!, (counts.get(owner!) ?? 0) + 1);
  const max = Math.max(...counts.values());
  t.true(max / (keys.length / 10) <= 1.1, `max/mean ${(max / (keys.length / 10)).toFixed(3)}`);
});

test('bad arguments are TypeErrors', (t) => {
  t.throws(() => hashRing(['a'], { virtualNodes: 0 }), { instanceOf: TypeError, message: /virtualNodes must be a positive integer, got 0/ });
  t.throws(() => hashRing(['a', '']), { instanceOf: TypeError, message: /a member must be a non-empty string, got ""/ });
});
