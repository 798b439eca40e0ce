// @ts-check
/**
 * How the test workers run TypeScript (package.json `ava.nodeArguments`): Node's own type stripping
 * (`stripTypeScriptTypes` in transform mode, so parameter properties work) behind synchronous,
 * in-thread module hooks (`registerHooks`). Imports spelled `./x.js` find `./x.ts`, as the compiler
 * resolves them, and the entry names (`rx-informer`, `rx-informer/testing`, …) map to their barrels
 * as tsconfig.json `paths` do. Files in node_modules load as Node loads them, untouched.
 *
 * Why not tsx, which the scripts and the spawned examples use: tsx's hooks run on a separate thread
 * and see every module, so a worker that loads client-node (a thousand files) paid twice the CPU
 * Node needs for it, and every spec file has its own worker (issue 25 item 7).
 */
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks, stripTypeScriptTypes } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
/** tsconfig.json `paths`. */
const entries = new Map([
  ['rx-informer', 'src/index.ts'],
  ['rx-informer/testing', 'src/testing/index.ts'],
  ['rx-informer/test-server', 'src/testServer/index.ts'],
  ['rx-informer/prometheus', 'src/prometheus/index.ts'],
  ['rx-informer/controller', 'src/controllerEntry.ts'],
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
    const source = readFileSync(fileURLToPath(url), 'utf8');
    return { format: 'module', source: stripTypeScriptTypes(source, { mode: 'transform', sourceMap: true, sourceUrl: url }), shortCircuit: true };
  },
});
