import test from 'ava';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertProperty } from '../../helpers/assertProperty.js';
import { createListBodyParser } from '../../../src/sources/http/listBodyParser.js';

/** Feeds `body` to a parser in chunks of `size` bytes; returns what onHead saw, when, and the result. Streams from the first byte unless `streamAfter` says otherwise. */
function feed(body: string | Buffer, size: number, streamAfter = 0): { heads: unknown[]; value: unknown; headAtByte: number } {
  const heads: unknown[] = [];
  let fed = 0;
  let headAtByte = -1;
  const parser = createListBodyParser((head) => {
    heads.push(head);
    headAtByte = fed;
  }, streamAfter);
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  for (let i = 0; i < bytes.length; i += size) {
    fed = Math.min(bytes.length, i + size);
    parser.push(bytes.subarray(i, i + size));
  }
  return { heads, value: parser.end(), headAtByte };
}

/** Feeds `text` in chunks whose sizes cycle through `sizes`, taking items with `min` after each chunk (0: never); returns what was taken and the end. */
function feedCycling(text: string, sizes: readonly number[], min: number, streamAfter = 0): { taken: unknown[]; end: Record<string, unknown> & { items: unknown[] } } {
  const bytes = Buffer.from(text);
  const parser = createListBodyParser(undefined, streamAfter);
  const taken: unknown[] = [];
  for (let i = 0, k = 0; i < bytes.length; k++) {
    const size = sizes[k % sizes.length]!;
    parser.push(bytes.subarray(i, i + size));
    i += size;
    const part = min === 0 ? undefined : (parser.takeItems(min) as { items: unknown[] } | undefined);
    if (part !== undefined) taken.push(...part.items);
  }
  return { taken, end: parser.end() as Record<string, unknown> & { items: unknown[] } };
}

const list = `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"abc"},"items":[${Array.from({ length: 50 }, (_, i) => `{"metadata":{"name":"c${i}"}}`).join(',')}]}`;

test('the head comes once, as soon as "items":[ has arrived, whatever the chunking, streamed or kept whole; the list equals JSON.parse of the body', (t) => {
  for (const [size, streamAfter] of [1, 3, 7, 8, 9, 64, 100_000].flatMap((size): [number, number][] => [[size, 0], [size, 200], [size, 4 << 20]])) {
    const { heads, value, headAtByte } = feed(list, size, streamAfter);
    t.deepEqual(heads, [{ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7', continue: 'abc' }, items: [] }], `chunks of ${size}`);
    t.deepEqual(value, JSON.parse(list), `chunks of ${size}`);
    // Never later than the chunk that completes `"items":[`.
    t.true(headAtByte <= list.indexOf('"items":') + 9 + size, `chunks of ${size}: head at byte ${headAtByte}`);
  }
});

test('a body without a parsable head before "items", or whose items are not an array, is parsed whole (no head)', (t) => {
  const odd = `{"metadata":{"x":{"items":1}},"items":[]}`;
  const a = feed(odd, 5);
  t.deepEqual(a.heads, [], 'the first "items": is a nested key: the prefix does not parse');
  t.deepEqual(a.value, { metadata: { x: { items: 1 } }, items: [] });
  const b = feed('{"kind":"Status","code":200}', 4);
  t.deepEqual(b.heads, []);
  t.deepEqual(b.value, { kind: 'Status', code: 200 });
  const c = feed('{"kind":"Status","items":"nope"}', 3);
  t.deepEqual(c.heads, []);
  t.deepEqual(c.value, { kind: 'Status', items: 'nope' });
  const d = feed(`{"x":"${'y'.repeat(70_000)}","items":[1]}`, 1000);
  t.deepEqual(d.heads, [], 'no "items": in the first 64 KiB');
  t.deepEqual((d.value as { items: number[] }).items, [1]);
});

test('members after the items array still count, and items of any JSON type are kept', (t) => {
  const body = '{"kind":"XList","items":[ null , "a string" ,42,-1.5e3, true,[],[1,[2]],{"metadata":{}} ,"]}\\"[{"],"metadata":{"resourceVersion":"9"}}';
  for (const size of [1, 2, 5, 1000]) {
    t.deepEqual(feed(body, size).value, JSON.parse(body), `chunks of ${size}`);
    t.deepEqual(feed(body, size, 1 << 20).value, JSON.parse(body), `chunks of ${size}, kept whole`);
  }
});

test('a body that is not JSON, or ends inside the items, throws a SyntaxError', (t) => {
  for (const body of ['{"kind":"XList","items":[{"metadata":', '{"kind":"XList","items":[{"a":1} x {"b":2}]}', '{"kind":"XList","items":[{"a":1}]}garbage', '{"kind":"XList","items":[}]}', '{"kind":"XList","items":[{"a":}]}']) {
    for (const size of [1, 4, 1000]) {
      t.throws(() => feed(body, size), { instanceOf: SyntaxError }, `${body} in chunks of ${size}`);
      t.throws(() => feed(body, size, 1 << 20), { instanceOf: SyntaxError }, `${body} in chunks of ${size}, kept whole`);
    }
  }
});

test('property: for any list of JSON items (escapes, brackets in strings, multi-byte text) and any chunking, the result is JSON.parse of the body', (t) => {
  const item = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' });
  assertProperty(
    t,
    fc.property(fc.array(item, { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }), fc.boolean(), fc.constantFrom(0, 50, 1 << 20), (items, sizes, spaced, streamAfter) => {
      const head = { kind: 'WidgetList', apiVersion: 'example.com/v1', metadata: { resourceVersion: '12' } };
      const text = spaced ? JSON.stringify({ ...head, items }, null, 1) : JSON.stringify({ ...head, items });
      assert.deepEqual(feedCycling(text, sizes, 0, streamAfter).end, JSON.parse(text));
    }),
    { numRuns: 300 },
  );
});

/** Feeds `body` in chunks of `size`, taking items with `min` after every chunk; returns the parts taken and the end. */
function feedTaking(body: string, size: number, min: number, streamAfter = 0): { parts: Array<Record<string, unknown>>; end: { items: unknown[] } & Record<string, unknown> } {
  const parser = createListBodyParser(undefined, streamAfter);
  const bytes = Buffer.from(body);
  const parts: Array<Record<string, unknown>> = [];
  for (let i = 0; i < bytes.length; i += size) {
    parser.push(bytes.subarray(i, i + size));
    const part = parser.takeItems(min);
    if (part !== undefined) parts.push(part);
  }
  return { parts, end: parser.end() as { items: unknown[] } & Record<string, unknown> };
}

test('takeItems hands out the items of a streamed body as they are parsed: each part has the head and at least `min` items, the parts and the end hold every item once, in order', (t) => {
  const whole = JSON.parse(list) as { items: unknown[] };
  for (const [size, min] of [[1, 1], [7, 5], [64, 10], [100, 1], [100_000, 1]] as const) {
    const { parts, end } = feedTaking(list, size, min);
    for (const part of parts) {
      t.like(part, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7', continue: 'abc' } }, `chunks of ${size}`);
      t.true((part['items'] as unknown[]).length >= min, `chunks of ${size}: a part of at least ${min}`);
    }
    t.deepEqual([...parts.flatMap((part) => part['items'] as unknown[]), ...end.items], whole.items, `chunks of ${size}`);
    t.deepEqual({ ...end, items: [] }, { ...whole, items: [] }, `chunks of ${size}: the end is the list's own`);
    if (size < 100) t.true(parts.length > 1, `chunks of ${size}: taken as they came (${parts.length} parts)`);
    if (size === 100_000) t.is(parts.length, 0, 'one chunk holds the array and its end: all of it is the end');
  }
});

test('takeItems takes nothing from a body kept whole, nor once the items array has ended', (t) => {
  const kept = feedTaking(list, 7, 1, 4 << 20);
  t.deepEqual(kept.parts, []);
  t.deepEqual(kept.end, JSON.parse(list));
  const parser = createListBodyParser(undefined, 0);
  parser.push(Buffer.from(list));
  t.is(parser.takeItems(1), undefined, 'the array ended in this chunk: its items are the end');
  t.is((parser.end() as { items: unknown[] }).items.length, 50);
});

test('property: taking items at any point of any chunking loses, repeats and reorders nothing', (t) => {
  const item = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' });
  assertProperty(
    t,
    fc.property(fc.array(item, { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 8 }), (items, sizes, min) => {
      const text = JSON.stringify({ kind: 'WidgetList', metadata: { resourceVersion: '3' }, items });
      const { taken, end } = feedCycling(text, sizes, min);
      assert.deepEqual([...taken, ...end.items], JSON.parse(text).items);
    }),
    { numRuns: 300 },
  );
});

/**
 * Lists as the apiserver writes them: objects that open with the same first key, which the marker
 * cutter cuts at. The generator puts that marker where a cut must not be trusted: nested arrays of
 * objects opening with the same key (`"ownerReferences":[{"apiVersion":…},{"apiVersion":…}]`),
 * strings holding its text, items with another first key or of another type, items larger than
 * the chunks, and members after the items array that repeat it.
 */
function markedList(): fc.Arbitrary<{ text: string; sizes: number[] }> {
  const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('},{"metadata":', '},{"apiVersion":"v1"}', '}],"x":[{', '\\"},{'));
  const listOf = (key: string): fc.Arbitrary<unknown[]> => {
    const nested = fc.array(fc.record({ [key]: text, name: text }), { maxLength: 4 });
    const object = fc.record({ first: fc.oneof(text, fc.jsonValue({ maxDepth: 2 })), nested, data: fc.dictionary(text, text, { maxKeys: 3 }), pad: fc.nat({ max: 3000 }) }).map(({ first, nested, data, pad }) => ({
      [key]: first,
      spec: { refs: nested, data },
      ...(pad > 2500 ? { big: 'x'.repeat(pad * 4) } : {}),
    }));
    return fc.array(fc.oneof({ arbitrary: object, weight: 8 }, { arbitrary: fc.record({ other: text, [key]: text }), weight: 1 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 }), { maxLength: 40 });
  };
  return fc
    .record({
      key: fc.constantFrom('metadata', 'apiVersion', 'kind'),
      after: fc.boolean(),
      sizes: fc.array(fc.integer({ min: 1, max: 600 }), { minLength: 1, maxLength: 12 }),
    })
    .chain(({ key, after, sizes }) =>
      listOf(key).map((items) => {
        const body = { kind: 'WidgetList', metadata: { resourceVersion: '5' }, items, ...(after ? { later: [{ [key]: 1 }, { [key]: 2 }] } : {}) };
        return { text: JSON.stringify(body), sizes };
      }),
    );
}

test('property: lists of objects opening with one key (the marker cutter), with that marker nested, in strings, after the array, and in items larger than a chunk, parse to JSON.parse of the body, taken in parts or not', (t) => {
  assertProperty(
    t,
    fc.property(markedList(), fc.integer({ min: 0, max: 6 }), ({ text, sizes }, min) => {
      const { taken, end } = feedCycling(text, sizes, min);
      const whole = JSON.parse(text) as { items: unknown[] };
      assert.deepEqual([...taken, ...end.items], whole.items);
      assert.deepEqual({ ...end, items: [] }, { ...whole, items: [] });
    }),
    { numRuns: 400 },
  );
});

test('separators between items are checked wherever the chunks fall: a missing, doubled, leading or trailing comma throws a SyntaxError', (t) => {
  const bodies = ['[,]', '[1,]', '[,1]', '[{"a":1},,{"b":2}]', '[{"a":1} {"b":2}]', '[{"a":1}{"b":2}]', '["a""b"]', '[1 2]', '[[1][2]]', '[{"a":1},]'].map((items) => `{"kind":"XList","items":${items}}`);
  for (const body of bodies) {
    for (const size of [1, 2, 3, 5, 8, 13, 1000]) {
      t.throws(() => feed(body, size), { instanceOf: SyntaxError }, `${body} in chunks of ${size}`);
      t.throws(() => feed(body, size, 1 << 20), { instanceOf: SyntaxError }, `${body} in chunks of ${size}, kept whole`);
    }
  }
  const good = '{"kind":"XList","items":[ {"a":1} , {"b":2},"c" ,3 ,[4],true ]}';
  for (const size of [1, 2, 3, 5, 1000]) t.deepEqual(feed(good, size).value, JSON.parse(good), `chunks of ${size}`);
});

test('property: a list body with one byte deleted, replaced or inserted is accepted exactly when JSON.parse accepts it, and then equals it, however it is chunked', (t) => {
  const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('delete', 'replace', 'insert'), byte: fc.constantFrom(...Buffer.from(',:[]{}" \\1an')) });
  assertProperty(
    t,
    fc.property(markedList(), edit, ({ text, sizes }, { at, kind, byte }) => {
      const bytes = Buffer.from(text);
      const i = at % (bytes.length + 1);
      const edited = Buffer.concat([bytes.subarray(0, i), kind === 'delete' ? Buffer.alloc(0) : Buffer.from([byte]), bytes.subarray(kind === 'insert' ? i : i + 1)]);
      const body = Buffer.from(edited.toString()).equals(edited) ? edited.toString() : text; // an edit that breaks a multi-byte character: the body as it was
      let expected: unknown;
      try {
        expected = JSON.parse(body);
      } catch {
        assert.throws(() => feedCycling(body, sizes, 2), SyntaxError, body);
        return;
      }
      const { taken, end } = feedCycling(body, sizes, 2);
      const items = (expected as { items?: unknown }).items;
      if (Array.isArray(items) && taken.length > 0) assert.deepEqual([...taken, ...end.items], items);
      else assert.deepEqual(end, expected);
    }),
    { numRuns: 600 },
  );
});

test('a large list whose items repeat the marker in nested arrays (most cuts fail, the cutter gives the body to the scanner) parses to JSON.parse of it, in parts', (t) => {
  const item = (i: number): unknown => ({ apiVersion: 'x.io/v1', kind: 'XR', metadata: { name: `x${i}` }, spec: { refs: Array.from({ length: 20 }, (_, j) => ({ apiVersion: 'aws.io/v1', name: `b${i}-${j}` })) } });
  const text = JSON.stringify({ kind: 'XRList', apiVersion: 'x.io/v1', metadata: { resourceVersion: '8' }, items: Array.from({ length: 2000 }, (_, i) => item(i)) });
  t.true(text.length > 2 * 256 * 1024, 'larger than the failed cuts the cutter allows');
  const whole = JSON.parse(text) as { items: unknown[] };
  for (const sizes of [[1500], [65536], [700, 3000, 41]]) {
    const { taken, end } = feedCycling(text, sizes, 100);
    t.deepEqual([...taken, ...end.items], whole.items, `chunks of ${sizes.join(', ')}`);
    t.true(taken.length > 0, 'taken as they came');
  }
});

test('the marker cutter throws on what is not JSON as the scanner does: garbage after a cut item, a body ending inside an item, an unclosed array', (t) => {
  const item = (i: number): string => `{"metadata":{"name":"c${i}"},"data":{"k":"${'v'.repeat(40)}"}}`;
  const items = Array.from({ length: 40 }, (_, i) => item(i));
  const bodies = [
    `{"kind":"XList","items":[${items.join(',')},{"metadata":x}]}`,
    `{"kind":"XList","items":[${items.join(',')},{"metadata":{"name":"late"}`,
    `{"kind":"XList","items":[${items.join(',')}`,
    `{"kind":"XList","items":[${items.slice(0, 20).join(',')},{"metadata":{}}}},${items.slice(20).join(',')}]}`,
  ];
  for (const body of bodies) {
    for (const size of [50, 97, 300, 1024]) t.throws(() => feed(body, size), { instanceOf: SyntaxError }, `${body.slice(-40)} in chunks of ${size}`);
  }
  const good = `{"kind":"XList","items":[${items.join(',')}]}`;
  for (const size of [50, 97, 300, 1024]) t.deepEqual(feed(good, size).value, JSON.parse(good), `chunks of ${size}`);
});
