import test from 'ava';
import fc from 'fast-check';
import { assertProperty } from '../../helpers/assertProperty.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { estimateHeapBytes } from '../../../src/metrics/estimateHeapBytes.js';
import { heapBytesChange } from '../../../src/metrics/heapBytesChange.js';
import { prepareForStore } from '../../../src/store/applyBatch.js';
import { intern, internStrings } from '../../../src/store/internal/internStrings.js';
import { internedPlaces } from '../../../src/store/internedPlaces.js';

/** A ConfigMap as kube-apiserver serves it, parsed on its own (its strings are its own copies). */
const parsed = (i: number): Record<string, unknown> =>
  JSON.parse(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `config-${i}`,
        namespace: 'team-1',
        uid: `uid-${i}`,
        creationTimestamp: '2026-12-03T08:00:00Z',
        labels: { 'app.kubernetes.io/instance': 'checkout-service-production-eu-west', 'app.kubernetes.io/name': `service-${i % 3}` },
        annotations: { 'checksum/config': `unique-annotation-value-${i}` },
        managedFields: [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', time: '2026-12-03T08:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }],
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'checkout-service-7d9f8b6c5d', uid: '1f0e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b' }],
      },
      data: { key: `value-${i}` },
    }),
  ) as Record<string, unknown>;

test('internStrings changes no value: any JSON keeps its value, frozen parts are left alone', (t) => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 })),
  })).value;
  const object = fc.record({ metadata: fc.record({ labels: fc.dictionary(fc.string(), json), managedFields: fc.array(json), ownerReferences: json, creationTimestamp: json }, { requiredKeys: [] }), data: json }, { requiredKeys: [] });
  assertProperty(
    t,
    fc.property(object, (value) => {
      const before = JSON.stringify(value);
      internStrings(value);
      return JSON.stringify(value) === before;
    }),
  );
  const frozen = Object.freeze({ metadata: Object.freeze({ labels: Object.freeze({ a: 'a frozen label value' }) }) });
  t.notThrows(() => internStrings(frozen));
  t.deepEqual(frozen, { metadata: { labels: { a: 'a frozen label value' } } });
});

test('a store entry keeps one copy of each repeated metadata string: 20,000 objects with the same long label values take measurably less heap', (t) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heapOf = (build: (i: number) => unknown): number => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = Array.from({ length: 20_000 }, (_, i) => build(i));
    gc();
    const bytes = process.memoryUsage().heapUsed - before;
    t.is(kept.length, 20_000);
    return bytes;
  };
  const asParsed = heapOf((i) => Object.freeze(parsed(i)));
  const asStored = heapOf((i) => prepareForStore(parsed(i)));
  // Per object the interned strings take 352 bytes (the last test's sum): ~6.7 MiB over 20,000
  // objects. Without interning the two differ by ~0.6 MiB (the shared `{}` of fieldsV1); the
  // threshold is 150 bytes an object.
  t.true(asParsed - asStored > 20_000 * 150, `parsed ${asParsed} B, stored ${asStored} B`);
});

test('intern: the pool gives back an equal string, whatever its length', (t) => {
  for (const text of ['', 'short', 'a label value of some length', 'x'.repeat(300)]) t.is(intern(text.slice()), text);
});

test('estimateHeapBytes with the interned places counts their strings as shared; heapBytesChange agrees', (t) => {
  const a = parsed(1);
  const b = parsed(2);
  const unplaced = estimateHeapBytes(a);
  const placed = estimateHeapBytes(a, internedPlaces);
  // Label values `checkout-service-production-eu-west` (56) and `service-1` (32), creationTimestamp and
  // time (40 each), the manager (48), the owner's name (48), uid (56) and kind `ReplicaSet` (32).
  t.is(unplaced - placed, 56 + 32 + 40 + 40 + 48 + 48 + 56 + 32);
  t.is(heapBytesChange(b, a, internedPlaces), estimateHeapBytes(b, internedPlaces) - estimateHeapBytes(a, internedPlaces));
});

test('an object a transform made with a read-only label value or a getter still enters the store, unchanged', (t) => {
  const object = parsed(1) as { metadata: { labels: Record<string, string>; creationTimestamp?: string } };
  Object.defineProperty(object.metadata.labels, 'app.kubernetes.io/name', { value: 'a read-only label value', writable: false, enumerable: true });
  Object.defineProperty(object.metadata, 'creationTimestamp', { get: () => '2026-12-03T08:00:00Z', enumerable: true, configurable: true });
  const before = JSON.stringify(object);
  const stored = prepareForStore(object);
  t.is(JSON.stringify(stored), before);
  t.true(Object.isFrozen(stored.metadata.labels));
});
