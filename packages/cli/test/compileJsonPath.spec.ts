import test from 'ava';
import { compileJsonPath } from '../src/compileJsonPath.js';

const pod = {
  metadata: { name: 'web-1', labels: { app: 'web', 'app.kubernetes.io/name': 'shop' } },
  spec: { nodeName: 'node-1', containers: [{ name: 'a', image: 'nginx:1' }, { name: 'b', image: 'envoy:2' }] },
  status: {
    phase: 'Running',
    podIP: '',
    conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'False', reason: 'ContainersNotReady' }],
    containerStatuses: [{ name: 'a', restartCount: 0, ready: true }, { name: 'b', restartCount: 3, ready: false }],
  },
};

const cases: Array<[string, unknown[]]> = [
  ['.spec.nodeName', ['node-1']],
  ['spec.nodeName', ['node-1']],
  ['$.spec.nodeName', ['node-1']],
  ['{.spec.nodeName}', ['node-1']],
  ['.spec.containers[0].image', ['nginx:1']],
  ['.spec.containers[1].name', ['b']],
  ['.spec.containers[-1].name', ['b']],
  ['.spec.containers[2].name', []],
  ['.spec.containers[*].image', ['nginx:1', 'envoy:2']],
  ['.spec.containers.*.name', ['a', 'b']],
  [".metadata.labels['app.kubernetes.io/name']", ['shop']],
  ['.metadata.labels["app"]', ['web']],
  ['.metadata.labels[*]', ['web', 'shop']],
  ['.spec.missing.deeper', []],
  ['.spec.nodeName.length', []],
  ['.status.podIP', ['']],
  ['.metadata.name[0]', []],
  ['.', [pod]],
  // Slices, recursive descent and filters, as CRD printer columns write them.
  ['.spec.containers[0:1].name', ['a']],
  ['.spec.containers[1:].name', ['b']],
  ['.spec.containers[:-1].name', ['a']],
  ['..image', ['nginx:1', 'envoy:2']],
  ['.spec..name', ['a', 'b']],
  ['.status.conditions[?(@.type=="Ready")].status', ['False']],
  [".status.conditions[?(@.type == 'Ready')].reason", ['ContainersNotReady']],
  ['.status.conditions[?(@.type!="Ready")].type', ['Initialized']],
  ['.status.containerStatuses[?(@.restartCount>2)].name', ['b']],
  ['.status.containerStatuses[?(@.restartCount<=0)].name', ['a']],
  ['.status.containerStatuses[?(@.ready==true)].name', ['a']],
  ['.status.conditions[?(@.reason)].type', ['Ready']],
  ['.status.conditions[?(@.type=="Gone")].status', []],
];

for (const [path, expected] of cases) {
  test(`${path} → ${JSON.stringify(expected).slice(0, 40)}`, (t) => {
    t.deepEqual(compileJsonPath(path)(pod), expected);
  });
}

test('does not read inherited properties', (t) => {
  t.deepEqual(compileJsonPath('.constructor')({}), []);
  t.deepEqual(compileJsonPath('.__proto__')({}), []);
});

test('anything outside the subset is a SyntaxError naming the path and what is wrong', (t) => {
  for (const bad of ['.spec.', '.spec[', ".a['b]", '.a[?(x)]', '.a[?(@.x == y)]', 'spec nodeName', '.a[1:2:3]', '.a[(1)]']) {
    const error = t.throws(() => compileJsonPath(bad), { instanceOf: SyntaxError }, bad);
    t.true(error?.message.startsWith(`invalid JSONPath ${JSON.stringify(bad)}`), error?.message);
  }
});
