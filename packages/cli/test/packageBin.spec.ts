/**
 * The CLI as its own package (issue 21, item 2): the library's package.json names no bin, the CLI's
 * does, and its tarball, built by build.ts and packed by npm, installs into a fresh project with
 * nothing else and runs there: the Node check on an old Node, `--version`, `watch` against an API
 * server (client-node's KubeConfig from the bundle) and `demo` (the test server from the bundle).
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestApiServer } from 'rx-informer/test-server';
import { oldNodes } from '../../../test/helpers/oldNodes.js';
import { spawnCommand } from './spawnCli.js';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = fileURLToPath(new URL('../', import.meta.url));
const node = process.execPath; // the project's Node 24
const npmCli = process.env['npm_execpath'];
const npm = (args: string[], cwd: string) =>
  npmCli && npmCli.endsWith('.js') ? exec(node, [npmCli, ...args], { cwd, timeout: 120_000 }) : exec('npm', args, { cwd, timeout: 120_000 });

type Manifest = { name: string; version: string; bin?: Record<string, string>; files?: string[]; engines?: { node?: string }; scripts: Record<string, string>; workspaces?: string[] };
const manifest = async (path: string): Promise<Manifest> => JSON.parse(await readFile(path, 'utf8')) as Manifest;

test('the library names no bin; the CLI package installs rx-informer from its bundle; npm start runs the demo from source', async (t) => {
  const library = await manifest(join(root, 'package.json'));
  const own = await manifest(join(cli, 'package.json'));
  t.is(library.bin, undefined);
  t.deepEqual(library.workspaces, ['packages/cli']);
  t.is(library.scripts['start'], 'tsx packages/cli/src/main.ts demo');
  t.deepEqual(own.bin, { 'rx-informer': './dist/bin.js' });
  t.deepEqual(own.files, ['dist']);
  t.is(own.engines?.node, library.engines?.node, 'the CLI needs the Node the library needs');
  const bin = await readFile(join(cli, 'src/bin.ts'), 'utf8');
  t.true(bin.startsWith('#!/usr/bin/env node\n'), 'esbuild keeps the shebang in dist/bin.js');
  t.regex(bin, /await import\('\.\/main\.js'\)/, 'bin.js loads the CLI only after the check');
});

interface Installed {
  readonly tmp: string;
  /** node_modules/.bin/rx-informer's target in a fresh project. */
  readonly bin: string;
  readonly tarball: readonly string[];
  readonly manifest: Manifest;
}

/** Builds the bundle as `npm pack` would (build.ts), packs it with npm, and installs the tarball, alone, into a fresh project. */
async function packAndInstall(): Promise<Installed> {
  const tmp = await mkdtemp(join(tmpdir(), 'rx-informer-cli-package-'));
  const stage = join(tmp, 'stage');
  await mkdir(stage);
  await cp(join(cli, 'package.json'), join(stage, 'package.json'));
  await exec(node, ['--import=tsx', join(cli, 'build.ts'), '--outdir', join(stage, 'dist')], { cwd: root, timeout: 120_000 });
  const packed = JSON.parse((await npm(['pack', stage, '--json', '--ignore-scripts', '--pack-destination', tmp], tmp)).stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const project = join(tmp, 'project');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, dependencies: { 'rx-informer-cli': `file:../${packed[0]!.filename}` } }));
  await npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
  const pkg = join(project, 'node_modules/rx-informer-cli');
  const installed = await manifest(join(pkg, 'package.json'));
  return { tmp, bin: join(pkg, installed.bin!['rx-informer']!), tarball: packed[0]!.files.map((f) => f.path), manifest: installed };
}

let installed: Promise<Installed> | undefined;
const project = () => (installed ??= packAndInstall());
test.after.always(async () => {
  const done = await installed?.catch(() => undefined);
  if (done) await rm(done.tmp, { recursive: true, force: true });
});

test('the tarball holds the bundle, the declarations of rx-informer-cli/crd-types, and the manifest only', async (t) => {
  const { tarball } = await project();
  t.true(tarball.includes('dist/bin.js') && tarball.includes('dist/main.js') && tarball.includes('dist/crd-types.js') && tarball.includes('dist/crd-types.d.ts'));
  t.deepEqual(tarball.filter((path) => !/^dist\/[\w-]+\.c?js$/.test(path) && !/^dist\/(crd-types|crdTypes\/\w+)\.d\.ts$/.test(path) && path !== 'package.json'), []);
});

test('the installed package: rx-informer crd-types writes types, and rx-informer-cli/crd-types imports and type-checks', async (t) => {
  const { bin, tmp } = await project();
  const out = join(tmp, 'generated');
  await exec(node, [bin, 'crd-types', join(cli, 'test/fixtures'), '--out', out]);
  t.true((await readFile(join(out, 'example.com/v1/widgets.ts'), 'utf8')).includes('export interface Widget {'));

  const user = join(tmp, 'project');
  const script = "import { crdsInText, generateCrdTypes } from 'rx-informer-cli/crd-types';\n" +
    "import { readFileSync } from 'node:fs';\n" +
    `const files: { path: string }[] = generateCrdTypes(crdsInText(readFileSync(${JSON.stringify(join(cli, 'test/fixtures/widgets.example.com.yaml'))}, 'utf8'), 'widgets'));\n` +
    "console.log(files.map((file) => file.path).join(' '));\n";
  await writeFile(join(user, 'use.mts'), script);
  const ts = (await import('typescript')).default;
  const program = ts.createProgram([join(user, 'use.mts')], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(root, 'node_modules/@types')] });
  t.deepEqual(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), []);
  const { stdout } = await exec(node, [join(user, 'use.mts')], { cwd: user });
  t.is(stdout, 'meta.ts example.com/v1/widgets.ts example.com/v1/index.ts example.com/v1alpha1/widgets.ts example.com/v1alpha1/index.ts\n');
});

test('the installed CLI on Node older than 22.19 says so in one line and exits 1; on this Node it runs', async (t) => {
  const { bin, manifest: installed } = await project();
  // Every old Node on this machine (here: the system Node 20), and this Node made to report 20.0.0.
  const runs: [string, string, string[]][] = [...(await oldNodes())].map(([version, path]) => [version, path, [bin, 'watch', 'pods']]);
  const pretend = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.0.0'});Object.defineProperty(process,'version',{value:'v20.0.0'})";
  runs.push(['v20.0.0 (pretended)', node, ['--import', pretend, bin, 'watch', 'pods']]);
  for (const [version, path, args] of runs) {
    const failure = await exec(path, args, { timeout: 30_000 }).then(
      () => undefined,
      (error: { code?: number; stderr?: string; stdout?: string }) => error,
    );
    t.is(failure?.code, 1, `exit code on ${version}`);
    const lines = (failure?.stderr ?? '').trim().split('\n');
    t.is(lines.length, 1, `one line on ${version}: ${failure?.stderr}`);
    t.regex(lines[0] ?? '', /^error: rx-informer needs Node\.js 22\.19 or newer; this is v20\.\d+\.\d+/, version);
    t.is(failure?.stdout, '');
  }
  t.is((await exec(node, [bin, '--version'])).stdout, `rx-informer ${installed.version}\n`, 'and on this Node it runs');
  t.log(`ran on: ${runs.map(([version]) => version).join(', ')}`);
});

test('the installed CLI watches an API server (client-node from the bundle) as kubectl prints it', async (t) => {
  const { bin, tmp } = await project();
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  server.create('configmaps', { metadata: { name: 'settings', namespace: 'default' }, data: { a: '1' } });
  const kubeconfig = join(tmp, 'kubeconfig');
  await server.writeKubeConfig(kubeconfig);
  const run = spawnCommand(node, [bin, 'watch', 'configmaps', '--kubeconfig', kubeconfig]);
  t.teardown(() => run.kill('SIGKILL'));
  await run.waitFor('stdout', /^NAME +DATA +AGE\nsettings +1 +\S+\n/);
  run.kill();
  t.is(await run.exit, 0, run.stderr());
});

test('the installed CLI runs the demo (the test server from the bundle)', async (t) => {
  const { bin } = await project();
  const run = spawnCommand(node, [bin, 'demo', '--pods', '20', '--rate', '50', '-o', 'name']);
  t.teardown(() => run.kill('SIGKILL'));
  await run.waitFor('stderr', /^synced 20 pods/m);
  await run.waitFor('stdout', /^pod\/\S+\n/m);
  run.kill();
  t.is(await run.exit, 0, run.stderr());
});
