// @ts-check
/**
 * How the test workers run TypeScript (ava.config.mjs `nodeArguments`): Node's own type stripping
 * (`stripTypeScriptTypes` in transform mode, so parameter properties work) behind synchronous,
 * in-thread module hooks (`registerHooks`). Imports spelled `./x.js` find `./x.ts`, as the compiler
 * resolves them, and the entry names (`rx-informer`, `rx-informer/testing`, …) map to their barrels
 * as tsconfig.json `paths` do. Files in node_modules load as Node loads them, untouched.
 *
 * Why not tsx, which the scripts and the spawned examples use: tsx's hooks run on a separate thread
 * and see every module, so a worker that loads client-node (a thousand files) paid twice the CPU
 * Node needs for it, and every spec file has its own worker (issue 25 item 7).
 *
 * What stripping makes is kept in node_modules/.cache/rx-informer-strip, one file per Node version, source
 * content and URL: every spec file's worker loads about 190 of the library's files, and stripping
 * them was two thirds of the CPU of importing the barrels (about 1.7 of 2.5 s on a loaded machine).
 * The first worker strips a file; the others, and the next runs, read it. Node's compile cache
 * (V8's code for each module, checked against its source) is on too, in
 * node_modules/.cache/rx-informer-v8: a worker that finds the code there compiles no module again
 * (about 1.45 → 1.1 CPU-s to import the four entry points).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { enableCompileCache, registerHooks, stripTypeScriptTypes } from 'node:module';
import { threadId } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
const cache = fileURLToPath(new URL('node_modules/.cache/rx-informer-strip/', root));
mkdirSync(cache, { recursive: true });
enableCompileCache(fileURLToPath(new URL('node_modules/.cache/rx-informer-v8/', root)));
/** tsconfig.json `paths`. */
const entries = new Map([
  ['rx-informer', 'src/index.ts'],
  ['rx-informer/testing', 'src/testing/index.ts'],
  ['rx-informer/test-server', 'src/testServer/index.ts'],
  ['rx-informer/prometheus', 'src/prometheus/index.ts'],
  ['rx-informer/controller', 'src/controllerEntry.ts'],
  ['rx-informer/envtest', 'src/envtest/index.ts'],
]);

// Type stripping is experimental in Node 24 and says so once per thread; the tests know.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  if (String(warning).includes('stripTypeScriptTypes')) return;
  emitWarning.call(process, warning, .../** @type {[]} */ (rest));
};

registerHooks({
  resolve(specifier, context, nextResolve) {
    const entry = entries.get(specifier);
    if (entry !== undefined) return { url: new URL(entry, root).href, format: 'module', shortCircuit: true };
    if (specifier.endsWith('.js') && /^\.{1,2}\//.test(specifier) && context.parentURL?.endsWith('.ts')) {
      const url = new URL(specifier, context.parentURL);
      const ts = new URL(`${url.href.slice(0, -3)}.ts`);
      if (!existsSync(url) && existsSync(ts)) return { url: ts.href, format: 'module', shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
    return { format: 'module', source: stripped(url), shortCircuit: true };
  },
});

/**
 * The TypeScript file at `url` as JavaScript, with an inline source map: from the cache when this
 * content at this URL was stripped before, else stripped now and written there (to a file of this
 * thread's first, then renamed, so that a worker beside never reads half of it).
 * @param {string} url
 * @returns {string}
 */
function stripped(url) {
  const source = readFileSync(fileURLToPath(url), 'utf8');
  const cached = `${cache}${createHash('sha256').update(process.version).update('\0').update(url).update('\0').update(source).digest('hex')}.js`;
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  const javascript = stripTypeScriptTypes(source, { mode: 'transform', sourceMap: true, sourceUrl: url });
  const partial = `${cached}.${process.pid}-${threadId}`;
  writeFileSync(partial, javascript);
  renameSync(partial, cached);
  return javascript;
}
