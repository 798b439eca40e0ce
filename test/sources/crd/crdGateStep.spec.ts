import test from 'ava';
import { crdAvailability, type CrdObject } from '../../../src/sources/crd/crdAvailability.js';
import { crdGateStep, initialCrdGate, type CrdGateInput, type CrdGateState } from '../../../src/sources/crd/crdGateStep.js';

const target = { crd: 'gadgets.example.com', version: 'v1' };
const crd = (extra: { served?: Record<string, boolean>; established?: boolean; deleting?: boolean } = {}): CrdObject => ({
  metadata: { name: 'gadgets.example.com', ...(extra.deleting ? { deletionTimestamp: '2026-12-01T00:00:00Z' } : {}) },
  spec: { group: 'example.com', names: { plural: 'gadgets', kind: 'Gadget' }, versions: Object.entries(extra.served ?? { v1: true }).map(([name, served]) => ({ name, served })) },
  status: { conditions: [{ type: 'Established', status: extra.established === false ? 'False' : 'True' }] },
});
const seen = (object: CrdObject | undefined): CrdGateInput => ({ type: 'crd', availability: crdAvailability(object, target.version) });
const unknown = initialCrdGate;
const running: CrdGateState = { kind: 'running', crd: 'gadgets.example.com' };

/** Effects as short strings: `status CRD_MISSING(notFound)`, `start gadgets`, `stop`, `empty`. */
function run(state: CrdGateState, input: CrdGateInput): [string, string[]] {
  const step = crdGateStep(state, input, target);
  const effects = step.effects.map((e) =>
    e.type === 'status' ? `status ${e.status.type}${e.status.type === 'CRD_MISSING' ? `(${e.status.reason})` : ''}` : e.type === 'start' ? `start ${e.plural ?? '(as asked)'}` : e.type,
  );
  return [step.state.kind, effects];
}

const rows: Array<[string, CrdGateState, CrdGateInput, [string, string[]]]> = [
  ['unknown, no CRD: wait and say so', unknown, seen(undefined), ['waiting', ['status CRD_MISSING(notFound)']]],
  ['unknown, CRD not established: wait', unknown, seen(crd({ established: false })), ['waiting', ['status CRD_MISSING(notEstablished)']]],
  ['unknown, CRD ready: start under its plural', unknown, seen(crd()), ['running', ['status CRD_ESTABLISHED', 'start gadgets']]],
  ['unknown, version not served', unknown, seen(crd({ served: { v1: false, v2: true } })), ['waiting', ['status CRD_VERSION_NOT_SERVED']]],
  ['unknown, CRD watch refused: run as asked', unknown, { type: 'crdWatchUnavailable' }, ['ungated', ['start (as asked)']]],
  ['waiting, the same again: nothing told twice', { kind: 'waiting', told: 'notFound ' }, seen(undefined), ['waiting', []]],
  ['waiting, CRD ready: start', { kind: 'waiting', told: 'notFound ' }, seen(crd()), ['running', ['status CRD_ESTABLISHED', 'start gadgets']]],
  ['running, still ready (another CRD changed): nothing', running, seen(crd()), ['running', []]],
  ['running, CRD being deleted: keep watching its objects go', running, seen(crd({ deleting: true })), ['running', []]],
  ['running, CRD gone: stop, empty the cache, say removed', running, seen(undefined), ['waiting', ['stop', 'empty', 'status CRD_REMOVED']]],
  ['running, version no longer served: stop, keep the cache', running, seen(crd({ served: { v1: false, v2: true } })), ['waiting', ['stop', 'status CRD_VERSION_NOT_SERVED']]],
  ['running, CRD watch refused later: keep running', running, { type: 'crdWatchUnavailable' }, ['running', []]],
  ['waiting, CRD watch refused later: keep waiting', { kind: 'waiting', told: 'notFound ' }, { type: 'crdWatchUnavailable' }, ['waiting', []]],
  ['ungated: whatever the CRD does', { kind: 'ungated' }, seen(undefined), ['ungated', []]],
];
for (const [name, state, input, expected] of rows) test(`crdGateStep: ${name}`, (t) => t.deepEqual(run(state, input), expected));

test('crdGateStep: statuses name the CRD, the version and what is served, in a sentence', (t) => {
  const notServed = crdGateStep(running, seen(crd({ served: { v1: false, v2: true } })), target).effects[1]!;
  t.like(notServed, {
    type: 'status',
    status: { type: 'CRD_VERSION_NOT_SERVED', crd: 'gadgets.example.com', version: 'v1', servedVersions: ['v2'], message: 'the CustomResourceDefinition gadgets.example.com does not serve v1 (it serves v2): waiting; the cache is kept as it was' },
  });
  const removed = crdGateStep(running, seen(undefined), target).effects[2]!;
  t.like(removed, { type: 'status', status: { type: 'CRD_REMOVED', crd: 'gadgets.example.com', servedVersions: [] } });
});

test('crdAvailability: a CRD without a plural for a served version is not ready', (t) => {
  const broken: CrdObject = { ...crd(), spec: { group: 'example.com', names: {}, versions: [{ name: 'v1', served: true }] } };
  t.is(crdAvailability(broken, 'v1').state, 'versionNotServed');
});
