/**
 * The CLI's bundle, as build.ts makes it for the package (see there for what is in it and why): the
 * esbuild options in one place, for build.ts and for the tests, which run the CLI from a bundle of
 * the current sources (packages/cli/test/cliBundle.ts) instead of compiling its module graph in
 * every process they start.
 */
import { build, type Metafile, type Plugin } from 'esbuild';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Where client-node's entry lies, from which its own dependencies resolve. */
const clientNodeEntry = createRequire(import.meta.url).resolve('@kubernetes/client-node');
const clientNodeDir = dirname(clientNodeEntry);
/** The undici client-node depends on (its own copy, should npm have nested one). */
const undiciEntry = createRequire(clientNodeEntry).resolve('undici');

/** Marks every module of @kubernetes/client-node as free of side effects, so that unused ones are dropped. */
const clientNodeWithoutSideEffects: Plugin = {
  name: 'client-node-without-side-effects',
  setup(esbuild) {
    esbuild.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const inClientNode = /^@kubernetes\/client-node(\/|$)/.test(args.path) || (args.path.startsWith('.') && /[\\/]@kubernetes[\\/]client-node[\\/]/.test(args.resolveDir));
      if (!inClientNode) return undefined;
      const resolved = await esbuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
      return resolved.errors.length > 0 ? undefined : { path: resolved.path, sideEffects: false };
    });
  },
};

/**
 * rxjs's exports map sends Node to its CommonJS build, which a bundler cannot tree-shake; its ES2015
 * modules (the `es2015` condition) are the same code.
 */
const rxjsModules: Plugin = {
  name: 'rxjs-modules',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^rxjs(\/.*)?$/ }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const resolved = await esbuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
      return resolved.errors.length > 0 ? undefined : { path: resolved.path.replace(/([\\/]rxjs[\\/]dist[\\/])cjs([\\/])/, '$1esm$2') };
    });
  },
};

/**
 * client-node's config.js imports undici (a large CommonJS package) at its top for one method, the
 * dispatcher of its fetch-based API classes, which the CLI never calls (the library makes its own
 * requests with node:https). So undici is bundled into a file of its own, `dist/undici.cjs`, and
 * what client-node imports is a module whose names (the two classes and `fetch`) require that file
 * when first used: it is neither compiled nor run at start-up.
 */
const lazyUndici: Plugin = {
  name: 'lazy-undici',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^undici$/ }, (args) => (/[\\/]@kubernetes[\\/]client-node[\\/]/.test(args.importer) ? { path: 'undici', namespace: 'lazy-undici' } : undefined));
    esbuild.onResolve({ filter: /^\.\/undici\.cjs$/, namespace: 'lazy-undici' }, () => ({ path: './undici.cjs', external: true }));
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy-undici' }, () => ({
      loader: 'js',
      contents: [
        'let undici;',
        "const load = () => (undici ??= require('./undici.cjs'));",
        'export class Agent { constructor(...args) { return new (load().Agent)(...args); } }',
        'export class ProxyAgent { constructor(...args) { return new (load().ProxyAgent)(...args); } }',
        'export const fetch = (...args) => load().fetch(...args);',
      ].join('\n'),
    }));
  },
};

/** The modules client-node's config.js imports for a cluster with a `proxy-url`, and the names it uses of each. */
const proxyModules: Record<string, string[]> = {
  'socks-proxy-agent': ['export class SocksProxyAgent { constructor(...args) { return new (load().SocksProxyAgent)(...args); } }'],
  socks: ['export const SocksClient = { createConnection: (...args) => load().SocksClient.createConnection(...args) };'],
  hpagent: [
    'export class HttpProxyAgent { constructor(...args) { return new (load().HttpProxyAgent)(...args); } }',
    'export class HttpsProxyAgent { constructor(...args) { return new (load().HttpsProxyAgent)(...args); } }',
  ],
};

/**
 * client-node's config.js imports its proxy agents at its top (socks-proxy-agent with socks,
 * ip-address and smart-buffer; hpagent), for kubeconfig clusters with a `proxy-url`. They are
 * bundled into a file of their own, `proxy-agents.cjs`, and what client-node imports are modules
 * whose names require that file when first used: a process that talks to no proxy neither
 * compiles nor runs them (0.5 MiB of every replica's heap; bench/NOTES.md, issue 26).
 */
const lazyProxyAgents: Plugin = {
  name: 'lazy-proxy-agents',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^(socks-proxy-agent|socks|hpagent)$/ }, (args) =>
      /[\\/]@kubernetes[\\/]client-node[\\/]/.test(args.importer) ? { path: args.path, namespace: 'lazy-proxy-agents' } : undefined,
    );
    esbuild.onResolve({ filter: /^\.\/proxy-agents\.cjs$/, namespace: 'lazy-proxy-agents' }, () => ({ path: './proxy-agents.cjs', external: true }));
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy-proxy-agents' }, (args) => ({
      loader: 'js',
      contents: ['let agents;', "const load = () => (agents ??= require('./proxy-agents.cjs'));", ...proxyModules[args.path]!].join('\n'),
    }));
  },
};

/**
 * Node's modules (`node:http`, `fs`, …) taken with `require()` instead of `import`: an `import` of
 * `node:http` makes Node build its ES module face, which reads every export, and its `WebSocket`
 * export loads Node's own copy of undici (a fifth of the start-up on a quiet machine).
 */
const requireBuiltins: Plugin = {
  name: 'require-builtins',
  setup(esbuild) {
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    esbuild.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      builtins.has(args.path) && args.kind === 'import-statement' && args.namespace !== 'builtin' ? { path: args.path, namespace: 'builtin' } : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ loader: 'js', contents: `module.exports = require(${JSON.stringify(args.path)});` }));
  },
};

/**
 * V8 keeps a script's source in the heap while the script lives (it compiles functions from it
 * lazily): one byte a character while all of it is ASCII, two bytes a character once one is not.
 * Comments (the dependencies' doc comments hold `§`, `–`, `—`) and indentation are most of a
 * bundle's text: without them a replica's bundle holds 0.5 MB of source instead of 1.6 MB of
 * two-byte text. Names are kept (no renaming), so stack traces and `.name` read as in the sources;
 * licence comments stay, at the end of each file.
 */
const sourceText = { minifyWhitespace: true, minifySyntax: true, charset: 'ascii' } as const;

/** Bundles the CLI into `outdir` (`bin.js`, `main.js` and its chunks, `undici.cjs`, `proxy-agents.cjs`); resolves with esbuild's metafile of all of them. */
export function bundleCli(outdir: string): Promise<Metafile> {
  return bundleNodeProgram({ bin: 'src/bin.ts', main: 'src/main.ts' }, outdir, here);
}

/**
 * Bundles a Node program over rx-informer and client-node as the CLI is bundled (client-node
 * tree-shaken, rxjs's ES modules, undici and the proxy agents loaded on first use): `entryPoints`
 * (name → path relative to `workingDir`) into `outdir`, each as `<name>.js`, with `undici.cjs` and
 * `proxy-agents.cjs` beside them. The benchmarks build their replicas this way to measure a program
 * as it is shipped, not one running under a TypeScript loader with the whole of client-node loaded.
 */
export async function bundleNodeProgram(entryPoints: Record<string, string>, outdir: string, workingDir: string): Promise<Metafile> {
  const result = await build({
    absWorkingDir: workingDir,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.19',
    // CommonJS dependencies of client-node call require() for Node's own modules.
    banner: { js: "import { createRequire as __cliCreateRequire } from 'node:module'; const require = __cliCreateRequire(import.meta.url);" },
    chunkNames: '[name]-[hash]', // beside the entry points, so that each finds undici.cjs and proxy-agents.cjs at ./
    plugins: [requireBuiltins, rxjsModules, lazyUndici, lazyProxyAgents, clientNodeWithoutSideEffects],
    ...sourceText,
    metafile: true,
    logLevel: 'warning',
  });
  const undici = await build({
    absWorkingDir: here,
    entryPoints: { undici: undiciEntry },
    outdir,
    bundle: true,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    target: 'node22.19',
    ...sourceText,
    metafile: true,
    logLevel: 'warning',
  });
  const proxyAgents = await build({
    absWorkingDir: here,
    stdin: {
      contents: Object.keys(proxyModules).map((name) => `export * from '${name}';`).join('\n'),
      resolveDir: clientNodeDir, // client-node's own copies, should npm have nested them
      sourcefile: 'proxy-agents.js',
      loader: 'js',
    },
    outfile: join(outdir, 'proxy-agents.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22.19',
    ...sourceText,
    metafile: true,
    logLevel: 'warning',
  });
  Object.assign(result.metafile.outputs, undici.metafile.outputs, proxyAgents.metafile.outputs);
  return result.metafile;
}
