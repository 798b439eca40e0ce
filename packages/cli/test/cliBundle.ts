/**
 * The CLI the tests start: a bundle of the current sources, built by the package's own esbuild
 * options (bundleCli.ts) once per change of the sources and kept in node_modules/.cache, instead of
 * `node --import=tsx packages/cli/src/main.ts`. Under tsx every process compiled the CLI's module
 * graph again (client-node's included): about 3 CPU-seconds a start, against 0.15 for the bundle,
 * and the CLI tests start it about a hundred times (issue 25 item 7). The bundle is also what users
 * of the rx-informer-cli package run.
 *
 * The key is a hash of everything the bundle is made of: the library's and the CLI's sources, the
 * bundle's options, the CLI's package.json and the lock file. Spec files in parallel may build the
 * same key at once: each builds into a directory of its own and renames it into place; the first
 * rename wins and the others are dropped.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { threadId } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { bundleCli } from '../bundleCli.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = join(root, 'packages/cli');
const cache = join(root, 'node_modules/.cache/rx-informer-cli-test');

/** Every file under `dir`, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** A hash of the paths and contents of what the bundle is made of. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const inputs = [...filesUnder(join(root, 'src')), ...filesUnder(join(cli, 'src')), join(cli, 'bundleCli.ts'), join(cli, 'package.json'), join(root, 'package-lock.json')];
  for (const file of inputs) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * The path of `bin.js` in a bundle of the CLI's current sources, built first if there is none. Beside
 * its `dist/` is a copy of the CLI's package.json, which makes the bundle an ES module and which
 * `--version` reads.
 */
export async function cliBundle(): Promise<string> {
  const dir = join(cache, sourcesHash());
  const bin = join(dir, 'dist/bin.js');
  if (existsSync(bin)) return bin;
  const building = `${dir}.building-${process.pid}-${threadId}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  copyFileSync(join(cli, 'package.json'), join(building, 'package.json'));
  await bundleCli(join(building, 'dist'));
  try {
    renameSync(building, dir);
  } catch (error) {
    // Another spec file's build of the same sources got there first.
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(bin)) throw error;
  }
  // Bundles of older sources go (not the builds of other files in flight).
  for (const entry of readdirSync(cache)) if (!entry.includes('.building-') && join(cache, entry) !== dir) rmSync(join(cache, entry), { recursive: true, force: true });
  return bin;
}
