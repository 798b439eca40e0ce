// @ts-check
/**
 * The main entry's browser build, `dist/browser/index.js`, which the `browser` condition of the
 * package's `exports` points at. A bundler that reads only `exports` conditions (and not the
 * package's `browser` field, which swaps the Node-only modules for their browser stand-ins file by
 * file) still gets no Node built-in: this build has done the swap already. rxjs and immer stay
 * imports, so the app shares its own copies. Run after `tsc` (`npm run build`):
 *
 *   node scripts/buildBrowser.mjs [package directory, default the working directory]
 */
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Bundles `<dir>/dist/index.js` for browsers into `<dir>/dist/browser/index.js`.
 * @param {string} dir the package's directory (its package.json holds the `browser` field)
 * @returns {Promise<string>} the written file
 */
export async function buildBrowserEntry(dir) {
  const outfile = resolve(dir, 'dist/browser/index.js');
  await build({
    entryPoints: [resolve(dir, 'dist/index.js')],
    absWorkingDir: resolve(dir),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    external: ['rxjs', 'rxjs/*', 'immer'],
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildBrowserEntry(process.argv[2] ?? process.cwd());
