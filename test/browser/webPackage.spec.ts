/**
 * The built package as a web project meets it (issue 41 item 4): a bundler that reads only the
 * `exports` conditions (not the package's `browser` field) gets no Node built-in from the main
 * entry, and a strict TypeScript web project without @kubernetes/client-node, checking library
 * declarations too (`skipLibCheck: false`), compiles against the shipped declarations.
 *
 * The package is built once, as `npm run build` builds it (tsc, then scripts/buildBrowser.mjs),
 * into a temporary node_modules/rx-informer beside which only rxjs and immer are installed.
 */
import test from 'ava';
import { build, type Metafile } from 'esbuild';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
// @ts-expect-error: a plain .mjs script, checked by its own @ts-check
import { buildBrowserEntry } from '../../scripts/buildBrowser.mjs';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

interface Built {
  readonly dir: string;
  readonly pkg: string;
}

async function buildPackage(): Promise<Built> {
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-web-package-'));
  const pkg = join(dir, 'node_modules/rx-informer');
  await mkdir(pkg, { recursive: true });
  await copyFile(join(root, 'package.json'), join(pkg, 'package.json'));
  await exec(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist'), '--sourceMap', 'false', '--inlineSources', 'false'], {
    cwd: root,
    timeout: 180_000,
  });
  await (buildBrowserEntry as (dir: string) => Promise<string>)(pkg);
  for (const dep of ['rxjs', 'immer']) await symlink(join(root, 'node_modules', dep), join(dir, 'node_modules', dep), 'dir');
  return { dir, pkg };
}

let built: Promise<Built> | undefined;
const packaged = () => (built ??= buildPackage());
test.after.always(async () => {
  const done = await built?.catch(() => undefined);
  if (done) await rm(done.dir, { recursive: true, force: true });
});

test('a bundler that reads only the exports conditions (browser) gets no Node built-in from the main entry', async (t) => {
  const { dir } = await packaged();
  let inputs: string[] = [];
  let errors: string[] = [];
  try {
    const result = await build({
      stdin: { contents: `export { informer, fetchListWatch, toDeltas, emptySnapshot } from 'rx-informer';`, resolveDir: dir, sourcefile: 'app.ts', loader: 'ts' },
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      logLevel: 'silent',
      // No platform defaults: neither the `browser` field nor `module`/`main`; the conditions only.
      platform: 'neutral',
      mainFields: [],
      conditions: ['browser'],
      external: ['rxjs', 'rxjs/*', 'immer'],
    });
    inputs = Object.keys((result.metafile as Metafile).inputs);
  } catch (error) {
    errors = (error as { errors?: Array<{ text: string }> }).errors?.map((e) => e.text) ?? [String(error)];
  }
  t.deepEqual(errors, [], 'a Node built-in cannot be resolved for a neutral platform');
  t.deepEqual(inputs.filter((input) => input.startsWith('node:') || input.includes('client-node')), []);
  t.true(inputs.some((input) => input.endsWith('dist/browser/index.js')), inputs.join(', '));
});

test('a page that imports the main entry, rx-informer/web and rx-informer/testing through the exports conditions gets one copy of each module', async (t) => {
  const { dir } = await packaged();
  const result = await build({
    stdin: {
      contents: `export { informer, TransportError } from 'rx-informer'; export { relayConnection } from 'rx-informer/web'; export { fakeListWatch } from 'rx-informer/testing';`,
      resolveDir: dir,
      sourcefile: 'app.ts',
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    logLevel: 'silent',
    platform: 'neutral',
    mainFields: [],
    conditions: ['browser'],
    external: ['rxjs', 'rxjs/*', 'immer'],
  });
  const code = result.outputFiles[0]!.text;
  t.is(code.match(/very short watch: closed after/g)?.length, 1, 'one reflector');
  t.is(code.match(/name = "TransportError"/g)?.length, 1, 'one TransportError class');
});

test('a strict web project without @kubernetes/client-node compiles against the declarations, skipLibCheck off', async (t) => {
  const { dir: packageDir } = await packaged();
  // Its own folder: the bundler tests beside it resolve from the package's folder and would read a tsconfig.json there.
  const dir = join(packageDir, 'app');
  await mkdir(dir);
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'esnext', moduleResolution: 'bundler', target: 'es2022', lib: ['es2022', 'dom'], strict: true, noEmit: true, skipLibCheck: false, types: [] },
      include: ['app.ts'],
    }),
  );
  await writeFile(
    join(dir, 'app.ts'),
    `import { fetchListWatch, informer, type KubeObject, type ListWatchStatus } from 'rx-informer';
     import { relayConnection } from 'rx-informer/web';
     const pods = informer<KubeObject>(fetchListWatch({ baseUrl: '/k8s' }, { version: 'v1', plural: 'pods' }));
     const nodes = informer<KubeObject>(relayConnection({ url: '/k8s-relay' }).listWatch({ version: 'v1', plural: 'nodes' }));
     nodes.connect();
     pods.status$.subscribe((status: ListWatchStatus) => document.title = status.type);
     pods.connect();
`,
  );
  const output = await exec(process.execPath, [tsc, '-p', dir], { cwd: dir, timeout: 120_000 }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  const errors = output
    .split('\n')
    .filter((line) => line.includes('error TS'))
    // Issue 43 (another branch): a shipped declaration re-exports the internal CollectionHooks.
    .filter((line) => !/has no exported member 'CollectionHooks'/.test(line));
  t.deepEqual(errors, []);
});
