import test from 'ava';
import { planShard, type ShardPlan, type ShardPlanInput } from '../../src/sharding/server/planShard.js';
import type { ShardClaim } from '../../src/sharding/server/shardClaim.js';

const r = (start: number, end: number) => ({ start: BigInt(start), end: BigInt(end) });
// Two members, a and b; a's target is [0, 10) ∪ [20, 30).
const targets = new Map([
  ['a', [r(0, 10), r(20, 30)]],
  ['b', [r(10, 20), r(30, 40)]],
]);
const V = 'view-ab';
const claim = (ranges: ReturnType<typeof r>[], view = V): ShardClaim => ({ view, ranges });
const base: ShardPlanInput = { targets, view: V, self: 'a', peers: [claim([r(10, 20)])], working: [r(0, 10)], written: claim([r(0, 10)]) };

const rows: Array<[string, Partial<ShardPlanInput>, ShardPlan]> = [
  ['not a live member yet: wait', { self: 'x' }, { type: 'wait' }],
  ['working beyond the target: shrink to the part inside it first', { working: [r(0, 15)], written: claim([r(0, 15)]) }, { type: 'shrink', working: [r(0, 10)] }],
  ['shrink comes before anything else, even with its view unwritten', { working: [r(5, 25)], written: undefined }, { type: 'shrink', working: [r(5, 10), r(20, 25)] }],
  ['a new view not written yet: announce it with the same ranges', { written: claim([r(0, 10)], 'old') }, { type: 'announce', claim: claim([r(0, 10)]) }],
  ['nothing written yet: announce', { written: undefined }, { type: 'announce', claim: claim([r(0, 10)]) }],
  ['a peer with another view: wait', { peers: [claim([r(10, 20)], 'old')] }, { type: 'wait' }],
  ['a peer that has written nothing: wait', { peers: [undefined] }, { type: 'wait' }],
  ['a peer still claims part of the gain: wait', { peers: [claim([r(25, 35)])] }, { type: 'wait' }],
  ['all agree and nobody claims the gain: claim the whole target', {}, { type: 'gain', claim: claim([r(0, 10), r(20, 30)]) }],
  ['working on the whole target: wait', { working: [r(0, 10), r(20, 30)], written: claim([r(0, 10), r(20, 30)]) }, { type: 'wait' }],
  ['from nothing (a new member): gain once agreed', { working: [], written: claim([]) }, { type: 'gain', claim: claim([r(0, 10), r(20, 30)]) }],
];
for (const [name, change, expected] of rows) {
  test(`planShard: ${name}`, (t) => {
    t.deepEqual(planShard({ ...base, ...change }), expected);
  });
}
