import test from 'ava';
import { CliError } from '../src/cliError.js';
import { parseCliArgs, parseDuration } from '../src/parseCliArgs.js';
import { FlagError, parseFlags } from '../src/parseFlags.js';

const table = { output: 'table', watchEvents: false, noHeaders: false, noColor: false } as const;

test('watch with every option', (t) => {
  t.deepEqual(
    parseCliArgs([
      'watch', 'deployments.apps', '-n', 'prod', '-l', 'app=web,tier!=db', '--field-selector', 'metadata.name=x',
      '--index', 'node=.spec.nodeName', '--index', 'image=.spec.containers[*].image', '--metadata-only', '-o', 'json',
      '--output-watch-events', '--no-headers', '--no-color', '-w', '--request-timeout', '1m30s', '--kubeconfig', '/tmp/kc', '--context', 'kind',
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
      requestTimeoutMs: 90_000,
      output: 'json',
      watchEvents: true,
      noHeaders: true,
      noColor: true,
      kubeconfig: '/tmp/kc',
      context: 'kind',
    },
  );
});

test('watch defaults; long, inline and clustered forms', (t) => {
  t.deepEqual(parseCliArgs(['watch', 'po']), { command: 'watch', resource: 'po', allNamespaces: false, indexes: [], metadataOnly: false, requestTimeoutMs: 0, ...table });
  t.like(parseCliArgs(['watch', '--all-namespaces', '--selector=app=web', 'pods']), { command: 'watch', resource: 'pods', allNamespaces: true, labelSelector: 'app=web' });
  t.like(parseCliArgs(['watch', 'pods', '-A', '--index=n=.spec.nodeName']), { indexes: [{ name: 'n', path: '.spec.nodeName' }] });
  t.like(parseCliArgs(['watch', 'pods', '-wAowide']), { allNamespaces: true, output: 'wide' });
  t.like(parseCliArgs(['watch', 'pods', '-nprod', '-o=yaml']), { namespace: 'prod', output: 'yaml' });
  t.like(parseCliArgs(['watch', '-n', 'x', '-A', 'pods']), { allNamespaces: true, namespace: undefined }, '-A wins, as with kubectl');
  t.like(parseCliArgs(['watch', 'pods', '-n', '-A']), { namespace: '-A', allNamespaces: false }, 'a value is the next argument, whatever it looks like');
  t.like(parseCliArgs(['watch', '--', '-odd-name']), { resource: '-odd-name' });
});

test('demo defaults and options', (t) => {
  t.deepEqual(parseCliArgs(['demo']), { command: 'demo', pods: 5000, rate: 300, ...table });
  t.deepEqual(parseCliArgs(['demo', '--pods', '300', '--rate', '50', '--seconds', '2.5', '-o', 'wide', '--no-color']), { command: 'demo', pods: 300, rate: 50, seconds: 2.5, ...table, output: 'wide', noColor: true });
});

test('help and version', (t) => {
  for (const argv of [[], ['--help'], ['-h'], ['help']]) t.deepEqual(parseCliArgs(argv), { command: 'help' }, argv.join(' '));
  for (const argv of [['watch', '--help'], ['watch', 'pods', '-h'], ['help', 'watch']]) t.deepEqual(parseCliArgs(argv), { command: 'help', topic: 'watch' }, argv.join(' '));
  t.deepEqual(parseCliArgs(['demo', '-h']), { command: 'help', topic: 'demo' });
  t.deepEqual(parseCliArgs(['--version']), { command: 'version' });
});

test('--request-timeout takes kubectl\'s forms', (t) => {
  t.deepEqual(['0', '30', '2s', '1m30s', '500ms', '1h', '1.5s'].map(parseDuration), [0, 30_000, 2000, 90_000, 500, 3_600_000, 1500]);
  for (const bad of ['', 'soon', '2', '5x', '-1s']) if (bad !== '2') t.throws(() => parseDuration(bad), { instanceOf: CliError, message: /^error: Invalid timeout value/ }, bad);
});

const mistakes: Array<[string[], string]> = [
  [['frobnicate'], 'unknown command "frobnicate" for "rx-informer"'],
  [['watch'], 'you must specify the type of resource to watch'],
  [['watch', 'pods', 'nodes'], 'watch takes one resource, got "pods" "nodes"'],
  [['watch', 'pods', '--frob'], 'unknown flag: --frob'],
  [['watch', 'pods', '-n'], "flag needs an argument: 'n' in -n"],
  [['watch', 'pods', '-Az'], "unknown shorthand flag: 'z' in -Az"],
  [['watch', 'pods', '--metadata-only=maybe'], 'invalid argument "maybe" for "--metadata-only" flag: strconv.ParseBool: parsing "maybe": invalid syntax'],
  [['watch', 'pods', '--index', 'node'], '--index wants <name>=<jsonpath>'],
  [['watch', 'pods', '--index', '=.spec'], '--index wants <name>=<jsonpath>'],
  [['watch', 'pods', '-n', ''], '--namespace must not be empty'],
  [['watch', 'pods', '-w=false'], 'rx-informer watch always watches'],
  [['demo', '--pods', 'many'], 'invalid argument "many" for "--pods" flag'],
  [['demo', '--pods', '-3'], 'invalid argument "-3" for "--pods" flag'],
  [['demo', '--seconds', '0'], 'invalid argument "0" for "--seconds" flag'],
  [['demo', 'extra'], 'demo takes no arguments'],
];

for (const [argv, message] of mistakes) {
  test(`usage error: ${JSON.stringify(argv)}`, (t) => {
    const error = t.throws(() => parseCliArgs(argv), { instanceOf: CliError });
    t.is(error?.exitCode, 2);
    t.true(error?.message.startsWith(`error: ${message}`), error?.message);
    const command = argv[0] === 'watch' || argv[0] === 'demo' ? ` ${argv[0]}` : '';
    t.true(error?.message.endsWith(`\nSee 'rx-informer${command} --help' for usage.`), error?.message);
  });
}

test('-o outside json, name, wide and yaml: kubectl\'s printer message', (t) => {
  const error = t.throws(() => parseCliArgs(['watch', 'pods', '-o', 'jsonpath={.a}']), { instanceOf: CliError });
  t.is(error?.message, 'error: unable to match a printer suitable for the output format "jsonpath={.a}", allowed formats are: json,name,wide,yaml');
});

test('parseFlags: repeatable flags, booleans, positionals anywhere', (t) => {
  const specs = { a: { type: 'boolean', short: 'a', help: '' }, s: { type: 'strings', short: 's', help: '' }, v: { type: 'string', help: '' } } as const;
  t.deepEqual(parseFlags(['x', '-as1', '-s', '2', 'y', '--v=', '--s=3', '--a=false'], specs), { flags: { a: false, s: ['1', '2', '3'], v: '' }, positionals: ['x', 'y'] });
  t.throws(() => parseFlags(['--v'], specs), { instanceOf: FlagError, message: 'flag needs an argument: --v' });
  t.throws(() => parseFlags(['--=x'], specs), { instanceOf: FlagError, message: 'bad flag syntax: --=x' });
});

test('kubectl habits: get <resource> -w is watch; get without -w says what to type instead (issue 43)', (t) => {
  t.deepEqual(parseCliArgs(['get', 'pods', '-w', '-A']), parseCliArgs(['watch', 'pods', '-A']));
  t.like(parseCliArgs(['get', '--watch', 'po']), { command: 'watch', resource: 'po' });
  const error = t.throws(() => parseCliArgs(['get', 'pods', '-n', 'web']), { instanceOf: CliError });
  t.is(error?.exitCode, 2);
  t.regex(error?.message ?? '', /^error: rx-informer lists and then watches, as kubectl get -w does: add -w, or run rx-informer watch pods -n web$/m);
});

test('--server (-s) names the API server, as kubectl\'s does', (t) => {
  t.like(parseCliArgs(['watch', 'pods', '--server', 'http://127.0.0.1:8001']), { command: 'watch', server: 'http://127.0.0.1:8001' });
  t.like(parseCliArgs(['watch', 'pods', '-s', 'https://k8s.example:6443']), { command: 'watch', server: 'https://k8s.example:6443' });
});
