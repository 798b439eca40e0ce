/**
 * The rx-informer the benchmarks measure, and the one way they load it: the package as users get
 * it, compiled by tsc into dist/, imported by file URL — never the sources run through tsx, whose
 * transform wraps every closure in a `__name` call (several µs of every single-event batch that no
 * user pays), and never the bare `rx-informer` name, which tsx resolves to src/ through
 * tsconfig.json's `paths`.
 *
 * A suite calls {@link loadLibrary} (or, to hand the build to child processes, {@link buildLibrary}
 * and passes its path as `BENCH_RX_LIB`); what is not the library under test — the test API
 * server as a workload, the CLI — may come from src/. Types come from src/ (`typeof import(…)`),
 * which is what dist/ was compiled from.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** The newest modification time of the files a build of src/ reads. */
function newestSource(dir = join(root, 'src')): number {
  let newest = Math.max(statSync(join(root, 'tsconfig.json')).mtimeMs, statSync(join(root, 'tsconfig.build.json')).mtimeMs);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether dist/ was built after the last change under src/. */
function distIsFresh(): boolean {
  try {
    return statSync(join(root, 'dist', 'index.js')).mtimeMs > newestSource();
  } catch {
    return false;
  }
}

/**
 * Compiles `srcDir` (src/ by default, or a patched copy of it, for an A/B) and returns the path of
 * its compiled `index.js`: `dist/` for src/ (not compiled again when dist/ is newer than every file
 * under src/), `<srcDir>.dist/` for a copy.
 */
export function buildLibrary(srcDir?: string): string {
  if (srcDir === undefined) {
    if (!distIsFresh()) execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
    return join(root, 'dist', 'index.js');
  }
  const dir = resolve(srcDir);
  const outDir = `${dir}.dist`;
  const config = join(dirname(dir), `tsconfig.${basename(dir)}.json`);
  writeFileSync(
    config,
    JSON.stringify({ extends: join(root, 'tsconfig.build.json'), compilerOptions: { rootDir: dir, outDir, sourceMap: false, inlineSources: false, declaration: false }, include: [dir] }),
  );
  execFileSync(process.execPath, [tsc, '-p', config], { cwd: root, stdio: 'inherit' });
  return join(outDir, 'index.js');
}

/** Imports a compiled library's main entry (a path from {@link buildLibrary}). */
export const importLibrary = async (indexJs: string): Promise<typeof import('rx-informer')> =>
  (await import(pathToFileURL(indexJs).href)) as typeof import('rx-informer');

/** A compiled library: its entries as a user imports them, and its other modules by path. */
export interface Library {
  /** `rx-informer`. */
  readonly main: typeof import('rx-informer');
  /** `rx-informer/controller`. */
  readonly controller: typeof import('rx-informer/controller');
  /**
   * A module no entry exports, by its path in the build (`'sharding/hash32.js'`), typed by the
   * caller: `await lib.module<typeof import('../../src/sharding/hash32.js')>('sharding/hash32.js')`.
   */
  module<M>(path: string): Promise<M>;
}

/**
 * Loads the library under test: the build named by `BENCH_RX_LIB` (a child of a suite that built
 * it), else dist/, compiled first when src/ changed since.
 *
 * @param indexJs the build's `index.js`.
 */
export async function loadLibrary(indexJs: string = process.env.BENCH_RX_LIB ?? buildLibrary()): Promise<Library> {
  const dir = dirname(indexJs);
  const load = async <M>(path: string): Promise<M> => (await import(pathToFileURL(join(dir, path)).href)) as M;
  return {
    main: await load<typeof import('rx-informer')>('index.js'),
    controller: await load<typeof import('rx-informer/controller')>('controllerEntry.js'),
    module: load,
  };
}
