import test from 'ava';
import { CliError } from '../../src/cli/cliError.js';
import { compileJsonPath } from '../../src/cli/compileJsonPath.js';

const pod = {
  metadata: { name: 'web-1', labels: { app: 'web', 'app.kubernetes.io/name': 'shop' } },
  spec: { nodeName: 'node-1', containers: [{ name: 'a', image: 'nginx:1' }, { name: 'b', image: 'envoy:2' }] },
  status: { phase: 'Running', podIP: '' },
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

test('anything outside the subset is a usage error naming the path and position', (t) => {
  for (const bad of ['.spec.', '.spec[', ".a['b]", '.a[?(@.x)]', '.a..b', 'spec nodeName', '.a[1:2]']) {
    const error = t.throws(() => compileJsonPath(bad), { instanceOf: CliError }, bad);
    t.is(error?.exitCode, 2);
    t.true(error?.message.startsWith(`[informer] invalid JSONPath ${JSON.stringify(bad)}`), error?.message);
  }
});
