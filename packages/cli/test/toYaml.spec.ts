/* toYaml is held to kubectl's own output in watchPipe.spec.ts; these are the shapes one by one. */
import test from 'ava';
import { goYamlKeyOrder, toYaml } from '../src/toYaml.js';

test('maps, sequences at their key\'s indentation, nested sequences, empty ones', (t) => {
  t.is(
    toYaml({ spec: { containers: [{ name: 'a', ports: [{ port: 80 }] }, { name: 'b' }], empty: {}, none: [], grid: [[1, 2], [3]] }, kind: 'Pod', n: null, ok: true }),
    [
      'kind: Pod',
      '"n": null', // n is a YAML 1.1 boolean, so go-yaml quotes it, key or not
      'ok: true',
      'spec:',
      '  containers:',
      '  - name: a',
      '    ports:',
      '    - port: 80',
      '  - name: b',
      '  empty: {}',
      '  grid:',
      '  - - 1',
      '    - 2',
      '  - - 3',
      '  none: []',
      '',
    ].join('\n'),
  );
});

test('strings: plain, single-quoted for indicators, double-quoted when they would read as something else', (t) => {
  const cases: Array<[string, string]> = [
    ['web', 'web'], ['a:b', 'a:b'], ['a: b', "'a: b'"], ['#x', "'#x'"], ['x #y', "'x #y'"], ["it's", "it's"], ["'q'", `'''q'''`],
    ['true', '"true"'], ['yes', '"yes"'], ['Off', '"Off"'], ['~', '"~"'], ['', '""'], ['1.5', '"1.5"'], ['0x1F', '"0x1F"'], ['1_000', '"1_000"'],
    ['2026-01-02', '"2026-01-02"'], ['2026-11-29T11:55:00Z', '"2026-11-29T11:55:00Z"'], ['1.2.3', '1.2.3'], ['v1.34.0', 'v1.34.0'], ['- x', "'- x'"], ['-x', '-x'],
  ];
  for (const [value, written] of cases) t.is(toYaml({ k: value }), `k: ${written}\n`, value);
  t.is(toYaml({ k: 'one\ntwo' }), 'k: |-\n  one\n  two\n');
  t.is(toYaml({ k: 'one\n' }), 'k: |\n  one\n');
  t.is(toYaml({ k: 'x \ny' }), 'k: "x \\ny"\n', 'a space before a line break cannot be a literal block');
});

test('go-yaml\'s key order: digits as numbers, non-letters before letters', (t) => {
  t.deepEqual(['b', 'a10', 'A', 'a2', '_x', 'a', 'app.kubernetes.io/name', 'app'].sort(goYamlKeyOrder), ['_x', 'A', 'a', 'a2', 'a10', 'app', 'app.kubernetes.io/name', 'b']);
});
