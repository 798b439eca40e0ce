import test from 'ava';
import { CliError } from '../../src/cli/cliError.js';
import { parseCliArgs } from '../../src/cli/parseCliArgs.js';

test('watch with every option', (t) => {
  t.deepEqual(
    parseCliArgs([
      'watch', 'deployments.apps', '-n', 'prod', '-l', 'app=web,tier!=db', '--field-selector', 'metadata.name=x',
      '--index', 'node=.spec.nodeName', '--index', 'image=.spec.containers[*].image', '--metadata-only', '-o', 'json',
      '--kubeconfig', '/tmp/kc', '--context', 'kind',
    ]),
    {
      command: 'watch',
      resource: 'deployments.apps',
      namespace: 'prod',
      allNamespaces: false,
      labelSelector: 'app=web,tier!=db',
      fieldSelector: 'metadata.name=x',
      indexes: [
        { name: 'node', path: '.spec.nodeName' },
        { name: 'image', path: '.spec.containers[*].image' },
      ],
      metadataOnly: true,
      output: 'json',
      kubeconfig: '/tmp/kc',
      context: 'kind',
    },
  );
});

test('watch defaults; long and inline forms', (t) => {
  t.deepEqual(parseCliArgs(['watch', 'po']), { command: 'watch', resource: 'po', allNamespaces: false, indexes: [], metadataOnly: false, output: 'table' });
  t.like(parseCliArgs(['watch', '--all-namespaces', '--selector=app=web', 'pods']), { command: 'watch', resource: 'pods', allNamespaces: true, labelSelector: 'app=web' });
  t.like(parseCliArgs(['watch', 'pods', '-A', '--index=n=.spec.nodeName']), { indexes: [{ name: 'n', path: '.spec.nodeName' }] });
});

test('demo defaults and options', (t) => {
  t.deepEqual(parseCliArgs(['demo']), { command: 'demo', pods: 5000, rate: 300, output: 'table' });
  t.deepEqual(parseCliArgs(['demo', '--pods', '300', '--rate', '50', '--seconds', '2.5', '-o', 'json']), { command: 'demo', pods: 300, rate: 50, seconds: 2.5, output: 'json' });
});

test('help and version', (t) => {
  for (const argv of [[], ['help'], ['--help'], ['-h'], ['watch', '--help'], ['demo', '-h']]) t.deepEqual(parseCliArgs(argv), { command: 'help' }, argv.join(' '));
  t.deepEqual(parseCliArgs(['--version']), { command: 'version' });
});

const mistakes: Array<[string[], RegExp]> = [
  [['frobnicate'], /unknown command "frobnicate"/],
  [['watch'], /watch needs a resource/],
  [['watch', 'pods', 'nodes'], /watch takes one resource/],
  [['watch', 'pods', '-n', 'x', '-A'], /either -n <namespace> or -A/],
  [['watch', 'pods', '--frob'], /Unknown option '--frob'/],
  [['watch', 'pods', '-n'], /'-n, --namespace <value>' argument missing/],
  [['watch', 'pods', '-o', 'yaml'], /unsupported output "yaml"/],
  [['watch', 'pods', '--index', 'node'], /--index wants <name>=<jsonpath>/],
  [['watch', 'pods', '--index', '=.spec'], /--index wants <name>=<jsonpath>/],
  [['watch', 'pods', '-n', ''], /--namespace must not be empty/],
  [['demo', '--pods', 'many'], /--pods wants a whole number/],
  [['demo', '--pods', '-3'], /--pods/],
  [['demo', '--seconds', '0'], /--seconds wants a positive number/],
  [['demo', 'extra'], /demo takes no arguments/],
];

for (const [argv, message] of mistakes) {
  test(`usage error: ${JSON.stringify(argv)}`, (t) => {
    const error = t.throws(() => parseCliArgs(argv), { instanceOf: CliError });
    t.is(error?.exitCode, 2);
    t.regex(error?.message ?? '', /^\[informer\] /);
    t.regex(error?.message ?? '', message);
    t.regex(error?.message ?? '', /see rx-informer --help/);
  });
}
