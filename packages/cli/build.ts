/**
 * `npm run build -w rx-informer-cli`: bundles the CLI into dist/ with esbuild, for start-up (issue 21,
 * item 2). Unbundled, the command loads client-node's graph of about a thousand modules to read a
 * kubeconfig; bundled, Node reads a few files and compiles only what the CLI reaches.
 *
 * - `dist/bin.js` is bin.ts alone: the Node version check, then a dynamic import of `main.js`. It
 *   holds nothing that an old Node could fail to load, so the check can speak before anything else.
 * - `dist/main.js` and its chunks are the CLI with the library (through its entry points, resolved
 *   by the repository's tsconfig paths to src/), rxjs, immer and client-node. `watch` and `demo`
 *   are loaded on demand (chunks), so `--help` loads none of client-node.
 * - client-node's modules are marked free of side effects: what the CLI never reaches (the
 *   generated API classes, models, exec, attach, port-forward, …) is left out.
 *
 * Prints the bundle's files and sizes. `--outdir <dir>` builds elsewhere than dist/ (the package
 * test does); `--metafile <path>` writes esbuild's metafile for a look at what is in it
 * (https://esbuild.github.io/analyze/).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundleCli.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const outdir = resolve(option('--outdir') ?? fileURLToPath(new URL('dist/', import.meta.url)));

rmSync(outdir, { recursive: true, force: true });
const built = await bundleCli(outdir);
const metafile = option('--metafile');
if (metafile !== undefined) writeFileSync(metafile, JSON.stringify(built));
for (const [file, output] of Object.entries(built.outputs)) {
  console.log(`${relative(outdir, resolve(here, file)).padEnd(40)} ${(output.bytes / 1024).toFixed(1).padStart(8)} kB`);
}
