/**
 * rx-informer/envtest against the real binaries (issue 42 item 1): the binaries env.sh builds, laid
 * out as setup-envtest lays them and named by KUBEBUILDER_ASSETS. Start-to-ready and teardown are
 * measured and printed; nothing may be left behind, also when the test process is killed.
 * Independent of env.sh's own control plane (this file starts its own).
 */
import { CoreV1Api, CustomObjectsApi, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { informer } from '../../../src/informer/informer.js';
import { listWatch } from '../../../src/sources/listWatch.js';
import { EnvtestError, startControlPlane, type ControlPlane } from '../../../src/envtest/index.js';
import { envtestAssets } from '../envtest/assets.js';
import { until } from './helpers.js';
import { processAlive as alive } from '../../helpers/processAlive.js';

const crds = fileURLToPath(new URL('../../../examples/envtest/crds/', import.meta.url));
const assets = envtestAssets();
const savedAssets = process.env['KUBEBUILDER_ASSETS'];
process.env['KUBEBUILDER_ASSETS'] = assets.dir;
test.after.always(() => {
  assets.remove();
  if (savedAssets === undefined) delete process.env['KUBEBUILDER_ASSETS'];
  else process.env['KUBEBUILDER_ASSETS'] = savedAssets;
});

/** PIDs of processes whose command line names `dir` (the control plane's folder). */
function processesNaming(dir: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number);
}


test('KUBEBUILDER_ASSETS with setup-envtest\'s layout: ready with CRDs established, objects of them served, an informer synced; stop leaves nothing', async (t) => {
  const plane = await startControlPlane({ crds: [crds] });
  let stopped = false;
  t.teardown(() => (stopped ? undefined : plane.stop()));
  t.is(plane.binaries.source, 'KUBEBUILDER_ASSETS');
  t.is(plane.binaries.kubeApiServer, join(assets.dir, 'kube-apiserver'));
  t.log(`start to ready (2 CRDs established): ${plane.startupMs} ms`);
  t.true(plane.startupMs < 30_000, `${plane.startupMs} ms`);
  // Established and discoverable: a custom object can be written and listed at once.
  const objects = plane.kubeConfig.makeApiClient(CustomObjectsApi);
  const created = (await objects.createNamespacedCustomObject({
    group: 'envtest.rx-informer.dev', version: 'v1', namespace: 'default', plural: 'widgets',
    body: { apiVersion: 'envtest.rx-informer.dev/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { colour: 'red' } },
  })) as { spec: { size: number } };
  t.is(created.spec.size, 1, 'the schema default was applied by the server');
  await t.throwsAsync(objects.createNamespacedCustomObject({
    group: 'envtest.rx-informer.dev', version: 'v1', namespace: 'default', plural: 'widgets',
    body: { apiVersion: 'envtest.rx-informer.dev/v1', kind: 'Widget', metadata: { name: 'w2' }, spec: { colour: 'pink' } },
  }), { message: /Unsupported value: [\\"]*pink[\\"]*: supported values/ });
  const widgets = informer(listWatch(plane.kubeConfig, { group: 'envtest.rx-informer.dev', version: 'v1', plural: 'widgets', namespace: 'default' }));
  const connection = widgets.connect();
  t.deepEqual([...(await widgets.whenSynced({ timeoutMs: 10_000 })).keys()], ['default/w1']);
  connection.unsubscribe();
  // The kubeconfig file works for kubectl, from the assets folder.
  const kubectl = plane.binaries.kubectl;
  if (kubectl) {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(kubectl, ['--kubeconfig', plane.kubeConfigPath, 'get', 'gadgets.v1alpha1.envtest.rx-informer.dev', '-o', 'name'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(stderr))));
    });
    t.is(out, '', 'no gadgets (and no error): the served v1alpha1 is known');
  }
  const names = processesNaming(plane.dir);
  t.is(names.length, 3, 'etcd, kube-apiserver and the watchdog name the folder');
  const t0 = Date.now();
  await plane.stop();
  stopped = true;
  const teardownMs = Date.now() - t0;
  t.log(`teardown: ${teardownMs} ms`);
  t.deepEqual(processesNaming(plane.dir), [], 'no process left');
  t.false(existsSync(plane.dir), 'no folder left');
  t.true(teardownMs < 5_000, `${teardownMs} ms`);
  await t.throwsAsync(plane.installCrds([crds]), { instanceOf: EnvtestError, message: /installCrds after stop\(\)/ });
});

test('kubeConfigFor: a user with no binding gets 403; a RoleBinding to their group lets them list', async (t) => {
  const plane = await startControlPlane();
  t.teardown(() => plane.stop());
  const alice = await plane.kubeConfigFor({ name: 'alice', groups: ['testers'] });
  t.true(existsSync(alice.path));
  const asAlice = alice.kubeConfig.makeApiClient(CoreV1Api);
  await t.throwsAsync(asAlice.listNamespacedConfigMap({ namespace: 'default' }), { message: /HTTP-Code: 403[\s\S]*User [\\"]*alice[\\"]* cannot list resource [\\"]*configmaps/ });
  const rbac = plane.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
  await rbac.createNamespacedRole({ namespace: 'default', body: { metadata: { name: 'read-cm' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }] } });
  await rbac.createNamespacedRoleBinding({
    namespace: 'default',
    body: { metadata: { name: 'testers-read-cm' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-cm' }, subjects: [{ kind: 'Group', name: 'testers', apiGroup: 'rbac.authorization.k8s.io' }] },
  });
  let listed = false;
  await until(async () => (listed = await asAlice.listNamespacedConfigMap({ namespace: 'default' }).then(() => true, () => false)), 'alice may list', 10_000);
  t.true(listed);
  await t.throwsAsync(asAlice.listNamespacedConfigMap({ namespace: 'kube-system' }), { message: /HTTP-Code: 403/ });
});

test('garbageCollector: a child whose owner is deleted is deleted by kube-controller-manager', async (t) => {
  const plane = await startControlPlane({ garbageCollector: true });
  t.teardown(() => plane.stop());
  t.truthy(plane.binaries.kubeControllerManager);
  const core = plane.kubeConfig.makeApiClient(CoreV1Api);
  const owner = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'owner' } } });
  await core.createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name: 'child', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }] } },
  });
  await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'owner' });
  await until(async () => !(await core.listNamespacedConfigMap({ namespace: 'default' })).items.some((cm) => cm.metadata?.name === 'child'), 'the child collected', 60_000);
  t.pass();
});

test('feature gates and flags reach kube-apiserver: an unknown gate fails the start with the apiserver\'s own words, and nothing is left', async (t) => {
  const before = readdirSync(tmpdir()).filter((name) => name.startsWith('rx-envtest-') && !name.startsWith('rx-envtest-assets-')).length;
  const error = await t.throwsAsync(startControlPlane({ featureGates: { NoSuchGateAnywhere: true } }), { instanceOf: EnvtestError });
  t.is(error?.reason, 'start-failed');
  t.regex(error!.message, /kube-apiserver exited during start-up[\s\S]*NoSuchGateAnywhere/);
  const plane: ControlPlane = await startControlPlane({ featureGates: { ShardedListAndWatch: true }, apiServerFlags: ['--max-requests-inflight=123'] });
  t.teardown(() => plane.stop());
  const cmdline = processesNaming(plane.dir).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0')).find((args) => args[0]!.endsWith('kube-apiserver'));
  t.true(cmdline?.includes('--feature-gates=WatchCacheInitializationPostStartHook=true,ShardedListAndWatch=true'));
  t.true(cmdline?.includes('--max-requests-inflight=123'));
  await plane.stop();
  t.is(readdirSync(tmpdir()).filter((name) => name.startsWith('rx-envtest-') && !name.startsWith('rx-envtest-assets-')).length, before);
});

test('kill -9 of the test process: etcd, kube-apiserver, kube-controller-manager and the folder are gone', async (t) => {
  const script = fileURLToPath(new URL('../envtest/startAndWait.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import=tsx', script], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    let text = '';
    child.stdout.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`the child exited with ${code}`)));
  });
  const { dir } = JSON.parse(line) as { dir: string };
  const pids = processesNaming(dir).filter((pid) => pid !== child.pid);
  t.is(pids.length, 4, 'etcd, kube-apiserver, kube-controller-manager, watchdog');
  const t0 = Date.now();
  child.kill('SIGKILL');
  await until(() => pids.every((pid) => !alive(pid)) && !existsSync(dir), 'everything gone', 10_000);
  t.log(`cleaned up ${Date.now() - t0} ms after kill -9`);
  t.deepEqual(processesNaming(dir), []);
});
