/**
 * The package as a user gets it (issue 12 items 14 and 15): built and packed with npm from a copy
 * of the repository, installed with npm into a fresh project that has its own rxjs 7.8.1, then used
 * from that project: one rxjs, marble tests on the user's TestScheduler, require() from CommonJS,
 * TypeScript consumers (ESM and CommonJS), source maps, no CLI inside (packages/cli/test/packageBin.spec.ts
 * tests the CLI's own package), the metadata.
 *
 * Offline: every package the project installs is a tarball packed here from node_modules (rxjs
 * 7.8.1 is the `rxjs-7.8.1` devDependency alias), so npm resolves the tree, as it does for a user,
 * without asking the registry. client-node and prom-client, optional peers, are linked in after.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { oldNodes } from './helpers/oldNodes.js';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../', import.meta.url));
const node = process.execPath; // the project's Node 24
const npmCli = process.env['npm_execpath'];
/**
 * How long a build, pack, install or type-check may take before it is taken for hung: a guard, not a
 * bound on speed. At load 20 on two cores (issue 38's runs) the library's build alone took over 120 s.
 */
const hangGuardMs = 600_000;
const npm = (args: string[], cwd: string) =>
  npmCli && npmCli.endsWith('.js') ? exec(node, [npmCli, ...args], { cwd, timeout: hangGuardMs }) : exec('npm', args, { cwd, timeout: hangGuardMs });

interface Installed {
  readonly tmp: string;
  readonly project: string;
  /** node_modules/rx-informer inside the project. */
  readonly pkg: string;
  readonly manifest: { readonly [field: string]: unknown };
}

/** Copies what a build needs, builds and packs it as npm does, and installs the tarball into a fresh project. */
async function packAndInstall(): Promise<Installed> {
  const tmp = await mkdtemp(join(tmpdir(), 'rx-informer-package-'));
  const stage = join(tmp, 'stage');
  await mkdir(stage);
  for (const entry of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'src']) {
    if (existsSync(join(root, entry))) await cp(join(root, entry), join(stage, entry), { recursive: true });
  }
  // The Go modules rx-informer/envtest builds its binaries from (package.json `files`).
  for (const name of ['etcd', 'kube-apiserver', 'kube-controller-manager']) {
    await mkdir(join(stage, 'test/cluster', name), { recursive: true });
    for (const file of ['go.mod', 'go.sum']) await cp(join(root, 'test/cluster', name, file), join(stage, 'test/cluster', name, file));
  }
  await symlink(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');
  await exec(node, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: stage, timeout: hangGuardMs });
  await exec(node, [join(root, 'scripts/buildBrowser.mjs'), stage], { cwd: stage, timeout: hangGuardMs }); // npm run build's second step
  const deps = join(tmp, 'deps');
  await mkdir(deps);
  const pack = async (dir: string) => JSON.parse((await npm(['pack', dir, '--json', '--ignore-scripts', '--pack-destination', deps], tmp)).stdout)[0].filename as string;
  const tarball = await pack(stage);
  // The user's own rxjs 7.8.1 and what the packages need besides, all from node_modules.
  const rxjs = await pack(join(root, 'node_modules/rxjs-7.8.1'));
  const tslib = await pack(join(root, 'node_modules/tslib'));
  const immer = await pack(join(root, 'node_modules/immer'));
  const project = join(tmp, 'project');
  await mkdir(project);
  const dependencies = { 'rx-informer': tarball, rxjs, tslib, immer };
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module', dependencies: Object.fromEntries(Object.entries(dependencies).map(([name, file]) => [name, `file:../deps/${file}`])) }, null, 2),
  );
  await npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
  // Optional peers the user would install: linked, so their own dependencies resolve from ours.
  await mkdir(join(project, 'node_modules/@kubernetes'), { recursive: true });
  await symlink(join(root, 'node_modules/@kubernetes/client-node'), join(project, 'node_modules/@kubernetes/client-node'), 'dir');
  await symlink(join(root, 'node_modules/prom-client'), join(project, 'node_modules/prom-client'), 'dir');
  const pkg = join(project, 'node_modules/rx-informer');
  return { tmp, project, pkg, manifest: JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8')) };
}

let installed: Promise<Installed> | undefined;
const project = () => (installed ??= packAndInstall());
test.after.always(async () => {
  const done = await installed?.catch(() => undefined);
  if (done) await rm(done.tmp, { recursive: true, force: true });
});

/** Runs `code` as a file of the project; resolves with stdout, rejects with stderr. */
async function runInProject(file: string, code: string, args: string[] = []): Promise<string> {
  const { project: dir } = await project();
  await writeFile(join(dir, file), code);
  const { stdout } = await exec(node, [...args, file], { cwd: dir, timeout: 60_000 });
  return stdout;
}

test('rxjs is a peer dependency, with a devDependency for our own tests, and not a dependency', async (t) => {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  t.is(manifest['dependencies']?.['rxjs'], undefined);
  t.regex(manifest['peerDependencies']?.['rxjs'] ?? '', /^\^7\.\d+\.\d+$/);
  t.truthy(manifest['devDependencies']?.['rxjs']);
  t.falsy(manifest['peerDependenciesMeta']?.['rxjs'], 'rxjs is not optional');
});

test('a project with its own rxjs 7.8.1 gets one copy of rxjs', async (t) => {
  const { project: dir, pkg } = await project();
  t.false(existsSync(join(pkg, 'node_modules/rxjs')), 'no rxjs nested under rx-informer');
  const versions = await runInProject(
    'versions.mjs',
    `import { createRequire } from 'node:module';
     const fromProject = createRequire(import.meta.url).resolve('rxjs/package.json');
     const fromLibrary = createRequire(${JSON.stringify(join(pkg, 'dist/index.js'))}).resolve('rxjs/package.json');
     console.log(JSON.stringify({ same: fromProject === fromLibrary, version: createRequire(import.meta.url)('rxjs/package.json').version }));`,
  );
  t.deepEqual(JSON.parse(versions), { same: true, version: '7.8.1' });
  t.true(existsSync(join(dir, 'node_modules/rxjs')));
});

test('a marble test on the user\'s own TestScheduler sees the informer\'s notifications', async (t) => {
  // With a second rxjs the informer batches on its own schedulers and this saw nothing (actual []).
  const out = await runInProject(
    'marbles.mjs',
    `import { deepStrictEqual } from 'node:assert';
     import { map } from 'rxjs';
     import { TestScheduler } from 'rxjs/testing';
     import { informer } from 'rx-informer';
     import { added, configMap, listEvents, marbleSource } from 'rx-informer/testing';
     new TestScheduler((actual, expected) => deepStrictEqual(actual, expected)).run(({ cold, expectObservable }) => {
       const source = marbleSource(cold, '-L--a-', { L: listEvents([configMap('x')], '1'), a: added(configMap('y')) });
       expectObservable(informer(source).changes$.pipe(map((c) => c.key))).toBe('-x--y-', { x: 'default/x', y: 'default/y' });
     });
     console.log('saw the marbles');`,
  );
  t.is(out.trim(), 'saw the marbles');
});

test('require() of every entry point works from CommonJS (Node >= 22.12 loads ESM synchronously)', async (t) => {
  const out = await runInProject(
    'entries.cjs',
    `const main = require('rx-informer');
     const testing = require('rx-informer/testing');
     const testServer = require('rx-informer/test-server');
     const prometheus = require('rx-informer/prometheus');
     const controller = require('rx-informer/controller');
     const envtest = require('rx-informer/envtest');
     console.log([typeof main.informer, typeof testing.fakeListWatch, typeof testServer.createTestApiServer, typeof prometheus.registerInformerMetrics, typeof controller.controller, typeof envtest.startControlPlane].join(' '));`,
  );
  t.is(out.trim(), 'function function function function function function');
});

test('rx-informer/envtest ships its watchdog and, where buildFromGo.ts looks, the Go modules it builds from', async (t) => {
  const { pkg } = await project();
  t.true(existsSync(join(pkg, 'dist/envtest/watchdog.js')));
  for (const name of ['etcd', 'kube-apiserver', 'kube-controller-manager']) {
    for (const file of ['go.mod', 'go.sum']) t.true(existsSync(join(pkg, 'test/cluster', name, file)), `${name}/${file}`);
  }
  t.false(existsSync(join(pkg, 'test/cluster/env.sh')), 'nothing else of test/');
});

test('TypeScript projects type-check against the packed types, from ESM and from CommonJS', async (t) => {
  const { project: dir } = await project();
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2023', strict: true, noEmit: true, skipLibCheck: true, types: [] }, include: ['consumer.ts', 'consumer.cts'] }),
  );
  await writeFile(
    join(dir, 'consumer.ts'),
    `import type { V1Pod } from '@kubernetes/client-node';
     import { informer, reconcile, type Json } from 'rx-informer';
     import { fakeListWatch, pod } from 'rx-informer/testing';
     import { createTestApiServer } from 'rx-informer/test-server';
     import { registerInformerMetrics } from 'rx-informer/prometheus';
     import { controller, terminal } from 'rx-informer/controller';
     const pods = informer<Json<V1Pod>>(fakeListWatch([pod('a')]).events$);
     const created: string | undefined = pods.snapshot.get('default/a')?.metadata?.creationTimestamp;
     const server = await createTestApiServer();
     server.create('pods', pod('b'));
     reconcile(async () => ({ requeueAfterMs: 1 }));
     const outcomes = controller(pods, { reconcile: (p) => (p?.spec?.nodeName ? undefined : Promise.reject(terminal('unscheduled'))) });
     export { created, registerInformerMetrics, outcomes };
    `,
  );
  await writeFile(
    join(dir, 'consumer.cts'),
    `import rx = require('rx-informer');
     import testing = require('rx-informer/testing');
     export const snapshot: rx.Snapshot = rx.informer(testing.fakeListWatch([]).events$).snapshot;
    `,
  );
  const tsc = exec(node, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, timeout: hangGuardMs });
  await t.notThrowsAsync(tsc.catch((error: { stdout?: string }) => Promise.reject(new Error(error.stdout))));
});

test('the packed declarations compile in a strict project with skipLibCheck false; client-node\'s own types then need @types/ws', async (t) => {
  // Every entry point's declarations, checked as a strict user's project checks them. Under
  // skipLibCheck true (the test above) a declaration that names something stripInternal removed
  // went unseen: httpListerWatcher.d.ts re-exported the @internal CollectionHooks (TS2305).
  const { project: dir } = await project();
  await mkdir(join(dir, 'strict'), { recursive: true });
  await writeFile(
    join(dir, 'strict/tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2023', strict: true, noEmit: true, skipLibCheck: false, types: [] }, include: ['consumer.ts'] }),
  );
  await writeFile(
    join(dir, 'strict/consumer.ts'),
    `import type { V1ConfigMap } from '@kubernetes/client-node';
     import * as main from 'rx-informer';
     import * as testing from 'rx-informer/testing';
     import * as testServer from 'rx-informer/test-server';
     import * as prometheus from 'rx-informer/prometheus';
     import * as controllers from 'rx-informer/controller';
     import * as fleet from 'rx-informer/fleet';
     import * as relay from 'rx-informer/relay';
     import * as web from 'rx-informer/web';
     import * as envtest from 'rx-informer/envtest';
     export const maps = main.informer<main.Json<V1ConfigMap>>(testing.fakeListWatch([testing.configMap('a')]).events$);
     export { main, testing, testServer, prometheus, controllers, fleet, relay, web, envtest };
    `,
  );
  const diagnostics = await exec(node, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'strict'), '--pretty', 'false'], { cwd: dir, timeout: hangGuardMs }).then(
    () => [],
    (error: { stdout?: string }) => (error.stdout ?? '').split('\n').filter((line) => /error TS\d+/.test(line)),
  );
  // Nothing at all: client-node's isomorphic-ws declarations import 'ws', whose types a user adds as
  // @types/ws (the README's Install section says so); here they resolve from this repository's
  // devDependencies, where the relay's own use of ws put them, as the user's project would have them.
  t.deepEqual(diagnostics, []);
});

test('source maps carry their sources, so stack traces and debuggers reach the TypeScript', async (t) => {
  const { pkg } = await project();
  const maps: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(dir, entry.name));
      else if (entry.name.endsWith('.js.map')) maps.push(join(dir, entry.name));
    }
  };
  await walk(join(pkg, 'dist'));
  t.true(maps.length > 50, `${maps.length} maps`);
  for (const path of maps) {
    const map = JSON.parse(await readFile(path, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
    const sources = map.sources.map((source) => relative(root, resolve(root, 'src', relative(join(pkg, 'src'), resolve(dirname(path), source)))));
    const expected = await Promise.all(sources.map((source) => readFile(join(root, source), 'utf8')));
    t.deepEqual(map.sourcesContent, expected, relative(pkg, path));
  }
  // A throw inside the library, reported from the original source with --enable-source-maps.
  const trace = await runInProject(
    'trace.mjs',
    `import { parseLabelSelector } from 'rx-informer';
     try { parseLabelSelector('a in (b'); } catch (error) { console.log(error.stack); }`,
    ['--enable-source-maps'],
  );
  t.regex(trace, /src\/store\/labelSelector\.ts:\d+:\d+/);
});

test('on Node older than 22.19, what talks to a server says so in one line; the rest of the library loads', async (t) => {
  const { project: dir } = await project();
  // client-node 2 does not load there (undici fails with a TypeError), so the KubeConfig is a stand-in.
  await writeFile(
    join(dir, 'old-node.mjs'),
    `import { informer, informerFactory, listWatch } from 'rx-informer';
     import { fakeListWatch } from 'rx-informer/testing';
     import { leaseClient, resourceClient } from 'rx-informer/controller';
     import 'rx-informer/prometheus';
     const kubeConfig = { applyToHTTPSOptions: async () => undefined, getCurrentCluster: () => ({ server: 'http://127.0.0.1:1' }) };
     const calls = { listWatch: () => listWatch(kubeConfig, { version: 'v1', plural: 'pods' }), informerFactory: () => informerFactory(kubeConfig),
       resourceClient: () => resourceClient(kubeConfig), leaseClient: () => leaseClient(kubeConfig) };
     const said = {};
     for (const [name, call] of Object.entries(calls)) { try { call(); said[name] = 'no error'; } catch (error) { said[name] = error.message; } }
     said.fakes = typeof informer(fakeListWatch([]).events$).connect;
     said.testServer = await import('rx-informer/test-server').then(() => 'loaded', (error) => error.message);
     console.log(JSON.stringify(said));`,
  );
  await writeFile(join(dir, 'old-node-test-server.mjs'), `import { createTestApiServer } from 'rx-informer/test-server';\nawait createTestApiServer();\n`);
  const pretend = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.0.0'});Object.defineProperty(process,'version',{value:'v20.0.0'})";
  const runs: [string, string, string[]][] = [...(await oldNodes())].map(([version, path]) => [version, path, []]);
  runs.push(['v20.0.0 (pretended)', node, ['--import', pretend]]);
  for (const [version, path, args] of runs) {
    const said = JSON.parse((await exec(path, [...args, 'old-node.mjs'], { cwd: dir, timeout: 30_000 })).stdout) as Record<string, string>;
    const server = `needs Node.js 22.19 or newer to talk to an API server; this is ${version.split(' ')[0]}`;
    t.deepEqual(
      said,
      { listWatch: `rx-informer ${server}`, informerFactory: `rx-informer ${server}`, resourceClient: `rx-informer ${server}`, leaseClient: `rx-informer ${server}`, fakes: 'function',
        testServer: `rx-informer/test-server needs Node.js 22.19 or newer; this is ${version.split(' ')[0]}` },
      version,
    );
    // Uncaught, as a user's program would meet it: the message on a line of its own, nothing from undici.
    const failure = await exec(path, [...args, 'old-node-test-server.mjs'], { cwd: dir, timeout: 30_000 }).then(() => undefined, (error: { code?: number; stderr?: string }) => error);
    t.is(failure?.code, 1, version);
    t.true((failure?.stderr ?? '').split('\n').includes(`Error: rx-informer/test-server needs Node.js 22.19 or newer; this is ${version.split(' ')[0]}`), failure?.stderr);
    t.notRegex(failure?.stderr ?? '', /undici/, version);
    if (!version.includes('pretended')) t.log(`${version}:\n${failure?.stderr}`);
  }
});

test('the package holds the library only: no bin, no CLI (the rx-informer-cli package has it)', async (t) => {
  const { pkg, manifest } = await project();
  t.false('bin' in manifest);
  const shipped = await readdir(pkg, { recursive: true });
  t.true(shipped.includes('dist/index.js'), 'the scan sees the package');
  t.deepEqual(shipped.filter((file) => /(^|\/)cli(\/|$)/.test(file) || /\b(bin|runWatch|liveScreen)\.js$/.test(file)), []);
});

test('the package ships its license, changelog and readme, and says where it lives', async (t) => {
  const { pkg, manifest } = await project();
  t.regex(await readFile(join(pkg, 'LICENSE'), 'utf8'), /^Apache License\n\nVersion 2\.0, January 2004/);
  t.regex(await readFile(join(pkg, 'CHANGELOG.md'), 'utf8'), new RegExp(`## ${String(manifest['version']).replaceAll('.', '\\.')}`));
  t.true(existsSync(join(pkg, 'README.md')));
  t.is(manifest['license'], 'Apache-2.0');
  t.truthy(manifest['repository']);
  t.truthy(manifest['homepage']);
  t.truthy(manifest['bugs']);
  t.true(Array.isArray(manifest['keywords']) && (manifest['keywords'] as unknown[]).includes('kubernetes'));
  const exportsMap = manifest['exports'] as Record<string, Record<string, string> | string>;
  for (const [entry, conditions] of Object.entries(exportsMap)) {
    if (typeof conditions === 'string') continue;
    t.is(Object.keys(conditions).at(-1), 'default', `${entry}: default comes last`);
  }
});
