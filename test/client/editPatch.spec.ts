import test from 'ava';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertProperty } from '../helpers/assertProperty.js';
import { freeze, type Draft } from 'immer';
import { editPatch } from '../../src/client/editPatch.js';
import { ControllerError } from '../../src/errors.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { applyJsonPatch } from '../../src/testServer/jsonPatch.js';

interface Cm extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
  readonly spec?: { readonly list?: readonly unknown[] };
  readonly status?: { readonly phase?: string; readonly conditions?: readonly { readonly type: string; readonly status: string }[] };
}

const cm: Cm = freeze(
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'a', namespace: 'ns', resourceVersion: '7', finalizers: ['a', 'b', 'c'], labels: { 'app.kubernetes.io/name': 'x', 'a~b': 'y' } },
    data: { k: 'v' },
  },
  true,
);
const lock = { op: 'test', path: '/metadata/resourceVersion', value: '7' };

test('a change becomes a resourceVersion test and one operation; the base stays as it was', (t) => {
  const { object, operations } = editPatch(cm, (draft) => {
    draft.data!['k'] = 'w';
  });
  t.deepEqual(operations, [lock, { op: 'replace', path: '/data/k', value: 'w' }]);
  t.is(object.data?.['k'], 'w');
  t.is(cm.data?.['k'], 'v');
  t.true(Object.isFrozen(object));
});

test('pointer tokens are escaped: ~ as ~0, / as ~1', (t) => {
  const { operations } = editPatch(cm, (draft) => {
    draft.metadata!.labels!['app.kubernetes.io/name'] = 'z';
    delete draft.metadata!.labels!['a~b'];
    draft.metadata!.labels!['new/one~'] = '1';
  });
  t.deepEqual(operations.slice(1), [
    { op: 'replace', path: '/metadata/labels/app.kubernetes.io~1name', value: 'z' },
    { op: 'remove', path: '/metadata/labels/a~0b' },
    { op: 'add', path: '/metadata/labels/new~1one~0', value: '1' },
  ]);
  t.deepEqual(applyJsonPatch(cm, operations), JSON.parse(JSON.stringify(editPatch(cm, (d) => {
    d.metadata!.labels!['app.kubernetes.io/name'] = 'z';
    delete d.metadata!.labels!['a~b'];
    d.metadata!.labels!['new/one~'] = '1';
  }).object)));
});

test('arrays: appends add at explicit indexes, a shrink removes from the end down, a splice replaces the shifted tail', (t) => {
  const ops = (recipe: (draft: Draft<Cm>) => void) => editPatch(cm, recipe).operations.slice(1);
  t.deepEqual(ops((d) => void d.metadata!.finalizers!.push('d')), [{ op: 'add', path: '/metadata/finalizers/3', value: 'd' }]);
  t.deepEqual(ops((d) => void (d.metadata!.finalizers!.length = 1)), [
    { op: 'remove', path: '/metadata/finalizers/2' },
    { op: 'remove', path: '/metadata/finalizers/1' },
  ]);
  t.deepEqual(ops((d) => void d.metadata!.finalizers!.splice(0, 1)), [
    { op: 'replace', path: '/metadata/finalizers/0', value: 'b' },
    { op: 'replace', path: '/metadata/finalizers/1', value: 'c' },
    { op: 'remove', path: '/metadata/finalizers/2' },
  ]);
  for (const recipe of [(d: Draft<Cm>) => void d.metadata!.finalizers!.splice(1, 1), (d: Draft<Cm>) => void d.metadata!.finalizers!.unshift('z')]) {
    const { object, operations } = editPatch(cm, recipe);
    t.deepEqual(applyJsonPatch(cm, operations), JSON.parse(JSON.stringify(object)));
  }
});

test('an edit that changes nothing gives no operations at all (not even the test)', (t) => {
  const noOps: ((draft: Draft<Cm>) => void)[] = [
    () => undefined,
    (d) => void (d.data!['k'] = 'v'),
    (d) => void (d.metadata!.finalizers = ['a', 'b', 'c']),
    (d) => {
      delete d.data!['k'];
      d.data!['k'] = 'v';
    },
    (d) => {
      const last = d.metadata!.finalizers!.pop()!;
      d.metadata!.finalizers!.push(last);
    },
    (d) => void (d.metadata!.labels = { 'app.kubernetes.io/name': 'x', 'a~b': 'y' }),
  ];
  for (const recipe of noOps) {
    const result = editPatch(cm, recipe);
    t.deepEqual(result.operations, []);
    t.is(result.object, cm, 'the base itself comes back');
  }
});

test('assigning undefined removes the field; a new field set to undefined is nothing', (t) => {
  const { operations } = editPatch(cm, (d) => {
    (d.data as Record<string, string | undefined>)['k'] = undefined;
    (d.data as Record<string, string | undefined>)['never'] = undefined;
  });
  t.deepEqual(operations, [lock, { op: 'remove', path: '/data/k' }]);
});

test('refused: a recipe that returns a new object, Map and Set values', (t) => {
  const replaced = t.throws(() => editPatch(cm, (() => ({ metadata: { name: 'b' } })) as unknown as (draft: Draft<Cm>) => void), { instanceOf: ControllerError });
  t.is(replaced?.reason, 'invalidEdit');
  t.regex(replaced!.message, /returned a new object/);
  const map = t.throws(() => editPatch(cm, (d) => void ((d as unknown as { spec: unknown }).spec = { m: new Map([['a', 1]]) })), { instanceOf: ControllerError });
  t.regex(map!.message, /Map or Set at \/spec/);
});

test('within: a status edit that also changes the spec is refused, naming the path', (t) => {
  const ok = editPatch(cm, (d) => void ((d as { status?: unknown }).status = { phase: 'Ready' }), { within: 'status' });
  t.deepEqual(ok.operations, [lock, { op: 'add', path: '/status', value: { phase: 'Ready' } }]);
  const error = t.throws(
    () =>
      editPatch(
        cm,
        (d) => {
          (d as { status?: unknown }).status = { phase: 'Ready' };
          d.data!['k'] = 'x';
        },
        { within: 'status' },
      ),
    { instanceOf: ControllerError },
  );
  t.is(error?.reason, 'invalidEdit');
  t.regex(error!.message, /also changed \/data\/k/);
});

test('without the resourceVersion lock, each touched array is tested as read instead', (t) => {
  const { operations } = editPatch(
    cm,
    (d) => {
      d.metadata!.finalizers!.splice(d.metadata!.finalizers!.indexOf('b'), 1);
      d.data!['k'] = 'x';
    },
    { optimisticLock: false },
  );
  t.deepEqual(operations, [
    { op: 'test', path: '/metadata/finalizers', value: ['a', 'b', 'c'] },
    { op: 'replace', path: '/data/k', value: 'x' },
    { op: 'replace', path: '/metadata/finalizers/1', value: 'c' },
    { op: 'remove', path: '/metadata/finalizers/2' },
  ]);
});

test('the lock needs a resourceVersion: a TypeError that says how to do without', (t) => {
  const { metadata, ...rest } = cm;
  const noRv = { ...rest, metadata: { name: metadata!.name } };
  t.throws(() => editPatch(noRv, (d) => void (d.metadata!.name = 'b')), { instanceOf: TypeError, message: /optimisticLock: false/ });
});

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), tie('object'), tie('array')),
  object: fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
  array: fc.array(tie('value'), { maxLength: 4 }),
})) as unknown as { value: fc.Arbitrary<unknown>; object: fc.Arbitrary<Record<string, unknown>> };

type Edit = { kind: 'set'; path: string[]; value: unknown } | { kind: 'delete'; path: string[] } | { kind: 'push'; path: string[]; value: unknown } | { kind: 'splice'; path: string[]; at: number };

/** Applies an edit along existing containers of the draft; skips it when the path does not lead anywhere. */
function applyEdit(draft: Record<string, unknown>, edit: Edit): void {
  let container: unknown = draft;
  for (const key of edit.path.slice(0, -1)) {
    if (container === null || typeof container !== 'object' || !Object.prototype.hasOwnProperty.call(container, key)) return;
    container = (container as Record<string, unknown>)[key];
  }
  if (container === null || typeof container !== 'object') return;
  const last = edit.path[edit.path.length - 1]!;
  const target = container as Record<string, unknown>;
  if (Array.isArray(container)) {
    const index = Number(last);
    if (edit.kind === 'push') return void container.push(edit.value);
    if (edit.kind === 'splice' && container.length > 0) return void container.splice(edit.at % container.length, 1);
    if (edit.kind === 'set' && Number.isInteger(index) && index >= 0 && index < container.length) container[index] = edit.value;
    return;
  }
  if (edit.kind === 'set') target[last] = edit.value;
  else if (edit.kind === 'delete') delete target[last];
  else if (edit.kind === 'push' && Array.isArray(target[last])) (target[last] as unknown[]).push(edit.value);
  else if (edit.kind === 'splice' && Array.isArray(target[last]) && (target[last] as unknown[]).length > 0) (target[last] as unknown[]).splice(edit.at % (target[last] as unknown[]).length, 1);
}

test('property: applying the operations to the base gives exactly the edited object, with and without the lock', (t) => {
  const key = fc.oneof(fc.constantFrom('a', 'b', 'x/y', '~0', '0', '1'), fc.string({ maxLength: 3 }));
  const path = fc.array(key, { minLength: 1, maxLength: 3 });
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), path, value: json.value }),
    fc.record({ kind: fc.constant('delete' as const), path }),
    fc.record({ kind: fc.constant('push' as const), path, value: json.value }),
    fc.record({ kind: fc.constant('splice' as const), path, at: fc.nat(5) }),
  );
  assertProperty(
    t,
    fc.property(json.object, fc.array(edit, { maxLength: 6 }), fc.boolean(), (body, edits, locked) => {
      const base = freeze({ ...body, metadata: { name: 'n', resourceVersion: '1' } }, true) as KubeObject;
      const { object, operations } = editPatch(base, (draft) => edits.forEach((e) => applyEdit(draft as Record<string, unknown>, e)), { optimisticLock: locked });
      const expected: unknown = JSON.parse(JSON.stringify(object));
      assert.deepEqual(applyJsonPatch(JSON.parse(JSON.stringify(base)), JSON.parse(JSON.stringify(operations))), expected);
      if (operations.length === 0) assert.deepEqual(JSON.parse(JSON.stringify(base)), expected);
    }),
    { numRuns: 300 },
  );
});
