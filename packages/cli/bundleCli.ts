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
/** Where client-node's entry lies, from which its own dependencies resolve (its own copies, should npm have nested them). */
const clientNodeDir = dirname(createRequire(import.meta.url).resolve('@kubernetes/client-node'));

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
 * V8 keeps a script's source in the heap while the script lives (it compiles functions from it
 * lazily): one byte a character while all of it is ASCII, two bytes a character once one is not.
 * Comments (the dependencies' doc comments hold `§`, `–`, `—`) and indentation are most of a
 * bundle's text: without them a replica's bundle holds 0.5 MB of source instead of 1.6 MB of
 * two-byte text. Names are kept (no renaming), so stack traces and `.name` read as in the sources;
 * licence comments stay, at the end of each file.
 */
const sourceText = { minifyWhitespace: true, minifySyntax: true, charset: 'ascii' } as const;

/**
 * A file of client-node's dependencies loaded on first use: client-node's imports of `modules`
 * resolve to stubs (each module's lines, which call `load()`), and the file bundles the modules
 * themselves, required by the first stub used. A process that never uses them neither compiles
 * nor runs them.
 */
interface LazyFile {
  readonly file: string;
  readonly modules: Readonly<Record<string, readonly string[]>>;
}

/** A stub for class `name`: `new` makes the real one. */
const lazyClass = (name: string): string => `export class ${name} { constructor(...args) { return new (load().${name})(...args); } }`;

/** A stub for function `name`: a call calls the real one. */
const lazyFunction = (name: string): string => `export const ${name} = (...args) => load().${name}(...args);`;

/**
 * client-node's config.js imports undici (a large CommonJS package) at its top for one method, the
 * dispatcher of its fetch-based API classes, which the CLI never calls (the library makes its own
 * requests with node:https).
 */
const undiciFile: LazyFile = {
  file: 'undici.cjs',
  modules: { undici: [lazyClass('Agent'), lazyClass('ProxyAgent'), lazyFunction('fetch')] },
};

/**
 * client-node's config.js imports its proxy agents at its top (socks-proxy-agent with socks,
 * ip-address and smart-buffer; hpagent), for kubeconfig clusters with a `proxy-url` (0.5 MiB of
 * every replica's heap when loaded at start; bench/NOTES.md, issue 26).
 */
const proxyAgentsFile: LazyFile = {
  file: 'proxy-agents.cjs',
  modules: {
    'socks-proxy-agent': [lazyClass('SocksProxyAgent')],
    socks: ['export const SocksClient = { createConnection: (...args) => load().SocksClient.createConnection(...args) };'],
    hpagent: [lazyClass('HttpProxyAgent'), lazyClass('HttpsProxyAgent')],
  },
};

/**
 * client-node's authenticators import the libraries of two kubeconfig auth providers at their top:
 * openid-client (with oauth4webapi) for `oidc`, jsonpath-plus for the token paths of `gcp` and
 * `azure` (0.26–0.32 MiB of every process's heap when loaded at start; bench/NOTES.md, issue 26).
 * openid-client's stub is CommonJS: `customFetch` is a Symbol, which client-node reads as it builds
 * the arguments of `discovery`, so a getter loads the file there.
 */
const authProvidersFile: LazyFile = {
  file: 'auth-providers.cjs',
  modules: {
    'openid-client': [
      "Object.defineProperty(exports, 'customFetch', { enumerable: true, get: () => load().customFetch });",
      'exports.discovery = (...args) => load().discovery(...args);',
      'exports.refreshTokenGrant = (...args) => load().refreshTokenGrant(...args);',
    ],
    'jsonpath-plus': [lazyFunction('JSONPath')],
  },
};

/** The files bundleNodeProgram writes beside the entry points, loaded on first use. */
const lazyFiles: readonly LazyFile[] = [undiciFile, proxyAgentsFile, authProvidersFile];

/** Resolves client-node's imports of a {@link LazyFile}'s modules to their stubs, and the stubs' `./<file>` to the file beside the bundle. */
function loadedOnFirstUse({ file, modules }: LazyFile): Plugin {
  const names = new RegExp(`^(${Object.keys(modules).join('|')})$`);
  return {
    name: `lazy ${file}`,
    setup(esbuild) {
      esbuild.onResolve({ filter: names }, (args) => (/[\\/]@kubernetes[\\/]client-node[\\/]/.test(args.importer) ? { path: args.path, namespace: file } : undefined));
      esbuild.onResolve({ filter: /^\.\/.*$/, namespace: file }, (args) => ({ path: args.path, external: true }));
      esbuild.onLoad({ filter: /.*/, namespace: file }, (args) => ({
        loader: 'js',
        contents: ['let loaded;', `const load = () => (loaded ??= require('./${file}'));`, ...modules[args.path]!].join('\n'),
      }));
    },
  };
}

/** Bundles a {@link LazyFile}'s modules (client-node's copies) into `<outdir>/<file>`, CommonJS. */
function bundleLazyFile({ file, modules }: LazyFile, outdir: string): Promise<{ metafile: Metafile }> {
  return build({
    absWorkingDir: here,
    stdin: { contents: Object.keys(modules).map((name) => `export * from '${name}';`).join('\n'), resolveDir: clientNodeDir, sourcefile: file, loader: 'js' },
    outfile: join(outdir, file),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22.19',
    ...sourceText,
    metafile: true,
    logLevel: 'warning',
  });
}

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
 * Bundles the CLI into `outdir` (`bin.js`, `main.js` and its chunks, `crd-types.js` for
 * `rx-informer-cli/crd-types`, and the files loaded on first use: `undici.cjs`, `proxy-agents.cjs`,
 * `auth-providers.cjs`); resolves with esbuild's metafile of all of them.
 */
export function bundleCli(outdir: string): Promise<Metafile> {
  return bundleNodeProgram({ bin: 'src/bin.ts', main: 'src/main.ts', 'crd-types': 'src/crdTypes/index.ts' }, outdir, here);
}

/**
 * Bundles a Node program over rx-informer and client-node as the CLI is bundled (client-node
 * tree-shaken, rxjs's ES modules, undici, the proxy agents and the auth providers' libraries loaded
 * on first use): `entryPoints` (name → path relative to `workingDir`) into `outdir`, each as
 * `<name>.js`, with `undici.cjs`, `proxy-agents.cjs` and `auth-providers.cjs` beside them. The
 * benchmarks build their replicas this way to measure a program as it is shipped, not one running
 * under a TypeScript loader with the whole of client-node loaded.
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
    chunkNames: '[name]-[hash]', // beside the entry points, so that each finds the files loaded on first use at ./
    plugins: [requireBuiltins, rxjsModules, ...lazyFiles.map(loadedOnFirstUse), clientNodeWithoutSideEffects],
    ...sourceText,
    metafile: true,
    logLevel: 'warning',
  });
  for (const lazy of await Promise.all(lazyFiles.map((file) => bundleLazyFile(file, outdir)))) Object.assign(result.metafile.outputs, lazy.metafile.outputs);
  return result.metafile;
}
