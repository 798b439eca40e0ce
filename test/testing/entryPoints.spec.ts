import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./withoutPeers.fixture.mjs', import.meta.url));
const src = (path: string): string => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
const withoutPeers = (entry: string) => run(process.execPath, ['--import', 'tsx', fixture, src(entry)], { timeout: 30_000 });

test('rx-informer/testing imports without @kubernetes/client-node or prom-client installed', async (t) => {
  const { stdout } = await withoutPeers('testing/index.ts');
  for (const name of ['fakeListWatch', 'marbleSource', 'runMarbles', 'configMap', 'pod', 'listEvents']) t.true(stdout.split(/\s+/).includes(name), `${name} in: ${stdout}`);
  t.false(stdout.includes('createTestApiServer'), 'the API server is its own entry point');
});

test('the main entry imports without them too (client-node is needed only when a KubeConfig is used)', async (t) => {
  const { stdout } = await withoutPeers('index.ts');
  t.true(stdout.split(/\s+/).includes('informer'), stdout);
});

test('the check can fail: rx-informer/test-server needs client-node and says so', async (t) => {
  const error = await t.throwsAsync(withoutPeers('testServer/index.ts'));
  t.regex(String((error as { stderr?: string } | undefined)?.stderr), /Cannot find package @kubernetes\/client-node/);
});

test('rx-informer/controller imports without them too (client-node only for a resourceClient, and then only its KubeConfig)', async (t) => {
  const { stdout } = await withoutPeers('controllerEntry.ts');
  for (const name of ['controller', 'reconcileObjects', 'editPatch', 'finalizer', 'eventRecorder', 'serveHealthProbes', 'reconcile']) t.true(stdout.split(/\s+/).includes(name), `${name} in: ${stdout}`);
});
