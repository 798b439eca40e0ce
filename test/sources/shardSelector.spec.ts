import test from 'ava';
import { readFileSync } from 'node:fs';
import { hashField } from '../../src/sources/hashField.js';
import { inShardRanges, parseShardSelector, shardSelectorMatches, shardSelectorOf, shardSpaceEnd } from '../../src/sources/shardSelector.js';

// Computed by Go 1.26's hash/fnv New64a, formatted %016x (apimachinery's sharding.HashField).
const vectors = JSON.parse(readFileSync(new URL('./fixtures/fnv1a64.vectors.json', import.meta.url), 'utf8')) as Array<[string, string]>;

for (const [input, expected] of vectors) {
  test(`hashField(${JSON.stringify(input)}) equals Go's FNV-1a 64`, (t) => {
    t.is(hashField(input), expected);
  });
}

test('the builder writes 16-digit bounds, 17 for 2^64, joined with ||', (t) => {
  t.is(
    shardSelectorOf([{ start: 0n, end: 1n << 63n }, { start: 0xabcn, end: shardSpaceEnd }], 'object.metadata.namespace'),
    "shardRange(object.metadata.namespace, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.namespace, '0x0000000000000abc', '0x10000000000000000')",
  );
});

test('the builder refuses no ranges, empty or inverted ranges, bounds outside the space, another field', (t) => {
  t.throws(() => shardSelectorOf([]), { message: /at least one range/ });
  t.throws(() => shardSelectorOf([{ start: 5n, end: 5n }]), { message: /0 <= start < end <= 2\^64, got 5\.\.5/ });
  t.throws(() => shardSelectorOf([{ start: 0n, end: shardSpaceEnd + 1n }]), { message: /0 <= start < end/ });
  t.throws(() => shardSelectorOf([{ start: -1n, end: 1n }]), { message: /0 <= start < end/ });
  t.throws(() => shardSelectorOf([{ start: 0n, end: 1n }], 'metadata.name' as never), { message: /field must be/ });
});

test('the parser reads back what the builder writes, and tolerates spacing, double quotes and parentheses', (t) => {
  const ranges = [{ start: 0n, end: 1n << 62n }, { start: 3n << 62n, end: shardSpaceEnd }];
  t.deepEqual(parseShardSelector(shardSelectorOf(ranges)), { field: 'object.metadata.uid', ranges });
  t.deepEqual(parseShardSelector(` ( shardRange( object . metadata.uid ,"0x0000000000000000",'0x4000000000000000') )||shardRange(object.metadata.uid, '0xc000000000000000', '0x10000000000000000') `), { field: 'object.metadata.uid', ranges });
});

const refused: Array<[string, RegExp]> = [
  ['', /empty/],
  ['   ', /empty/],
  ["shardRange(object.metadata.uid, '0x0', '0x8000000000000000')", /the start "0x0" must be 16 hex digits .*'0x0000000000000000'/],
  ["shardRange(object.metadata.uid, '0x0000000000000000', '0x20000000000000000')", /the end "0x20000000000000000" must be 16 hex digits/],
  ["shardRange(object.metadata.uid, '0x00000000000000000000', '0x8000000000000000')", /the start .* must be 16 hex digits/],
  ["shardRange(object.metadata.uid, '0x000000000000000A', '0x8000000000000000')", /lower-case hex/],
  ["shardRange(object.metadata.uid, '0000000000000000', '0x8000000000000000')", /must start with 0x/],
  ["shardRange(object.metadata.uid, 0, '0x8000000000000000')", /quoted string/],
  ["shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')", /field "object.metadata.name" is not supported/],
  ["shardRange(object.metadata.uid, '0x8000000000000000', '0x8000000000000000')", /start 0x8000000000000000 must be below the end/],
  ["shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') && true", /unexpected "&& true"/],
  ["shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000')", /same field/],
  ["labels(object.metadata.uid)", /expected "shardRange"/],
  ["shardRange(object.metadata.uid, '0x0000000000000000')", /expected ","/],
];
for (const [text, message] of refused) {
  test(`the parser refuses ${JSON.stringify(text)}`, (t) => {
    const error = t.throws(() => parseShardSelector(text), { instanceOf: TypeError, message });
    t.regex(error!.message, /^invalid shard selector: /);
  });
}

test('matching hashes the field and keeps [start, end): a range ending at a hash excludes it, one starting there includes it', (t) => {
  const uid = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
  const at = BigInt(`0x${hashField(uid)}`);
  const object = { metadata: { uid, namespace: 'default' } };
  t.true(shardSelectorMatches(parseShardSelector(shardSelectorOf([{ start: at, end: at + 1n }])), object));
  t.false(shardSelectorMatches(parseShardSelector(shardSelectorOf([{ start: 0n, end: at }])), object));
  t.true(shardSelectorMatches(parseShardSelector(shardSelectorOf([{ start: 0n, end: at }, { start: at, end: shardSpaceEnd }])), object));
  const ns = BigInt(`0x${hashField('default')}`);
  t.true(shardSelectorMatches(parseShardSelector(shardSelectorOf([{ start: ns, end: ns + 1n }], 'object.metadata.namespace')), object));
  t.false(inShardRanges([{ start: 0n, end: 1n }], hashField('')));
});
