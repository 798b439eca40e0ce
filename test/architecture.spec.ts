/**
 * The rooms of src/ import in one direction only (ARCHITECTURE.md, style points 3 and 42): each room
 * may import only the rooms on the floors below it, and a room's `internal/` only from inside that
 * room. A sub-room (`sources/reflector`, `controller/writes`) belongs to the room it sits in. The
 * entry points' barrels (the files the package's exports map names) are one floor of their own, at
 * the top (`controllerEntry.ts` re-exports sharding, which stands above the controller, so it sits beside
 * `index.ts` at the top of src/ and not in the controller's folder).
 * Type-only imports count: they are dependencies for a reader too.
 *
 * Above the barrels stands the CLI, a package of its own (packages/cli): it uses
 * the library only as a user does, through the entry points of the exports map.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** From the ground floor up. */
const floors = ['errors', 'options', 'store', 'client', 'sources', 'operators', 'metrics', 'informer', 'fleet', 'coordination', 'controller', 'sharding', 'prometheus', 'testing', 'testServer', 'envtest', 'relay', 'barrels'];

/** The entry points' barrels, as the package's exports map names them (`dist/x/index.js` → `x/index.ts`). */
const barrels = ['index.ts', 'testing/index.ts', 'testServer/index.ts', 'prometheus/index.ts', 'controllerEntry.ts', 'relay/index.ts', 'web/index.ts', 'fleet/index.ts', 'envtest/index.ts'];

const src = fileURLToPath(new URL('../src/', import.meta.url));

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path)));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** `store/internal/hashTrie.ts` → `store`; `errors.ts` → `errors`; `controllerEntry.ts` → `barrels`. */
const roomOf = (path: string): string => {
  const inSrc = relative(src, path);
  return barrels.includes(inSrc.split(sep).join('/')) ? 'barrels' : inSrc.split(sep)[0]!.replace(/\.ts$/, '');
};

async function imports(): Promise<Array<{ from: string; to: string; line: string }>> {
  const edges: Array<{ from: string; to: string; line: string }> = [];
  for (const file of await files(src)) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), match[1]!).replace(/\.js$/, '.ts');
      edges.push({ from: relative(src, file), to: relative(src, target), line: match[0] });
    }
  }
  return edges;
}

test('every room of src/ is on a floor', async (t) => {
  const rooms = new Set((await files(src)).map(roomOf));
  t.deepEqual([...rooms].filter((room) => !floors.includes(room)), []);
});

test('the barrels are the entry points of the exports map', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, string | { default?: string }> };
  const entries = Object.values(pkg.exports)
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((target): target is string => target !== undefined && target.startsWith('./dist/'))
    .map((target) => target.slice('./dist/'.length).replace(/\.js$/, '.ts'));
  t.deepEqual([...entries].sort(), [...barrels].sort());
});

test('no room imports a room above it, so the folders have no cycle', async (t) => {
  const edges = await imports();
  t.true(edges.length > 100, 'the scan sees the imports');
  const upward = edges.filter((e) => floors.indexOf(roomOf(join(src, e.to))) > floors.indexOf(roomOf(join(src, e.from))));
  t.deepEqual(upward.map((e) => `${e.from} → ${e.to}`), []);
});

test("a room's internal/ is imported only from inside that room", async (t) => {
  const edges = await imports();
  const leaks = edges.filter((e) => {
    const at = e.to.split(sep).indexOf('internal');
    return at > 0 && !e.from.startsWith(e.to.split(sep).slice(0, at).join(sep) + sep);
  });
  t.deepEqual(leaks.map((e) => `${e.from} → ${e.to}`), []);
});

const cli = fileURLToPath(new URL('../packages/cli/', import.meta.url));

test('the CLI package imports the library only through its entry points, and nothing it does not declare', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; exports: Record<string, unknown>; peerDependencies: Record<string, string> };
  const entryPoints = Object.keys(pkg.exports)
    .filter((entry) => entry !== './package.json')
    .map((entry) => pkg.name + entry.slice(1));
  // What the CLI package declares for its bundle (the YAML parser of crd-types); esbuild and typescript build it and stay in the build files.
  const cliPkg = JSON.parse(await readFile(join(cli, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const buildTools = ['esbuild', 'typescript'];
  const declared = Object.keys({ ...cliPkg.dependencies, ...cliPkg.devDependencies }).filter((name) => !buildTools.includes(name));
  // What the bundle may take besides its own files: the library's entry points, the library's peers, the CLI's own declared packages, Node.
  const allowed = new Set([...entryPoints, ...Object.keys(pkg.peerDependencies), ...declared, ...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
  const sources = [...(await files(join(cli, 'src'))), join(cli, 'build.ts'), join(cli, 'bundleCli.ts')];
  const found: string[] = [];
  const refused: string[] = [];
  for (const file of sources) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)) {
      const specifier = (match[1] ?? match[2])!;
      found.push(specifier);
      const inside = specifier.startsWith('.') && !relative(cli, resolve(dirname(file), specifier)).startsWith('..');
      if (!inside && !allowed.has(specifier) && !(/(build|bundleCli)\.ts$/.test(file) && buildTools.includes(specifier))) refused.push(`${relative(cli, file)} → ${specifier}`);
    }
  }
  t.true(found.includes('rx-informer') && found.includes('rx-informer/test-server'), 'the scan sees the imports of the library');
  t.true(found.filter((s) => s.startsWith('./')).length > 80, 'the scan sees the relative imports');
  t.deepEqual(refused, []);
});
