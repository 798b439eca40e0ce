/**
 * The rx-informer the benchmarks measure: the package as users get it, compiled by tsc, not the
 * sources run through tsx (whose transform wraps every closure in a `__name` call: several µs of
 * every single-event batch that no user pays).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * Compiles `srcDir` (src/ by default, or a patched copy of it, for an A/B) and returns the path of
 * its compiled `index.js`: `dist/` for src/, `<srcDir>.dist/` for a copy.
 */
export function buildLibrary(srcDir?: string): string {
  if (srcDir === undefined) {
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
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

/** Imports a compiled library (a path from {@link buildLibrary}). */
export const importLibrary = async (indexJs: string): Promise<typeof import('rx-informer')> =>
  (await import(pathToFileURL(indexJs).href)) as typeof import('rx-informer');
