import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliCluster, runCli } from './cliCluster.js';

const cm = (namespace: string, name: string, data: Record<string, string> = {}) => ({ metadata: { name, namespace }, data });

// Serial: each test spawns a tsx process, and a 2-core machine starts them faster one by one.
test.serial('-o json --output-watch-events streams adds, updates and deletes made through the server, managedFields stripped', async (t) => {
  const c = await cliCluster(t);
  c.server.create('configmaps', { ...cm('a', 'first', { k: '1' }), metadata: { name: 'first', namespace: 'a', managedFields: [{ manager: 'kubectl' }] } });
  const cli = c.cli(['watch', 'configmaps', '-A', '-o', 'json', '--output-watch-events']);
  await cli.waitFor('stdout', /"name":"first"/);
  await cli.waitFor('stderr', /synced 1 configmap /);
  c.server.create('configmaps', cm('b', 'second'));
  await cli.waitFor('stdout', /"name":"second"/);
  c.server.patch('configmaps', 'a', 'first', { data: { k: '2' } });
  await cli.waitFor('stdout', /"type":"MODIFIED"/);
  c.server.delete('configmaps', 'b', 'second');
  await cli.waitFor('stdout', /"type":"DELETED"/);
  cli.kill('SIGINT');
  t.is(await cli.exit, 0);

  type Line = { type: string; object: { data?: { k?: string }; metadata: { name: string; namespace: string; managedFields?: unknown } } };
  const lines = cli.stdout().trim().split('\n').map((line) => JSON.parse(line) as Line);
  t.deepEqual(lines.map((l) => `${l.type} ${l.object.metadata.namespace}/${l.object.metadata.name}`), ['ADDED a/first', 'ADDED b/second', 'MODIFIED a/first', 'DELETED b/second']);
  t.is(lines[0]!.object.data?.k, '1');
  t.is(lines[2]!.object.data?.k, '2');
  t.is(lines[0]!.object.metadata.managedFields, undefined);
  t.false(cli.stdout().includes('\x1b'), 'no ANSI in JSON output');
});

test.serial('on a pipe: the table on stdout; the list progress, the sync, the index summaries and the status lines on stderr', async (t) => {
  const c = await cliCluster(t);
  c.server.seed('configmaps', [cm('prod', 'web', { a: '1', b: '2' }), cm('prod', 'api'), cm('dev', 'web', { a: '1' })]);
  const cli = c.cli(['watch', 'cm', '-A', '--index', 'ns=.metadata.namespace', '--index', 'keys=.data[*]']);
  await cli.waitFor('stderr', /index keys/);
  await cli.waitFor('stdout', /prod +web/);
  t.regex(cli.stdout(), /^NAMESPACE   NAME   DATA   AGE\ndev         web    1      \d+s\nprod        api    0      \d+s\nprod        web    2      \d+s\n$/);
  const err = cli.stderr();
  t.regex(err, /^listing configmaps: page 1 · 3 items/m);
  t.regex(err, /^synced 3 configmaps in \d+\.\d\ds \(1 page\) at resourceVersion \d+$/m);
  t.regex(err, /^index ns \(2 values\): prod 2 · dev 1$/m);
  t.regex(err, /^index keys \(2 values\): 1 2 · 2 1$/m);
  c.server.create('configmaps', cm('dev', 'new'));
  await cli.waitFor('stdout', /^dev +new +0 +\d+s$/m);
  await cli.waitFor('stderr', /watching at resourceVersion \d+ · 4 configmaps · synced in [\d.]+s \(1 page\) · [\d.]+ events\/s · add 1 · update 0 · delete 0$/m);
  cli.kill('SIGINT');
  t.is(await cli.exit, 0);
  t.regex(cli.stderr(), /\nindex ns \(2 values\): dev 2 · prod 2\nindex keys \(2 values\): 1 2 · 2 1\n$/);
  t.false(cli.stdout().includes('\x1b') || cli.stderr().includes('\x1b'), 'no cursor control or colour on a pipe');
});

test.serial('-n, -l and --field-selector narrow the watch', async (t) => {
  const c = await cliCluster(t);
  c.server.seed('configmaps', [
    { metadata: { name: 'a', namespace: 'x', labels: { app: 'web' } } },
    { metadata: { name: 'b', namespace: 'x', labels: { app: 'db' } } },
    { metadata: { name: 'c', namespace: 'y', labels: { app: 'web' } } },
  ]);
  const cli = c.cli(['watch', 'configmaps', '-n', 'x', '-l', 'app=web', '-o', 'name']);
  await cli.waitFor('stderr', /synced 1 configmap /);
  await cli.waitFor('stdout', /\n/);
  t.is(cli.stdout(), 'configmap/a\n');
  const byName = c.cli(['watch', 'configmaps', '-A', '--field-selector', 'metadata.name=c', '-o', 'name']);
  await byName.waitFor('stderr', /synced 1 configmap /);
  await byName.waitFor('stdout', /\n/);
  t.is(byName.stdout(), 'configmap/c\n');
});

test.serial('a cluster-scoped resource by short name: no NAMESPACE column, -n ignored as kubectl does', async (t) => {
  const c = await cliCluster(t);
  c.server.seed('nodes', [
    { metadata: { name: 'node-a', labels: { 'node-role.kubernetes.io/control-plane': '' } }, status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.34.0' } } },
    { metadata: { name: 'node-b' }, spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'False' }] } },
  ]);
  const cli = c.cli(['watch', 'no', '-n', 'whatever']);
  await cli.waitFor('stderr', /^watching nodes/m);
  t.regex(cli.stdout(), /^NAME     STATUS                        ROLES           AGE   VERSION\nnode-a   Ready                         control-plane   \d+s +v1\.34\.0\nnode-b   NotReady,SchedulingDisabled   <none>          \d+s\n$/);
  t.is(c.server.requests.filter((r) => r.verb === 'list')[0]?.namespace, undefined);
});

test.serial('--metadata-only asks for PartialObjectMetadata', async (t) => {
  const c = await cliCluster(t);
  c.server.seed('configmaps', [cm('x', 'a', { big: 'value' })]);
  const cli = c.cli(['watch', 'configmaps', '-A', '--metadata-only', '-o', 'json']);
  await cli.waitFor('stdout', /\n/);
  const object = JSON.parse(cli.stdout().split('\n')[0]!) as Record<string, unknown>;
  t.is(object['kind'], 'PartialObjectMetadata');
  t.is(object['data'], undefined);
  t.like(object, { metadata: { name: 'a', namespace: 'x' } });
});

test.serial('an unknown resource: kubectl\'s one line, exit 1', async (t) => {
  const c = await cliCluster(t);
  const cli = c.cli(['watch', 'frobs']);
  const kubectl = c.kubectl(['get', 'frobs', '-w']);
  t.is(await cli.exit, 1);
  t.is(await kubectl.exit, 1);
  t.is(cli.stderr(), 'error: the server doesn\'t have a resource type "frobs"\n');
  t.is(cli.stderr(), kubectl.stderr());
  t.is(cli.stdout(), '');
});

test.serial('an unreachable server: said so on every retry, and it keeps trying; Ctrl-C ends it with 0', async (t) => {
  const c = await cliCluster(t);
  const address = c.server.url.slice('http://'.length);
  await c.server.close();
  const cli = c.cli(['watch', 'pods']);
  await cli.waitFor('stderr', new RegExp(`^Unable to connect to the server: connect ECONNREFUSED ${address.replace(/\./g, '\\.')}; retrying in \\d+\\.\\ds$`, 'm'));
  await cli.waitFor('stderr', /retrying in [\d.]+s\n[^]*retrying in [\d.]+s$/m);
  // The reflector's backoff: 0.8 s doubling, each delay up to twice its base (jitter).
  const [first, second] = [...cli.stderr().matchAll(/retrying in ([\d.]+)s$/gm)].map((m) => Number(m[1]));
  t.true(first! >= 0.8 && first! <= 1.6, `first delay ${first}s`);
  t.true(second! >= 1.6 && second! <= 3.2, `second delay ${second}s`);
  cli.kill('SIGINT');
  t.is(await cli.exit, 0);
});

test.serial('no kubeconfig: one line naming where it looked, exit 1', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-home-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const cli = runCli(t, ['watch', 'pods'], { HOME: dir, KUBECONFIG: undefined, KUBERNETES_SERVICE_HOST: undefined });
  t.is(await cli.exit, 1);
  t.is(cli.stderr(), `error: no kubeconfig found (looked in ${join(dir, '.kube', 'config')}); pass --kubeconfig <path>, set KUBECONFIG, or try rx-informer demo\n`);
  const missing = runCli(t, ['watch', 'pods', '--kubeconfig', join(dir, 'nope')]);
  t.is(await missing.exit, 1);
  t.is(missing.stderr(), `error: no kubeconfig at ${join(dir, 'nope')} (from --kubeconfig)\n`);
});

test.serial('a bad --index is a usage error, exit 2, before any request', async (t) => {
  const c = await cliCluster(t);
  const badPath = c.cli(['watch', 'pods', '--index', 'x=.a[']);
  t.is(await badPath.exit, 2);
  t.is(badPath.stderr(), 'error: --index x: invalid JSONPath ".a[": unclosed [ at position 2\nSee \'rx-informer watch --help\' for usage.\n');
  t.is(c.server.requests.length, 0);
});
