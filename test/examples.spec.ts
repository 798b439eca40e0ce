import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApiServer } from '../src/testServer/index.js';
import { stripTypesImport } from './helpers/stripTypesImport.js';
import { until } from './helpers/until.js';

const root = new URL('../', import.meta.url);

/** Every example started, so that none outlives the suite whatever a test did. */
const started = new Set<ChildProcess>();
test.after.always(() => {
  for (const child of started) child.kill();
});

/** Runs an example (TypeScript stripped as in the test workers), collecting stdout lines; resolves once `until` matches the output so far. */
function runExample(file: string, env: Record<string, string>, until: (lines: string[]) => boolean, args: string[] = []) {
  const child = spawn(process.execPath, [stripTypesImport, file, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill(); // never leave an example running behind a failed test
      reject(new Error(`${file} timed out; stdout: ${lines.join(' | ')}; stderr: ${stderr}`));
    }, 50_000); // a hang guard, not a speed check: six examples start at once, and a loaded 2-core machine took 15 s for one under tsx
    child.stdout.on('data', (chunk: Buffer) => {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      if (until(lines)) {
        clearTimeout(timer);
        resolve(lines);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!until(lines)) reject(new Error(`${file} exited ${code}; stdout: ${lines.join(' | ')}; stderr: ${stderr}`));
    });
  });
  return { child, lines, done, stderr: () => stderr };
}

test('the README kubeconfig example watches ConfigMaps from the server $KUBECONFIG names, reporting errors on stderr', async (t) => {
  const server = await createTestApiServer();
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-example-'));
  try {
    for (const name of ['a', 'b', 'c']) server.create('configmaps', { metadata: { name, namespace: 'default' } });
    const kubeconfig = join(dir, 'config');
    await server.writeKubeConfig(kubeconfig);
    // The first LIST fails: the error goes to stderr through onStatus, and the retry syncs.
    server.failNext({ status: 500, verbs: ['list'], message: 'etcd is having a bad day' });
    const run = runExample('examples/watchConfigMaps.ts', { KUBECONFIG: kubeconfig }, (lines) => lines.includes('synced: 3 ConfigMaps'));
    await run.done;
    t.regex(run.stderr(), /cannot list configmaps.*etcd is having a bad day/);
    server.patch('configmaps', 'default', 'b', { data: { x: '1' } });
    server.delete('configmaps', 'default', 'c');
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => run.lines.includes('delete default/c') && (clearInterval(check), resolve()), 10);
      setTimeout(() => (clearInterval(check), reject(new Error(run.lines.join(' | ')))), 50_000);
    });
    run.child.kill();
    t.deepEqual(run.lines, ['add default/a', 'add default/b', 'add default/c', 'synced: 3 ConfigMaps', 'update default/b', 'delete default/c']);
    const readme = await readFile(new URL('README.md', root), 'utf8');
    const block = /<!-- kubeconfig-example:[^\n]*-->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    t.is(block, await readFile(new URL('examples/watchConfigMaps.ts', root), 'utf8'), 'README shows the example as it is');
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

/** Runs an example to its exit: its exit code, stdout lines and stderr. */
function runToExit(file: string, env: Record<string, string>, onLine: (line: string) => void = () => undefined) {
  const child = spawn(process.execPath, [stripTypesImport, file], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      lines.push(line);
      onLine(line);
    }
  });
  return new Promise<{ code: number | null; lines: string[]; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, lines, stderr })));
}

test('the README kubeconfig example, under a source that fails for good, says FAILED and exits 1 without crashing (before or after its sync)', async (t) => {
  // Issue 43: its changes$ subscriber had no error callback, so the failure went to RxJS's
  // reportUnhandledError, thrown from a timer: a stack trace and exit 1 from inside rxjs.
  const server = await createTestApiServer();
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-example-'));
  try {
    server.create('configmaps', { metadata: { name: 'a', namespace: 'default' } });
    const kubeconfig = join(dir, 'config');
    await server.writeKubeConfig(kubeconfig);
    const rejected = 'unable to parse requirement: unbalanced "("';
    // Before the sync: every LIST is a 400 (a request that can never succeed).
    server.failNext({ status: 400, verbs: ['list'], count: Infinity, message: rejected });
    const before = await runToExit('examples/watchConfigMaps.ts', { KUBECONFIG: kubeconfig });
    server.clearFaults();
    // After the sync: the watch expires (410), and the relist it needs is a 400 for good.
    const after = await runToExit('examples/watchConfigMaps.ts', { KUBECONFIG: kubeconfig }, (line) => {
      if (line !== 'synced: 1 ConfigMaps') return;
      server.failNext({ status: 400, verbs: ['list'], count: Infinity, message: rejected });
      // Its watch opens just after the sync: expire it once it is there.
      const expire = setInterval(() => server.failWatches({ status: 410 }) > 0 && clearInterval(expire), 10);
    });
    for (const [when, run] of [['before the sync', before], ['after the sync', after]] as const) {
      t.is(run.code, 1, `${when}: ${run.stderr}`);
      t.true(run.stderr.split('\n').some((line) => line.startsWith('FAILED ') && line.includes(rejected)), `${when}: ${run.stderr}`);
      t.notRegex(run.stderr, /reportUnhandledError|^\s+at /m, `${when}: no stack trace`);
    }
    t.deepEqual(after.lines, ['add default/a', 'synced: 1 ConfigMaps']);
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('the README leader-election example, on SIGINT, unsubscribes, releases its Lease and exits 0', async (t) => {
  // Issue 43: it set releaseOnCancel but never unsubscribed, so Ctrl-C left the Lease held (the next
  // leader took over 16.3 s later). The block is run as the README shows it.
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const block = /^\*\*Leader election: one replica works[\s\S]*?```ts\n([\s\S]*?)```/m.exec(readme)?.[1];
  t.truthy(block);
  const server = await createTestApiServer();
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-election-'));
  try {
    const kubeconfig = join(dir, 'config');
    await server.writeKubeConfig(kubeconfig);
    const file = fileURLToPath(new URL('.readme-leader-election.ts', root));
    await writeFile(file, block!);
    t.teardown(() => rm(file, { force: true }));
    const child = spawn(process.execPath, [stripTypesImport, file], { cwd: root, env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
    started.add(child);
    const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(`${code} ${signal}`)));
    const holder = () => (server.get('leases.coordination.k8s.io', 'demo', 'my-controller') as { spec?: { holderIdentity?: string } } | undefined)?.spec?.holderIdentity;
    await until(() => (holder() ?? '') !== '', 'the example to lead', 40_000);
    child.kill('SIGINT');
    t.is(await exited, '0 null');
    t.is(holder(), '', 'the Lease is released');
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

/** A server with pods (one pending, one on a missing node), nodes and labelled ConfigMaps, and a kubeconfig for it. */
async function exampleCluster() {
  const server = await createTestApiServer();
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-examples-'));
  for (const node of ['node-a', 'node-b']) server.create('nodes', { metadata: { name: node } });
  const pod = (namespace: string, name: string, nodeName: string | undefined, phase: string) =>
    server.create('pods', { metadata: { name, namespace }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx' }] }, status: { phase } });
  pod('web', 'web-1', 'node-a', 'Running');
  pod('web', 'web-2', 'node-a', 'Running');
  pod('db', 'db-1', 'node-b', 'Running');
  pod('db', 'db-2', undefined, 'Pending');
  pod('web', 'web-3', 'ghost', 'Running');
  server.create('configmaps', { metadata: { name: 'front', namespace: 'default', labels: { app: 'web', tier: 'front' } } });
  server.create('configmaps', { metadata: { name: 'back', namespace: 'default', labels: { app: 'web', tier: 'back' } } });
  server.create('configmaps', { metadata: { name: 'other', namespace: 'default', labels: { app: 'db' } } });
  const kubeconfig = join(dir, 'config');
  await server.writeKubeConfig(kubeconfig);
  return {
    server,
    env: { KUBECONFIG: kubeconfig },
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const waitForLine = (lines: string[], wanted: string, timeoutMs = 10_000) =>
  new Promise<void>((resolve, reject) => {
    const check = setInterval(() => lines.includes(wanted) && (clearInterval(check), clearTimeout(timer), resolve()), 10);
    const timer = setTimeout(() => (clearInterval(check), reject(new Error(`no line "${wanted}" in: ${lines.join(' | ')}`))), timeoutMs);
  });

/** Polls `condition` every 10 ms; rejects with `describe()` after `timeoutMs`. */
const waitFor = (condition: () => boolean, describe: () => string, timeoutMs = 15_000) =>
  new Promise<void>((resolve, reject) => {
    const check = setInterval(() => condition() && (clearInterval(check), clearTimeout(timer), resolve()), 10);
    const timer = setTimeout(() => (clearInterval(check), reject(new Error(describe()))), timeoutMs);
  });

test('examples/podController.ts reports the pending pod and the pod on a missing node, looks again every period until fixed, and follows node changes', async (t) => {
  const cluster = await exampleCluster();
  const count = (lines: readonly string[], wanted: string) => lines.filter((line) => line === wanted).length;
  const pending = 'db/db-2: pending';
  const ghost = 'web/web-3: bound to missing node ghost';
  try {
    const run = runExample('examples/podController.ts', { ...cluster.env, RECHECK_SECONDS: '1' }, (lines) => lines.includes(pending) && lines.includes(ghost));
    await run.done;
    t.is(run.lines[0], 'synced: 5 pods on 2 nodes');
    const describe = () => run.lines.join(' | ');
    // Looked at again every period while broken ...
    await waitFor(() => count(run.lines, pending) >= 2 && count(run.lines, ghost) >= 2, describe);
    // ... and no more once fixed: web-3, still broken, is the clock. Two of its periods let the fix
    // arrive (timers can run before the socket is read), two more must pass without db-2.
    cluster.server.patch('pods', 'db', 'db-2', { status: { phase: 'Running' } });
    const ghostsAtFix = count(run.lines, ghost);
    await waitFor(() => count(run.lines, ghost) >= ghostsAtFix + 2, describe);
    const pendingAfterFix = count(run.lines, pending);
    await waitFor(() => count(run.lines, ghost) >= ghostsAtFix + 4, describe);
    t.is(count(run.lines, pending), pendingAfterFix, 'a fixed pod is not reported again');
    cluster.server.delete('nodes', undefined, 'node-b');
    await waitForLine(run.lines, 'db/db-1: bound to missing node node-b');
    run.child.kill();
    t.false(run.lines.some((line) => line.startsWith('web/web-1')), 'healthy pods are not reported');
  } finally {
    await cluster.close();
  }
});

/** The reports of indexByNode.ts so far: one block per header line, `node: count` per row. */
function nodeReports(lines: readonly string[]): Map<string, number>[] {
  const reports: Map<string, number>[] = [];
  for (const line of lines) {
    if (line.startsWith('pods by node at resourceVersion ')) reports.push(new Map());
    const row = /^ {2}(.+): (\d+)$/.exec(line);
    if (row) reports.at(-1)?.set(row[1]!, Number(row[2]));
  }
  return reports;
}

test('examples/indexByNode.ts prints pods per node once synced, then at most once a second while pods keep changing', async (t) => {
  const cluster = await exampleCluster();
  const spawnedAt = Date.now();
  let churn: ReturnType<typeof setInterval> | undefined;
  try {
    const run = runExample('examples/indexByNode.ts', cluster.env, (lines) => lines.includes('  node-b: 1'));
    await run.done;
    t.deepEqual(run.lines.slice(1, 5), ['  (unscheduled): 1', '  ghost: 1', '  node-a: 2', '  node-b: 1']);
    // A busy cluster: a pod comes or goes on node-a every 20 ms and the changes never pause.
    let n = 0;
    churn = setInterval(() => {
      n += 1;
      cluster.server.create('pods', { metadata: { name: `churn-${n}`, namespace: 'web' }, spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'nginx' }] } });
      if (n > 1) cluster.server.delete('pods', 'web', `churn-${n - 1}`);
    }, 20);
    const describe = () => `reports: ${JSON.stringify(nodeReports(run.lines).map((r) => [...r]))}`;
    await waitFor(() => nodeReports(run.lines).length >= 3, describe);
    clearInterval(churn);
    // The last state is reported too (the trailing edge), and the rate stayed within once a second.
    cluster.server.create('pods', { metadata: { name: 'last', namespace: 'db' }, spec: { nodeName: 'node-b', containers: [{ name: 'c', image: 'nginx' }] } });
    await waitFor(() => nodeReports(run.lines).at(-1)?.get('node-b') === 2, describe);
    const elapsedSeconds = (Date.now() - spawnedAt) / 1000;
    run.child.kill();
    const reports = nodeReports(run.lines);
    t.true(reports.length <= 2 + elapsedSeconds, `${reports.length} reports in ${elapsedSeconds.toFixed(1)} s`);
    t.is(reports.at(-1)?.get('node-a'), 3, 'the final report counts node-a\'s pods as they are: web-1, web-2 and the last churn pod');
  } finally {
    clearInterval(churn);
    await cluster.close();
  }
});

test('examples/snapshotSummary.ts prints the summary at most once a second, and only when it changes', async (t) => {
  const cluster = await exampleCluster();
  const spawnedAt = Date.now();
  try {
    const run = runExample('examples/snapshotSummary.ts', cluster.env, (lines) => lines.includes('5 pods in 2 namespaces: Pending=1 Running=4'));
    await run.done;
    // Changes that leave the summary as it is: 75 label writes, 20 ms apart, span more than one
    // sampling period (setInterval never fires early), so a summary printed per tick would repeat.
    let writes = 0;
    const relabel = setInterval(() => cluster.server.patch('pods', 'web', 'web-1', { metadata: { labels: { tick: String(++writes) } } }), 20);
    await waitFor(() => writes >= 75, () => `${writes} label writes`).finally(() => clearInterval(relabel));
    cluster.server.patch('pods', 'db', 'db-2', { status: { phase: 'Running' } });
    await waitForLine(run.lines, '5 pods in 2 namespaces: Running=5');
    const elapsedSeconds = (Date.now() - spawnedAt) / 1000;
    run.child.kill();
    t.deepEqual(run.lines, ['5 pods in 2 namespaces: Pending=1 Running=4', '5 pods in 2 namespaces: Running=5'], 'each summary once');
    t.true(run.lines.length <= 1 + elapsedSeconds);
  } finally {
    await cluster.close();
  }
});

test('examples/labelSelectorView.ts filters on the server and again on the snapshot', async (t) => {
  const cluster = await exampleCluster();
  try {
    const done = 'add default/front: 2 match "app=web", 1 of them also "tier in (front)"';
    const run = runExample('examples/labelSelectorView.ts', cluster.env, (lines) => lines.includes(done), ['app=web', 'tier in (front)']);
    await run.done;
    cluster.server.create('configmaps', { metadata: { name: 'front-2', namespace: 'default', labels: { app: 'web', tier: 'front' } } });
    await waitForLine(run.lines, 'add default/front-2: 3 match "app=web", 2 of them also "tier in (front)"');
    run.child.kill();
    t.false(run.lines.some((line) => line.includes('default/other')), 'the server never sent the non-matching ConfigMap');
  } finally {
    await cluster.close();
  }
});

test('examples/marbleTest.ts passes', async (t) => {
  const run = runExample('examples/marbleTest.ts', {}, (lines) => lines.includes('marble test passed'));
  t.deepEqual(await run.done, ['marble test passed']);
});

// The operator's two runs go one after the other, before the rest start at once: fewer processes at a time on a loaded machine.
test.serial('examples/configMapSet/main.ts --demo: the operator creates, repairs, updates and finalizes against the in-process API server', async (t) => {
  const run = runExample('examples/configMapSet/main.ts', {}, (lines) => lines.includes('demo: done'), ['--demo']);
  const lines = (await run.done).filter((line) => !line.startsWith('operator:'));
  t.regex(lines[0]!, /^demo: in-process API server at http:\/\/127\.0\.0\.1:\d+$/);
  t.deepEqual(lines.slice(1, 6), [
    'web: Ready, 2 ConfigMaps, finalizer demo.rx-informer.dev/cleanup',
    'edited web-app by hand: mode=slow',
    'web-app put back: mode=fast',
    'spec changed: ConfigMaps web-app, web-cache',
    'web deleted after its ConfigMaps: 0 left',
  ]);
  t.regex(lines[6]!, /^events: CleanedUp, Created, Created, Created, Deleted, Updated(x\d+)?$/, 'one Created per ConfigMap, repeats folded');
  t.is(lines[7], 'demo: done');
  const operator = run.lines.filter((line) => line.startsWith('operator:') && !line.includes('write conflict'));
  t.deepEqual(operator.filter((line) => !line.startsWith('operator: updated')), [
    'operator: created ConfigMap demo/web-app',
    'operator: created ConfigMap demo/web-db',
    'operator: created ConfigMap demo/web-cache',
    'operator: deleted ConfigMap demo/web-db',
    'operator: deleted ConfigMap demo/web-app',
    'operator: deleted ConfigMap demo/web-cache',
    'operator: cleaned up demo/web',
  ]);
});

test.serial('examples/configMapSet/main.ts against a kubeconfig: probes turn ready once synced, SIGTERM stops it gracefully', async (t) => {
  const server = await createTestApiServer({ resources: [{ group: 'demo.rx-informer.dev', version: 'v1', plural: 'configmapsets', kind: 'ConfigMapSet', namespaced: true, statusSubresource: true }] });
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-operator-'));
  try {
    const kubeconfig = join(dir, 'config');
    await server.writeKubeConfig(kubeconfig);
    server.create('configmapsets.demo.rx-informer.dev', { apiVersion: 'demo.rx-informer.dev/v1', kind: 'ConfigMapSet', metadata: { name: 's', namespace: 'x' }, spec: { configMaps: { one: { k: 'v' } } } });
    const run = runExample('examples/configMapSet/main.ts', { KUBECONFIG: kubeconfig }, (lines) => lines.includes('created ConfigMap x/s-one') && lines.some((l) => l.startsWith('probes on ')), ['--probe-port', '0']);
    await run.done;
    const port = /:(\d+)\/healthz/.exec(run.lines.find((l) => l.startsWith('probes on '))!)![1];
    const readyz = await fetch(`http://127.0.0.1:${port}/readyz?verbose`);
    t.is(readyz.status, 200);
    t.is(await readyz.text(), '[+]ping ok\n[+]informers ok\nreadyz check passed\n');
    t.is((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
    const exited = new Promise<number | null>((resolve) => run.child.on('exit', resolve));
    run.child.kill('SIGTERM');
    t.is(await exited, 0);
    t.is(run.lines.at(-1), 'stopped');
    t.deepEqual(server.get('configmaps', 'x', 's-one')?.['data'], { k: 'v' });
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
