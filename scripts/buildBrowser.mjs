// @ts-check
/**
 * The browser builds of the entries a web page imports — `rx-informer`, `rx-informer/web`,
 * `rx-informer/testing` — in `dist/browser/`, which the `browser` conditions of the package's
 * `exports` point at. A bundler that reads only `exports` conditions (and not the package's
 * `browser` field, which swaps the Node-only modules for their browser stand-ins file by file)
 * still gets no Node built-in: these builds have done the swap already. They are built together,
 * their shared modules split into common chunks, so a page that imports two of them gets one copy
 * of each module (one `TransportError` class, one reflector). rxjs and immer stay imports, so the
 * app shares its own copies. Run after `tsc` (`npm run build`):
 *
 *   node scripts/buildBrowser.mjs [package directory, default the working directory]
 */
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The entries built for browsers: output name → the entry's file in dist/. */
export const browserEntries = { index: 'dist/index.js', web: 'dist/web/index.js', testing: 'dist/testing/index.js' };

/**
 * Bundles the {@link browserEntries} of `<dir>` for browsers into `<dir>/dist/browser/`.
 * @param {string} dir the package's directory (its package.json holds the `browser` field)
 * @returns {Promise<string>} the output directory
 */
export async function buildBrowserEntry(dir) {
  const outdir = resolve(dir, 'dist/browser');
  await build({
    entryPoints: Object.fromEntries(Object.entries(browserEntries).map(([name, file]) => [name, resolve(dir, file)])),
    absWorkingDir: resolve(dir),
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    external: ['rxjs', 'rxjs/*', 'immer'],
    outdir,
    logLevel: 'warning',
  });
  return outdir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildBrowserEntry(process.argv[2] ?? process.cwd());
