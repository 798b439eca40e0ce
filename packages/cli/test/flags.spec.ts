/*
 * The command line as kubectl users type it: kubectl's flag syntax, its error wording (with
 * `error:` first), and a `--help` per command that lists every flag. kubectl's own stderr for the
 * same mistake in `kubectl get` is the expected text.
 */
import test from 'ava';
import { crdTypesFlags, demoFlags, watchFlags } from '../src/parseCliArgs.js';
import type { FlagSpec } from '../src/parseFlags.js';
import { cliCluster, runCli } from './cliCluster.js';
import { spawnCommand } from './spawnCli.js';

/** kubectl's words for a flag mistake in `kubectl get pods …`, as rx-informer says them for `watch pods …`. */
const asOurs = (kubectl: string): string => kubectl.replace(/^Error: /, 'error: ').replace("See 'kubectl get --help'", "See 'rx-informer watch --help'");

const mistakes: ReadonlyArray<readonly string[]> = [['-n'], ['--namespace'], ['-o'], ['--bogus'], ['-x'], ['---x'], ['-A=x'], ['--selector']];

for (const mistake of mistakes) {
  test(`watch pods ${mistake.join(' ')}: kubectl's message, no request, exit 2`, async (t) => {
    const ours = runCli(t, ['watch', 'pods', ...mistake]);
    const kubectl = spawnCommand(process.env['KUBECTL'] ?? 'kubectl', ['get', 'pods', ...mistake]);
    t.is(await ours.exit, 2);
    t.is(await kubectl.exit, 1);
    t.regex(ours.stderr(), /^error: /);
    t.is(ours.stderr(), asOurs(kubectl.stderr()));
    t.is(ours.stdout(), '');
  });
}

test('the exact lines for a flag without its value', async (t) => {
  const cli = runCli(t, ['watch', 'pods', '-n']);
  t.is(await cli.exit, 2);
  t.is(cli.stderr(), "error: flag needs an argument: 'n' in -n\nSee 'rx-informer watch --help' for usage.\n");
});

test('a bad --request-timeout is worded as kubectl words it', async (t) => {
  const ours = runCli(t, ['watch', 'pods', '--request-timeout', 'soon']);
  const kubectl = spawnCommand(process.env['KUBECTL'] ?? 'kubectl', ['get', 'pods', '--request-timeout', 'soon']);
  t.is(await ours.exit, 2);
  t.is(await kubectl.exit, 1);
  t.is(ours.stderr(), kubectl.stderr());
});

test('other usage mistakes: error: first, the help to see, exit 2', async (t) => {
  const cases: Array<[string[], string]> = [
    [['frobnicate'], 'error: unknown command "frobnicate" for "rx-informer"\nSee \'rx-informer --help\' for usage.\n'],
    [['watch'], "error: you must specify the type of resource to watch, e.g. rx-informer watch pods\nSee 'rx-informer watch --help' for usage.\n"],
    [['watch', 'pods', '-o', 'table-ish'], 'error: unable to match a printer suitable for the output format "table-ish", allowed formats are: json,name,wide,yaml\n'],
    [['demo', '--pods', 'many'], 'error: invalid argument "many" for "--pods" flag: a whole number from 0 to 200000\nSee \'rx-informer demo --help\' for usage.\n'],
  ];
  for (const [argv, expected] of cases) {
    const cli = runCli(t, argv);
    t.is(await cli.exit, 2, argv.join(' '));
    t.is(cli.stderr(), expected);
  }
});

test('--help for each command lists every one of its flags; help <command> says the same', async (t) => {
  for (const [command, flags] of [['watch', watchFlags], ['demo', demoFlags], ['crd-types', crdTypesFlags]] as const) {
    const help = runCli(t, [command, '--help']);
    t.is(await help.exit, 0);
    const text = help.stdout();
    t.regex(text, new RegExp(`^Usage:\\n  rx-informer ${command} `, 'm'));
    for (const [name, spec] of Object.entries(flags) as [string, FlagSpec][]) {
      const shown = `${spec.short !== undefined ? `-${spec.short}, ` : ''}--${name}`;
      t.true(text.includes(shown), `${command} --help shows ${shown}`);
      t.true(text.includes(spec.help), `${command} --help explains --${name}`);
    }
    const again = runCli(t, ['help', command]);
    t.is(await again.exit, 0);
    t.is(again.stdout(), text);
  }
  const top = runCli(t, ['--help']);
  t.is(await top.exit, 0);
  t.regex(top.stdout(), /rx-informer watch <resource> \[flags\]/);
  t.regex(top.stdout(), /Run 'rx-informer <command> --help'/);
});

test.serial('-w and --watch are accepted (it always watches); -A wins over -n as with kubectl; pflag forms', async (t) => {
  const c = await cliCluster(t);
  c.server.create('configmaps', { metadata: { name: 'one', namespace: 'x' } });
  c.server.create('configmaps', { metadata: { name: 'two', namespace: 'y' } });
  for (const args of [['-w', '-A'], ['--watch', '-n', 'x', '-A'], ['-wA'], ['--watch=true', '--all-namespaces=true']]) {
    const cli = c.cli(['watch', 'configmaps', ...args, '-o', 'name']);
    await cli.waitFor('stdout', /configmap\/one\nconfigmap\/two\n/);
    cli.kill('SIGINT');
    t.is(await cli.exit, 0, args.join(' '));
  }
  const inline = c.cli(['watch', 'cm', '-nx', '-oname']);
  await inline.waitFor('stdout', /^configmap\/one\n$/);
  const no = c.cli(['watch', 'cm', '--watch=false']);
  t.is(await no.exit, 2);
  t.regex(no.stderr(), /^error: rx-informer watch always watches/);
});

test('the README lists every flag of every command', async (t) => {
  const { readFile } = await import('node:fs/promises');
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## The CLI'), readme.indexOf('## The pipeline'));
  for (const [name, spec] of Object.entries({ ...watchFlags, ...demoFlags, ...crdTypesFlags })) {
    if (name === 'help') continue;
    t.true(section.includes(`--${name}`), `--${name}`);
    if ('short' in spec) t.true(section.includes(`-${spec.short}, --${name}`), `-${spec.short}, --${name}`);
  }
});
