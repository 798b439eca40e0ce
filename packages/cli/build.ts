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
 * - `dist/crd-types.d.ts` and `dist/crdTypes/*.d.ts` are the declarations of `rx-informer-cli/crd-types`,
 *   made file by file from the sources (`transpileDeclaration`: their exports state their types).
 *
 * Prints the bundle's files and sizes. `--outdir <dir>` builds elsewhere than dist/ (the package
 * test does); `--metafile <path>` writes esbuild's metafile for a look at what is in it
 * (https://esbuild.github.io/analyze/).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { bundleCli } from './bundleCli.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const outdir = resolve(option('--outdir') ?? fileURLToPath(new URL('dist/', import.meta.url)));

rmSync(outdir, { recursive: true, force: true });
const built = await bundleCli(outdir);
// The declarations of rx-informer-cli/crd-types: every module of src/crdTypes but the command's own.
const crdTypesSources = join(here, 'src', 'crdTypes');
mkdirSync(join(outdir, 'crdTypes'));
for (const file of readdirSync(crdTypesSources).filter((name) => name.endsWith('.ts') && name !== 'runCrdTypes.ts')) {
  const declaration = ts.transpileDeclaration(readFileSync(join(crdTypesSources, file), 'utf8'), { fileName: file, compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2023 }, reportDiagnostics: true });
  const problem = declaration.diagnostics?.[0];
  if (problem) throw new Error(`src/crdTypes/${file}: ${ts.flattenDiagnosticMessageText(problem.messageText, '\n')}`);
  writeFileSync(join(outdir, 'crdTypes', file.replace(/\.ts$/, '.d.ts')), declaration.outputText);
}
writeFileSync(join(outdir, 'crd-types.d.ts'), "export * from './crdTypes/index.js';\n");
const metafile = option('--metafile');
if (metafile !== undefined) writeFileSync(metafile, JSON.stringify(built));
for (const [file, output] of Object.entries(built.outputs)) {
  console.log(`${relative(outdir, resolve(here, file)).padEnd(40)} ${(output.bytes / 1024).toFixed(1).padStart(8)} kB`);
}
