/**
 * `npm run test:cluster`: the end-to-end suite (ava.cluster.config.mjs) on a control plane started
 * with rx-informer/envtest, the API we ship (issue 42), instead of env.sh's bash: etcd +
 * kube-apiserver (gate ShardedListAndWatch on) + kube-controller-manager's garbage collector, from
 * the binaries `env.sh build` makes (.cluster/bin; a no-op when built). The suite's fault helpers
 * (restart, kill and start of the apiserver, an etcd write) reach this process through a small HTTP
 * server on 127.0.0.1 (CLUSTER_CONTROL_URL), since the control plane lives here.
 *
 * With KUBECONFIG_E2E set, nothing is built or started: ava runs against that cluster.
 * Arguments go to ava (`npm run test:cluster -- test/cluster/e2e/informer.e2e.ts`).
 * Environment for the suite: KUBECONFIG, CLUSTER_API_URL, CLUSTER_ETCD_URL, CLUSTER_CONTROL_URL.
 * EXTRA_APISERVER_FLAGS (space-separated) is added to kube-apiserver's flags.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startControlPlane, type ControlPlane } from '../../src/envtest/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const avaCli = fileURLToPath(new URL('cli.mjs', import.meta.resolve('ava'))); // ava's bin, beside its main entry
const log = (line: string): void => void process.stderr.write(`[cluster ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

function runAva(env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [avaCli, '--config', 'ava.cluster.config.mjs', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

const e2e = process.env['KUBECONFIG_E2E'];
if (e2e) {
  log(`KUBECONFIG_E2E is set: running against that cluster; nothing is built, started or stopped`);
  process.exitCode = await runAva({ ...process.env, KUBECONFIG: e2e });
} else {
  execFileSync('bash', ['test/cluster/env.sh', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  const plane = await startControlPlane({
    binaryAssetsDirectory: `${root}.cluster/bin`,
    garbageCollector: true,
    featureGates: { ShardedListAndWatch: true },
    apiServerFlags: ['--etcd-compaction-interval=0', '--v=1', ...(process.env['EXTRA_APISERVER_FLAGS'] ?? '').split(/\s+/).filter(Boolean)],
    log,
  });
  log(`control plane up in ${plane.startupMs} ms: ${plane.url} (${plane.dir})`);
  const control = createServer((request, response) => {
    const command = (request.url ?? '').replace(/^\//, '');
    faults(plane, command).then(
      (out) => response.writeHead(200).end(out),
      (error: Error) => response.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  control.unref();
  let code = 1;
  try {
    code = await runAva({
      ...process.env,
      KUBECONFIG: plane.kubeConfigPath,
      CLUSTER_API_URL: plane.url,
      CLUSTER_ETCD_URL: plane.etcdUrl,
      CLUSTER_CONTROL_URL: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    });
  } finally {
    control.close();
    const t0 = Date.now();
    await plane.stop();
    log(`command exited with ${code}; control plane stopped in ${Date.now() - t0} ms`);
  }
  process.exitCode = code;
}

/** The fault sub-commands of env.sh that the suite uses, on the envtest control plane. */
async function faults(plane: ControlPlane, command: string): Promise<string> {
  const etcd = async (path: string, body: unknown): Promise<{ header: { revision: string } }> => {
    const response = await fetch(`${plane.etcdUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`etcd ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { header: { revision: string } };
  };
  const bump = (): Promise<unknown> => etcd('/v3/kv/put', { key: Buffer.from('/rx-informer-test/bump').toString('base64'), value: '' });
  switch (command) {
    case 'restart-apiserver':
      await plane.stopApiServer();
      await plane.startApiServer();
      return '';
    case 'kill-apiserver':
      await plane.stopApiServer({ kill: true });
      return '';
    case 'start-apiserver':
      await plane.startApiServer();
      return '';
    case 'bump-etcd':
      // A key outside the apiserver's /registry prefix: the etcd revision moves on.
      await bump();
      return (await etcd('/v3/maintenance/status', {})).header.revision;
    default:
      throw new Error(`unknown fault command ${JSON.stringify(command)}`);
  }
}
