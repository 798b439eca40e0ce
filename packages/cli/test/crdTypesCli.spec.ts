/*
 * `rx-informer crd-types` as a user runs it (the CLI's bundle): from files and folders, from a live
 * cluster (the test API server, which serves customresourcedefinitions), its help, and its refusals.
 */
import test from 'ava';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCrds } from '../src/crdTypes/readCrds.js';
import { generateCrdTypes } from '../src/crdTypes/generateCrdTypes.js';
import { cliCluster, runCli } from './cliCluster.js';

const fixtures = fileURLToPath(new URL('fixtures/', import.meta.url));

async function outDir(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'crd-types-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Every file under `dir`, by `/`-separated path, with its text. */
async function filesUnder(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) found[join(entry.parentPath, entry.name).slice(dir.length + 1).split(/[\\/]/).join('/')] = await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return found;
}

const expected = async (): Promise<Record<string, string>> => Object.fromEntries(generateCrdTypes(await readCrds([fixtures])).map((file) => [file.path, file.text]));

test('from a folder: writes what generateCrdTypes makes, a line per kind and version, exit 0', async (t) => {
  const out = await outDir(t);
  const run = runCli(t, ['crd-types', fixtures, '--out', out]);
  t.is(await run.exit, 0, run.stderr());
  t.is(run.stdout(), `Widget example.com/v1 → ${join(out, 'example.com/v1/widgets.ts')}\nWidget example.com/v1alpha1 → ${join(out, 'example.com/v1alpha1/widgets.ts')}\n`);
  t.is(run.stderr(), '');
  t.deepEqual(await filesUnder(out), await expected());
});

test('from a live cluster (--kubeconfig): the CRDs the server lists, of the groups asked for', async (t) => {
  const c = await cliCluster(t);
  const [widget] = await readCrds([fixtures]);
  c.server.create('customresourcedefinitions.apiextensions.k8s.io', widget!);
  const out = await outDir(t);
  const run = c.cli(['crd-types', '--group', 'example.com', '--out', out]);
  t.is(await run.exit, 0, run.stderr());
  t.deepEqual(await filesUnder(out), await expected());
  t.true(c.server.requests.some((r) => r.verb === 'list' && r.path.startsWith('/apis/apiextensions.k8s.io/v1/customresourcedefinitions')));

  const none = c.cli(['crd-types', '--group', 'nothing.example.org', '--out', out]);
  t.is(await none.exit, 1);
  t.is(none.stderr(), 'error: no CustomResourceDefinition of the group nothing.example.org (found: example.com)\n');

  c.server.delete('customresourcedefinitions.apiextensions.k8s.io', undefined, 'widgets.example.com');
  const empty = c.cli(['crd-types', '--out', out]);
  t.is(await empty.exit, 1);
  t.is(empty.stderr(), 'error: the cluster has no CustomResourceDefinition\n');
});

test('a cluster that refuses the list: one error, exit 1, no retrying', async (t) => {
  const c = await cliCluster(t);
  c.server.forbid({ resource: 'customresourcedefinitions.apiextensions.k8s.io', verbs: ['list', 'watch'] });
  const run = c.cli(['crd-types', '--out', await outDir(t)]);
  t.is(await run.exit, 1);
  t.regex(run.stderr(), /^error: .*customresourcedefinitions.* is forbidden/);
  t.is(c.server.requests.filter((r) => r.verb === 'list').length, 1);
});

test('--help, and usage mistakes with exit 2', async (t) => {
  const help = runCli(t, ['crd-types', '--help']);
  t.is(await help.exit, 0);
  t.regex(help.stdout(), /^Write TypeScript types for CustomResourceDefinitions/);
  t.regex(help.stdout(), /--out <dir>/);
  t.regex(help.stdout(), /informer<Json<Gateway>>\(listWatch\(kubeConfig, gateways\)\)/);
  const top = runCli(t, ['--help']);
  t.is(await top.exit, 0);
  t.regex(top.stdout(), /rx-informer crd-types <files\.\.\.>/);
  const nothing = runCli(t, ['crd-types']);
  t.is(await nothing.exit, 2);
  t.is(nothing.stderr(), "error: give CRD files or folders, or --cluster for the CRDs of the live cluster, e.g. rx-informer crd-types config/crd\nSee 'rx-informer crd-types --help' for usage.\n");
  const missing = runCli(t, ['crd-types', join(fixtures, 'nope.yaml')]);
  t.is(await missing.exit, 1);
  t.is(missing.stderr(), `error: no such file or folder: ${join(fixtures, 'nope.yaml')}\n`);
});
