import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { CliError } from '../src/cliError.js';
import { contextNamespace, loadKubeConfig } from '../src/loadKubeConfig.js';

const kubeconfig = (current: string) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'one', cluster: { server: 'https://one.example:6443' } },
      { name: 'two', cluster: { server: 'https://two.example:6443' } },
    ],
    users: [{ name: 'me', user: { token: 'x' } }],
    contexts: [
      { name: 'first', context: { cluster: 'one', user: 'me', namespace: 'team-a' } },
      { name: 'second', context: { cluster: 'two', user: 'me' } },
      { name: 'broken', context: { cluster: 'nowhere', user: 'me' } },
    ],
    'current-context': current,
  });

async function dir(t: import('ava').ExecutionContext): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), 'rx-informer-kc-'));
  t.teardown(() => rm(path, { recursive: true, force: true }));
  return path;
}

test('--kubeconfig, then $KUBECONFIG, then ~/.kube/config; --context switches', async (t) => {
  const home = await dir(t);
  const file = join(home, 'explicit');
  await writeFile(file, kubeconfig('first'));
  const explicit = await loadKubeConfig({ path: file, env: {} });
  t.is(explicit.getCurrentCluster()?.server, 'https://one.example:6443');
  t.is(contextNamespace(explicit), 'team-a');
  const switched = await loadKubeConfig({ path: file, context: 'second', env: {} });
  t.is(switched.getCurrentCluster()?.server, 'https://two.example:6443');
  t.is(contextNamespace(switched), 'default');

  const { mkdir } = await import('node:fs/promises');
  await mkdir(join(home, '.kube'));
  await writeFile(join(home, '.kube', 'config'), kubeconfig('second'));
  t.is((await loadKubeConfig({ env: { HOME: home } })).getCurrentContext(), 'second');
  const fromEnv = await loadKubeConfig({ env: { HOME: home, KUBECONFIG: [join(home, 'missing'), file].join(delimiter) } });
  t.is(fromEnv.getCurrentContext(), 'first', '$KUBECONFIG wins over ~/.kube/config; missing files are skipped');
});

test('no kubeconfig anywhere, a missing --kubeconfig file, an unknown or broken context: one-line errors', async (t) => {
  const home = await dir(t);
  const none = await t.throwsAsync(loadKubeConfig({ env: { HOME: home, KUBECONFIG: [join(home, 'a'), join(home, 'b')].join(delimiter) } }), { instanceOf: CliError });
  t.is(none?.message, `error: no kubeconfig found (looked in ${join(home, 'a')} ($KUBECONFIG), ${join(home, 'b')} ($KUBECONFIG), ${join(home, '.kube', 'config')}); pass --kubeconfig <path>, set KUBECONFIG, or try rx-informer demo`);
  await t.throwsAsync(loadKubeConfig({ path: join(home, 'nope'), env: {} }), { instanceOf: CliError, message: `error: no kubeconfig at ${join(home, 'nope')} (from --kubeconfig)` });
  const file = join(home, 'config');
  await writeFile(file, kubeconfig('first'));
  await t.throwsAsync(loadKubeConfig({ path: file, context: 'third', env: {} }), { instanceOf: CliError, message: 'error: context was not found for specified context: third (the kubeconfig has: first, second, broken)' });
  await t.throwsAsync(loadKubeConfig({ path: file, context: 'broken', env: {} }), { instanceOf: CliError, message: 'error: the kubeconfig\'s context "broken" names no cluster; pass --context <name>' });
  await writeFile(file, '{ not yaml: [');
  const unreadable = await t.throwsAsync(loadKubeConfig({ path: file, env: {} }), { instanceOf: CliError });
  t.regex(unreadable?.message ?? '', /^error: cannot read the kubeconfig: /);
});

test('--server without a kubeconfig talks to that server with no credentials; with one, it replaces the current cluster\'s address', async (t) => {
  const path = await dir(t);
  const alone = await loadKubeConfig({ server: 'http://127.0.0.1:8001', env: { HOME: path } });
  t.is(alone.getCurrentCluster()?.server, 'http://127.0.0.1:8001');
  t.is(alone.getCurrentUser()?.token, undefined);
  await writeFile(join(path, 'config'), kubeconfig('first'));
  const over = await loadKubeConfig({ path: join(path, 'config'), server: 'https://other.example:6443' });
  t.is(over.getCurrentCluster()?.server, 'https://other.example:6443');
  t.is(over.getCurrentUser()?.token, 'x', 'the context\'s user stays');
  t.is(contextNamespace(over), 'team-a');
});
