import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { spawnCli, type CliRun } from './spawnCli.js';

/** A fresh test API server with its kubeconfig in a temp dir; both go away after the test. */
async function cluster(t: ExecutionContext): Promise<{ server: TestApiServer; kubeconfig: string; dir: string }> {
  const server = await createTestApiServer();
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-cli-'));
  const kubeconfig = join(dir, 'config');
  await server.writeKubeConfig(kubeconfig);
  t.teardown(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { server, kubeconfig, dir };
}

function run(t: ExecutionContext, args: readonly string[], env?: Record<string, string | undefined>): CliRun {
  const cli = spawnCli(args, env);
  t.teardown(() => cli.kill('SIGKILL'));
  return cli;
}

const cm = (namespace: string, name: string, data: Record<string, string> = {}) => ({ metadata: { name, namespace }, data });

// Serial: each test spawns a tsx process, and a 2-core machine starts them faster one by one.
test.serial('watch configmaps -A -o json streams add, update and delete made through the server as JSON lines', async (t) => {
  const { server, kubeconfig } = await cluster(t);
  server.create('configmaps', cm('a', 'first', { k: '1' }));
  const cli = run(t, ['watch', 'configmaps', '-A', '-o', 'json', '--kubeconfig', kubeconfig]);
  await cli.waitFor('stdout', /"key":"a\/first"/);
  await cli.waitFor('stderr', /synced 1 configmaps/);
  server.create('configmaps', cm('b', 'second'));
  await cli.waitFor('stdout', /"key":"b\/second"/);
  server.patch('configmaps', 'a', 'first', { data: { k: '2' } });
  await cli.waitFor('stdout', /"type":"update","key":"a\/first"/);
  server.delete('configmaps', 'b', 'second');
  await cli.waitFor('stdout', /"type":"delete","key":"b\/second"/);
  cli.kill('SIGINT');
  t.is(await cli.exit, 0);

  const lines = cli.stdout().trim().split('\n').map((line) => JSON.parse(line) as { type: string; key: string; object: { data?: { k?: string }; metadata: { managedFields?: unknown } } });
  t.deepEqual(lines.map((l) => `${l.type} ${l.key}`), ['add a/first', 'add b/second', 'update a/first', 'delete b/second']);
  t.is(lines[0]!.object.data?.k, '1');
  t.is(lines[2]!.object.data?.k, '2');
  t.false(cli.stdout().includes('\x1b'), 'no ANSI in JSON output');
});

test.serial('on a pipe, watch prints the sync, the table and the index summary as plain lines, then status lines', async (t) => {
  const { server, kubeconfig } = await cluster(t);
  server.seed('configmaps', [cm('prod', 'web', { a: '1', b: '2' }), cm('prod', 'api'), cm('dev', 'web', { a: '1' })]);
  const cli = run(t, ['watch', 'cm', '-A', '--index', 'ns=.metadata.namespace', '--index', 'keys=.data[*]', '--kubeconfig', kubeconfig]);
  await cli.waitFor('stdout', /index keys/);
  const out = cli.stdout();
  t.regex(out, /^listing configmaps: page 1 · 3 items/m);
  t.regex(out, /^synced 3 configmaps in \d+\.\d\ds \(1 page\) at resourceVersion \d+$/m);
  t.regex(out, /^NAMESPACE   NAME   DATA   AGE\ndev         web    1      \d+s\nprod        api    0      \d+s\nprod        web    2      \d+s$/m);
  t.regex(out, /^index ns \(2 values\): prod 2 · dev 1$/m);
  t.regex(out, /^index keys \(2 values\): 1 2 · 2 1$/m);
  server.create('configmaps', cm('dev', 'new'));
  await cli.waitFor('stdout', /watching at resourceVersion \d+ · 4 configmaps · synced in [\d.]+s \(1 page\) · [\d.]+ events\/s · add 1 · update 0 · delete 0$/m);
  t.false(out.includes('\x1b'), 'no cursor control or colour on a pipe');
  cli.kill('SIGINT');
  t.is(await cli.exit, 0);
  t.regex(cli.stdout(), /\nindex ns \(2 values\): dev 2 · prod 2\nindex keys \(2 values\): 1 2 · 2 1\n$/);
});

test.serial('-n, -l and --field-selector narrow the watch', async (t) => {
  const { server, kubeconfig } = await cluster(t);
  server.seed('configmaps', [
    { metadata: { name: 'a', namespace: 'x', labels: { app: 'web' } } },
    { metadata: { name: 'b', namespace: 'x', labels: { app: 'db' } } },
    { metadata: { name: 'c', namespace: 'y', labels: { app: 'web' } } },
  ]);
  const cli = run(t, ['watch', 'configmaps', '-n', 'x', '-l', 'app=web', '-o', 'json', '--kubeconfig', kubeconfig]);
  await cli.waitFor('stderr', /synced 1 configmaps/);
  await cli.waitFor('stdout', /\n/);
  t.deepEqual(cli.stdout().trim().split('\n').map((l) => (JSON.parse(l) as { key: string }).key), ['x/a']);
  const byName = run(t, ['watch', 'configmaps', '-A', '--field-selector', 'metadata.name=c', '-o', 'json', '--kubeconfig', kubeconfig]);
  await byName.waitFor('stderr', /synced 1 configmaps/);
  await byName.waitFor('stdout', /\n/);
  t.deepEqual(byName.stdout().trim().split('\n').map((l) => (JSON.parse(l) as { key: string }).key), ['y/c']);
});

test.serial('a cluster-scoped resource by short name: no NAMESPACE column, -n ignored as kubectl does', async (t) => {
  const { server, kubeconfig } = await cluster(t);
  server.seed('nodes', [
    { metadata: { name: 'node-a' }, status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.34.0' } } },
    { metadata: { name: 'node-b' }, spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'False' }] } },
  ]);
  const cli = run(t, ['watch', 'no', '-n', 'whatever', '--kubeconfig', kubeconfig]);
  await cli.waitFor('stdout', /^watching nodes/m);
  t.regex(cli.stdout(), /^NAME     STATUS                        VERSION   AGE\nnode-a   Ready                         v1\.34\.0   \d+s\nnode-b   NotReady,SchedulingDisabled             \d+s$/m);
  t.is(server.requests.filter((r) => r.verb === 'list')[0]?.namespace, undefined);
});

test.serial('--metadata-only asks for PartialObjectMetadata', async (t) => {
  const { server, kubeconfig } = await cluster(t);
  server.seed('configmaps', [cm('x', 'a', { big: 'value' })]);
  const cli = run(t, ['watch', 'configmaps', '-A', '--metadata-only', '-o', 'json', '--kubeconfig', kubeconfig]);
  await cli.waitFor('stdout', /\n/);
  const line = JSON.parse(cli.stdout().split('\n')[0]!) as { key: string; object: Record<string, unknown> };
  t.is(line.key, 'x/a');
  t.is(line.object['kind'], 'PartialObjectMetadata');
  t.is(line.object['data'], undefined);
});

test.serial('an unknown resource: one line, exit 1', async (t) => {
  const { kubeconfig } = await cluster(t);
  const cli = run(t, ['watch', 'frobs', '--kubeconfig', kubeconfig]);
  t.is(await cli.exit, 1);
  t.is(cli.stderr(), '[informer] the server doesn\'t have a resource type "frobs"\n');
  t.is(cli.stdout(), '');
});

test.serial('forbidden: the typed 403 message, exit 1', async (t) => {
  const { server, kubeconfig } = await cluster(t);
  server.forbid({ resource: 'configmaps', verbs: ['list', 'watch'] });
  const cli = run(t, ['watch', 'configmaps', '-n', 'team', '--kubeconfig', kubeconfig]);
  t.is(await cli.exit, 1);
  t.is(
    cli.stderr().trim().split('\n').at(-1),
    '[informer] cannot list configmaps in namespace team: forbidden (configmaps is forbidden: User "test-user" cannot list resource "configmaps" in API group "" in the namespace "team")',
  );
});

test.serial('an unreachable server: says so on every retry and keeps trying; Ctrl-C ends it with 0', async (t) => {
  const { server, kubeconfig } = await cluster(t);
  const url = server.url;
  await server.close();
  const cli = run(t, ['watch', 'pods', '--kubeconfig', kubeconfig]);
  const refused = new RegExp(`^\\[informer\\] cannot reach ${url.replace(/\./g, '\\.')} \\(connect ECONNREFUSED [^)]+\\); retrying in 1\\.0s$`, 'm');
  await cli.waitFor('stderr', refused);
  await cli.waitFor('stderr', /retrying in 2\.0s$/m);
  cli.kill('SIGINT');
  t.is(await cli.exit, 0);
});

test.serial('no kubeconfig: one line naming where it looked, exit 1', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-home-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const cli = run(t, ['watch', 'pods'], { HOME: dir, KUBECONFIG: undefined, KUBERNETES_SERVICE_HOST: undefined });
  t.is(await cli.exit, 1);
  t.is(cli.stderr(), `[informer] no kubeconfig found (looked in ${join(dir, '.kube', 'config')}); pass --kubeconfig <path>, set KUBECONFIG, or try rx-informer demo\n`);
  const missing = run(t, ['watch', 'pods', '--kubeconfig', join(dir, 'nope')]);
  t.is(await missing.exit, 1);
  t.is(missing.stderr(), `[informer] no kubeconfig at ${join(dir, 'nope')} (from --kubeconfig)\n`);
});

test.serial('usage errors exit 2 with the reason, before any request', async (t) => {
  const cli = run(t, ['watch', 'pods', '-n', 'a', '-A']);
  t.is(await cli.exit, 2);
  t.is(cli.stderr(), '[informer] use either -n <namespace> or -A, not both (see rx-informer --help)\n');
  const { server, kubeconfig } = await cluster(t);
  const badPath = run(t, ['watch', 'pods', '--index', 'x=.a[', '--kubeconfig', kubeconfig]);
  t.is(await badPath.exit, 2);
  t.is(badPath.stderr(), '[informer] invalid JSONPath ".a[": unclosed [ at position 2\n');
  t.is(server.requests.length, 0);
});
