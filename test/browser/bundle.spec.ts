import test from 'ava';
import { build, type Metafile } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

// What a web app bundles: the main entry, rx-informer/testing and the fetch source, for a browser,
// as esbuild does it (`platform: 'browser'`, the package's `browser` field honoured). A Node
// built-in anywhere in their graph fails the build; client-node must not be reached at all.

const root = fileURLToPath(new URL('../../', import.meta.url));
/** informer + operators + store + the fetch source + the relay's browser transport, rxjs excluded, minified and gzipped. */
const budgetBytes = 25_000;

async function bundle(contents: string, minify = false): Promise<{ code: string; inputs: string[]; errors: string[] }> {
  try {
    const result = await build({
      stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify,
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['rxjs', 'rxjs/*'],
    });
    return { code: result.outputFiles[0]!.text, inputs: Object.keys((result.metafile as Metafile).inputs), errors: [] };
  } catch (error) {
    const errors = (error as { errors?: Array<{ text: string }> }).errors?.map((e) => e.text) ?? [String(error)];
    return { code: '', inputs: [], errors };
  }
}

for (const [name, path] of [
  ['the main entry', './src/index.ts'],
  ['rx-informer/testing', './src/testing/index.ts'],
  ['the fetch source', './src/sources/fetchListWatch.ts'],
] as const) {
  test(`${name} bundles for a browser: no Node built-in, no client-node`, async (t) => {
    const { inputs, errors, code } = await bundle(`export * from ${JSON.stringify(path)};`);
    t.deepEqual(errors, [], 'esbuild refuses a Node built-in for the browser platform');
    t.deepEqual(inputs.filter((input) => input.startsWith('node:') || input.includes('@kubernetes/client-node')), []);
    t.notRegex(code, /from\s*["']node:|require\(["']node:/);
  });
}

test('the browser build of a KubeConfig source refuses with a clear error instead of carrying node:http', async (t) => {
  const { inputs } = await bundle(`export { listWatch } from './src/index.ts';`);
  t.true(inputs.some((input) => input.endsWith('kubeConfigTransport.browser.ts')), 'the browser field swapped the Node transport');
  t.false(inputs.some((input) => input.endsWith('nodeTransport.ts')));
});

test('the browser field swaps the store\'s string interning for its no-op (a web app\'s caches are small; its bundle is what it pays for)', async (t) => {
  const { inputs } = await bundle(`export { informer } from './src/index.ts';`);
  t.true(inputs.some((input) => input.endsWith('internStrings.browser.ts')));
  t.false(inputs.some((input) => input.endsWith('internStrings.ts')));
});

test('the browser field leaves server-side sharding out (a controller feature); the option is refused with a clear error', async (t) => {
  const { inputs, code } = await bundle(`export { fetchListWatch } from './src/index.ts';`);
  t.true(inputs.some((input) => input.endsWith('guardShardSelector.browser.ts')));
  t.false(inputs.some((input) => input.endsWith('shardSelector.ts') || input.endsWith('hashField.ts')));
  t.regex(code, /"shardSelector", "server-side sharding \(a controller feature\) is not in the browser build"/);
});

test(`size budget: informer + operators + store + fetch source + relay transport, minified and gzipped, rxjs excluded, at most ${budgetBytes} bytes`, async (t) => {
  const { code, errors } = await bundle(
    `export { relayConnection } from './src/web/index.ts';\n    export { informer, fetchListWatch, toDeltas, bufferByKey, dedupDeltas, resync, indexReducer, emptySnapshot, applyBatch, metaNamespaceKey, byNamespace, byLabel, parseLabelSelector, matchesLabels } from './src/index.ts';`,
    true,
  );
  t.deepEqual(errors, []);
  const gzipped = gzipSync(code, { level: 9 }).length;
  t.log(`${code.length} bytes minified, ${gzipped} bytes gzipped`);
  t.true(gzipped <= budgetBytes, `${gzipped} bytes gzipped, over the budget of ${budgetBytes}`);
  // The README quotes this measurement, not a figure written by hand.
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const quoted = /<!-- web-bundle-size: measured by test\/browser\/bundle\.spec\.ts -->([\d.]+) kB/.exec(readme)?.[1];
  t.is(quoted, (gzipped / 1000).toFixed(1), `README.md's web bundle figure: write ${(gzipped / 1000).toFixed(1)} kB after its web-bundle-size comment`);
});

test('in a browser bundle the memory estimate counts the strings at the interned places (label values here) as each object\'s own, since nothing there is interned', async (t) => {
  // The browser field swaps the interning for its no-op, so each object keeps its own copies: an
  // estimate that still counted the interned places as shared read ~15 % low on large caches.
  const { code, errors } = await bundle(`export { informerMetrics } from './src/index.ts';`);
  t.deepEqual(errors, []);
  const dir = mkdtempSync(join(root, '.scratch-browser-metrics-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'metrics.mjs');
  writeFileSync(file, code);
  const browser = (await import(pathToFileURL(file).href)) as typeof import('../../src/index.js');
  const node = await import('../../src/index.js');
  const label = 'a-label-value-long-enough-to-be-interned';
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'n', resourceVersion: '1', labels: { app: label, chart: `${label}-chart` } } };
  const estimate = (metrics: typeof node.informerMetrics): number => {
    const collector = metrics();
    const snapshot = { size: 1, synced: true } as unknown as Parameters<typeof collector.onUpdate>[0]['snapshot'];
    collector.onUpdate({ snapshot, changes: [{ type: 'add', key: 'n/a', object }] } as unknown as Parameters<typeof collector.onUpdate>[0]);
    return collector.read().estimatedBytes;
  };
  const inBrowser = estimate(browser.informerMetrics);
  const inNode = estimate(node.informerMetrics);
  // The two label values: at least their characters and a string header each.
  t.true(inBrowser - inNode >= label.length * 2 + 6 + 2 * 12, `browser ${inBrowser} B, Node ${inNode} B`);
});
