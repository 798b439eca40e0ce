import test from 'ava';
import { shardSpaceEnd } from '../../src/sources/shardSelector.js';
import { intersectRanges, normalizeRanges, rangesFraction, rangesOverlap, sameRanges, subtractRanges } from '../../src/sharding/server/rangeSet.js';
import { shardRanges } from '../../src/sharding/server/shardRanges.js';

const r = (start: bigint, end: bigint) => ({ start, end });

test('range sets: normalize merges touching and overlapping ranges; intersect, subtract, overlap, equality', (t) => {
  t.deepEqual(normalizeRanges([r(5n, 7n), r(0n, 2n), r(2n, 3n), r(6n, 9n), r(4n, 4n)]), [r(0n, 3n), r(5n, 9n)]);
  t.deepEqual(intersectRanges([r(0n, 3n), r(5n, 9n)], [r(2n, 6n)]), [r(2n, 3n), r(5n, 6n)]);
  t.deepEqual(subtractRanges([r(0n, 10n)], [r(2n, 3n), r(5n, 6n)]), [r(0n, 2n), r(3n, 5n), r(6n, 10n)]);
  t.deepEqual(subtractRanges([r(0n, 10n)], [r(0n, 10n)]), []);
  t.true(rangesOverlap([r(0n, 3n)], [r(2n, 4n)]));
  t.false(rangesOverlap([r(0n, 3n)], [r(3n, 4n)]), '[start, end): touching is not overlapping');
  t.true(sameRanges(normalizeRanges([r(0n, 1n), r(1n, 2n)]), [r(0n, 2n)]));
});

test('shardRanges: the members\' ranges cover the whole space exactly once, in equal shares, the same for any order', (t) => {
  for (const n of [1, 2, 3, 4, 7]) {
    const members = Array.from({ length: n }, (_, i) => `replica-${i}-${i * 7919}`);
    const ranges = shardRanges(members);
    t.deepEqual(shardRanges([...members].reverse()), ranges);
    const all = [...ranges.values()].flat();
    t.deepEqual(normalizeRanges(all), [r(0n, shardSpaceEnd)], `n=${n}: covered`);
    t.is(all.reduce((sum, x) => sum + (x.end - x.start), 0n), shardSpaceEnd, `n=${n}: no overlap`);
    const largest = Math.max(...[...ranges.values()].map(rangesFraction));
    t.true(largest <= Math.ceil(64 / n) / 64 + 1e-9, `n=${n}: at most ⌈64/n⌉ slices, got ${largest * 64}`);
  }
  t.deepEqual(shardRanges([]), new Map());
  t.throws(() => shardRanges(['a'], { buckets: 0 }), { message: /buckets must be an integer from 1 to 4096, got 0/ });
});

test('shardRanges: a member joining takes its share and moves little else', (t) => {
  const four = shardRanges(['a', 'b', 'c', 'd']);
  const five = shardRanges(['a', 'b', 'c', 'd', 'e']);
  let kept = 0;
  for (const m of ['a', 'b', 'c', 'd']) kept += rangesFraction(intersectRanges(four.get(m)!, five.get(m)!));
  t.true(1 - kept < 0.35, `moved ${1 - kept}`);
  t.true(rangesFraction(five.get('e')!) >= 12 / 64);
});
