/*
 * Conformance of the test API server against a client no one here wrote: kubectl (the one on the
 * PATH, or $KUBECTL). CI installs Debian's kubernetes-client when none is present (.ci/run).
 */
import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { configMap } from './apiServerClient.js';

const kubectlBinary = process.env['KUBECTL'] ?? 'kubectl';

interface Kubectl {
  readonly server: TestApiServer;
  readonly dir: string;
  run(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  args(...args: string[]): string[];
}

async function withKubectl(run: (k: Kubectl) => Promise<void>): Promise<void> {
  const widgets = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, shortNames: ['wd'] };
  const server = await createTestApiServer({ resources: [widgets] });
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-kubectl-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeConfig(kubeconfig);
  const args = (...rest: string[]) => ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), '--request-timeout', '10s', ...rest];
  const k: Kubectl = {
    server,
    dir,
    args,
    run: (...rest) =>
      new Promise((resolve, reject) => {
        execFile(kubectlBinary, args(...rest), { timeout: 20_000, env: { ...process.env, HOME: dir } }, (error, stdout, stderr) => {
          if (error) reject(new Error(`kubectl ${rest.join(' ')} failed: ${error.message}\n${stderr}`));
          else resolve({ stdout, stderr });
        });
      }),
  };
  try {
    await run(k);
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test('kubectl get configmaps -o json lists what the server holds', async (t) => {
  await withKubectl(async (k) => {
    k.server.create('configmaps', configMap('default', 'one', { app: 'x' }, { a: '1' }));
    k.server.create('configmaps', configMap('default', 'two'));
    k.server.create('configmaps', configMap('other', 'three'));
    const { stdout } = await k.run('get', 'configmaps', '-o', 'json');
    const list = JSON.parse(stdout);
    t.is(list.kind, 'List');
    t.deepEqual(list.items.map((i: any) => `${i.kind}/${i.metadata.name}`), ['ConfigMap/one', 'ConfigMap/two']);
    t.deepEqual(list.items[0].data, { a: '1' });
    t.is(list.items[0].metadata.resourceVersion, k.server.get('configmaps', 'default', 'one')!.metadata!.resourceVersion);
    const all = JSON.parse((await k.run('get', 'configmaps', '--all-namespaces', '-o', 'json', '-l', 'app=x')).stdout);
    t.deepEqual(all.items.map((i: any) => i.metadata.name), ['one']);
    const table = (await k.run('get', 'configmaps', '-n', 'other')).stdout;
    t.regex(table, /^NAME\s+DATA\s+AGE\nthree\s+1\s+\d+s\n$/);
  });
});

test('kubectl get pods -A prints the columns kube-apiserver gives pods: NAMESPACE NAME READY STATUS RESTARTS AGE', async (t) => {
  // Issue 43: the server's Tables had Name and Age only, for every kind.
  await withKubectl(async (k) => {
    const container = (name: string) => ({ name, image: 'nginx' });
    k.server.create('pods', { metadata: { name: 'web-1', namespace: 'web' }, spec: { nodeName: 'node-a', containers: [container('app'), container('sidecar')] },
      status: { phase: 'Running', podIP: '10.0.0.5', containerStatuses: [{ name: 'app', ready: true, restartCount: 2 }, { name: 'sidecar', ready: false, restartCount: 1 }] } });
    k.server.create('pods', { metadata: { name: 'job-1', namespace: 'batch' }, spec: { containers: [container('app')] },
      status: { phase: 'Pending', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } }] } });
    const lines = (await k.run('get', 'pods', '-A')).stdout.trimEnd().split('\n').map((line) => line.trim().split(/\s+/));
    t.deepEqual(lines[0], ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    t.deepEqual(lines.slice(1).map((cells) => cells.slice(0, 5)), [['batch', 'job-1', '0/1', 'ImagePullBackOff', '0'], ['web', 'web-1', '1/2', 'Running', '3']]);
    const wide = (await k.run('get', 'pods', '-n', 'web', '-o', 'wide')).stdout.split('\n').map((line) => line.trim().split(/\s+/));
    t.deepEqual(wide[0], ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE']);
    t.deepEqual([wide[1]![5], wide[1]![6]], ['10.0.0.5', 'node-a']);
  });
});

test('kubectl get --chunk-size=2 pages through the list with limit/continue', async (t) => {
  await withKubectl(async (k) => {
    for (let i = 0; i < 5; i++) k.server.create('configmaps', configMap('default', `cm-${i}`));
    k.server.clearRequests();
    const { stdout } = await k.run('get', 'configmaps', '--chunk-size=2', '-o', 'name');
    t.deepEqual(stdout.trim().split('\n'), [0, 1, 2, 3, 4].map((i) => `configmap/cm-${i}`));
    const lists = k.server.requests.filter((r) => r.verb === 'list');
    t.is(lists.length, 3);
    t.deepEqual(lists.map((r) => r.query['limit']), ['2', '2', '2']);
    t.is(lists[0]!.query['continue'], undefined);
    t.truthy(lists[1]!.query['continue']);
    t.truthy(lists[2]!.query['continue']);
    t.true(lists.every((r) => r.status === 200));
  });
});

test('kubectl get -w sees a create, a modify and a delete made through the API', async (t) => {
  await withKubectl(async (k) => {
    k.server.create('configmaps', configMap('default', 'before'));
    const listRV = k.server.resourceVersion;
    const child = spawn(kubectlBinary, k.args('get', 'configmaps', '-w', '--output-watch-events'), { env: { ...process.env, HOME: k.dir } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await k.server.waitForWatches(1, 10_000);
      k.server.create('configmaps', configMap('default', 'live'));
      k.server.patch('configmaps', 'default', 'live', { data: { k: 'changed' } });
      k.server.delete('configmaps', 'default', 'live');
      const deadline = Date.now() + 10_000;
      while (!/DELETED\s+live/.test(stdout) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const rows = stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/).slice(0, 2).join(' '));
      t.deepEqual(rows, ['EVENT NAME', 'ADDED before', 'ADDED live', 'MODIFIED live', 'DELETED live'], stderr);
      const watch = k.server.requests.find((r) => r.verb === 'watch')!;
      t.is(watch.query['resourceVersion'], listRV, 'kubectl watches from the RV of its list');
      t.regex(watch.headers.accept ?? '', /as=Table/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

test('kubectl create -f, label, patch (json, merge) and delete change the server state', async (t) => {
  await withKubectl(async (k) => {
    const file = join(k.dir, 'cm.json');
    await writeFile(file, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-file', namespace: 'team' }, data: { x: '1' } }));
    t.regex((await k.run('create', '-f', file)).stdout, /configmap\/from-file created/);
    t.deepEqual(k.server.get('configmaps', 'team', 'from-file')?.['data'], { x: '1' });
    t.regex((await k.run('label', 'configmap', 'from-file', '-n', 'team', 'tier=web')).stdout, /labeled/);
    t.deepEqual(k.server.get('configmaps', 'team', 'from-file')?.metadata?.labels, { tier: 'web' });
    t.regex((await k.run('patch', 'configmap', 'from-file', '-n', 'team', '--type=json', '-p', '[{"op":"add","path":"/data/y","value":"2"}]')).stdout, /patched/);
    t.regex((await k.run('patch', 'configmap', 'from-file', '-n', 'team', '--type=merge', '-p', '{"data":{"x":null}}')).stdout, /patched/);
    t.deepEqual(k.server.get('configmaps', 'team', 'from-file')?.['data'], { y: '2' });
    await t.throwsAsync(k.run('create', '-f', file), { message: /AlreadyExists|already exists/ });
    t.regex((await k.run('delete', 'configmap', 'from-file', '-n', 'team')).stdout, /configmap "from-file" deleted/);
    t.is(k.server.get('configmaps', 'team', 'from-file'), undefined);
    await t.throwsAsync(k.run('delete', 'configmap', 'from-file', '-n', 'team'), { message: /NotFound|not found/ });
  });
});

test('kubectl create configmap sends protobuf: the server answers 415 UnsupportedMediaType as kube-apiserver answers a body it cannot read, and the JSON route works', async (t) => {
  // Issue 43: kubectl 1.32's generators send built-in types as protobuf; the server answered 400
  // "not valid JSON". It now answers what kube-apiserver answers for a media type it cannot decode.
  // kubectl 1.32 does not retry such a create as JSON (checked here: one request), so the README
  // gives the JSON route: the generator's output piped into `kubectl create -f -`.
  await withKubectl(async (k) => {
    k.server.clearRequests();
    await t.throwsAsync(k.run('create', 'configmap', 'literal', '-n', 'team', '--from-literal=mode=fast'), {
      message: /error: failed to create configmap: the body of the request was in an unknown format - accepted media types include: application\/json\n/,
    });
    t.deepEqual(k.server.requests.filter((r) => r.verb === 'create').map((r) => [r.headers.contentType, r.status]), [['application/vnd.kubernetes.protobuf', 415]]);
    const generated = (await k.run('create', 'configmap', 'literal', '-n', 'team', '--from-literal=mode=fast', '--dry-run=client', '-o', 'json')).stdout;
    const file = join(k.dir, 'generated.json');
    await writeFile(file, generated);
    t.regex((await k.run('create', '-f', file)).stdout, /configmap\/literal created/);
    t.deepEqual(k.server.get('configmaps', 'team', 'literal')?.['data'], { mode: 'fast' });
  });
});

test('kubectl finds a custom resource through discovery', async (t) => {
  await withKubectl(async (k) => {
    k.server.create('widgets.example.com', { metadata: { name: 'w1', namespace: 'default' }, spec: { size: 3 } });
    const { stdout } = await k.run('get', 'widgets', '-o', 'json');
    const list = JSON.parse(stdout);
    t.deepEqual(list.items.map((i: any) => `${i.apiVersion}/${i.kind}/${i.metadata.name}/${i.spec.size}`), ['example.com/v1/Widget/w1/3']);
    t.regex((await k.run('get', 'wd', 'w1', '-o', 'name')).stdout, /^widget\.example\.com\/w1$/m);
  });
});

test('kubectl get --raw of a path no API claims fails as it does against kube-apiserver v1.36.3', async (t) => {
  await withKubectl(async (k) => {
    // The server answers `404 page not found` as text, as the real one's mux does; kubectl, like
    // client-go, reads a 404 without a Status as the generic NotFound.
    await t.throwsAsync(k.run('get', '--raw', '/nope'), { message: /\nError from server \(NotFound\): the server could not find the requested resource\n$/ });
  });
});
