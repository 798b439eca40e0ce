/**
 * The API reference as `npm run docs` builds it (issue 25 item 5), built here into a temporary
 * directory: it builds without a warning; its main page lists every entry point of the exports map
 * and the main module's page names the others; each module page groups its exports by concept
 * (scripts/typedocConceptGroups.mjs), not by kind; and no link in it is unresolved: every relative
 * link reaches a file (and the anchor in it), every other one is https to a real host (a file name
 * such as `BENCHMARKS.md` turned into `http://BENCHMARKS.md` is what this catches). It is built in a
 * git checkout with no remote (TypeDoc asked `origin` for the source links and warned without one):
 * the source links go to the repository package.json names, at the commit built.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
// @ts-expect-error a plain ES module without declarations (TypeDoc loads it as a plugin)
import { conceptGroups } from '../../scripts/typedocConceptGroups.mjs';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const concepts = new Set((conceptGroups as [string, string[]][]).map(([title]) => title));

/**
 * A git checkout of this tree's files (tracked, and new ones not ignored) with no remote, as a fresh
 * `git init` or a clone whose origin was removed has: the build must not depend on the remote.
 */
async function checkoutWithoutRemote(dir: string): Promise<{ checkout: string; commit: string }> {
  const checkout = join(dir, 'checkout');
  const files = (await exec('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 1 << 24 })).stdout.split('\0');
  for (const file of files) if (file !== '' && existsSync(join(root, file))) await cp(join(root, file), join(checkout, file));
  await symlink(join(root, 'node_modules'), join(checkout, 'node_modules'));
  const git = (...args: string[]) => exec('git', ['-c', 'user.name=docs', '-c', 'user.email=docs@localhost', ...args], { cwd: checkout });
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-q', '--no-verify', '--no-gpg-sign', '-m', 'the tree as tested');
  return { checkout, commit: (await git('rev-parse', 'HEAD')).stdout.trim() };
}

let built: Promise<{ dir: string; checkout: string; commit: string }> | undefined;
/**
 * Builds the reference once for the file's tests, in a checkout without a remote; resolves with its
 * directory. Without TypeDoc's own type-check of the sources (`--skipErrorChecking`): `npm test`
 * type-checks them already, beside this (scripts/test.mjs), and `npm run docs` still does both; here
 * it was a third of TypeDoc's CPU (issue 25 item 7). Every warning still fails the build.
 */
const reference = () =>
  (built ??= mkdtemp(join(tmpdir(), 'rx-informer-docs-')).then(async (tmp) => {
    const { checkout, commit } = await checkoutWithoutRemote(tmp);
    const dir = join(tmp, 'api');
    await exec(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), '--skipErrorChecking', '--out', dir], { cwd: checkout, timeout: 300_000 });
    return { dir, checkout, commit };
  }));
test.after.always(async () => {
  const done = await built?.catch(() => undefined);
  if (done) await rm(dirname(done.dir), { recursive: true, force: true });
});

async function htmlFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...(await htmlFiles(join(dir, entry.name))));
    else if (entry.name.endsWith('.html')) found.push(join(dir, entry.name));
  }
  return found;
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

test('the main page lists every entry point, and the main module names the others', async (t) => {
  const { dir } = await reference();
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
  const entries = Object.keys(manifest.exports).filter((key) => key !== './package.json').map((key) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
  t.true(entries.includes('rx-informer/controller'));
  const index = await readFile(join(dir, 'index.html'), 'utf8');
  for (const entry of entries) t.true(index.includes(`>${entry}<`), `index.html lists ${entry}`);
  const main = text(await readFile(join(dir, 'modules/rx-informer.html'), 'utf8'));
  for (const entry of entries.filter((e) => e !== manifest.name)) t.true(main.includes(entry), `the rx-informer module names ${entry}`);
});

test('each module page groups its exports by concept, none by kind', async (t) => {
  const { dir } = await reference();
  const modules = await readdir(join(dir, 'modules'));
  t.is(modules.length, 9);
  for (const file of modules) {
    const html = await readFile(join(dir, 'modules', file), 'utf8');
    const groups = [...html.matchAll(/<h2[^>]*>([^<]+)<a href="#/g)].map((m) => m[1]!.trim());
    t.true(groups.length > 0, file);
    t.deepEqual(groups.filter((group) => !concepts.has(group)), [], `${file}: ${groups.join(', ')}`);
  }
  const main = await readFile(join(dir, 'modules/rx-informer.html'), 'utf8');
  const operators = /<h2[^>]*>Operators<[\s\S]*?<\/details>/.exec(main)?.[0] ?? '';
  for (const name of ['toDeltas', 'bufferByKey', 'dedupDeltas', 'resync', 'indexReducer']) t.true(operators.includes(`>${name}<`), `the five pipeline operators are one group: ${name}`);
});

test('no link of the reference is unresolved', async (t) => {
  const { dir } = await reference();
  const files = await htmlFiles(dir);
  const ids = new Map<string, Set<string>>();
  const idsOf = async (file: string) => {
    let found = ids.get(file);
    if (found === undefined) ids.set(file, (found = new Set([...(await readFile(file, 'utf8')).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!))));
    return found;
  };
  const broken: string[] = [];
  let checked = 0;
  for (const file of files) {
    const html = await readFile(file, 'utf8');
    for (const [, href = ''] of html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)) {
      checked++;
      const where = `${relative(dir, file)}: ${href}`;
      if (/^[a-z][a-z+.-]*:/i.test(href)) {
        const url = new URL(href);
        if (url.protocol !== 'https:' || !/\.[a-z]{2,}$/i.test(url.hostname) || /\.(md|ts|js|json|ya?ml)$/i.test(url.hostname)) broken.push(where);
        continue;
      }
      const [path = '', anchor] = href.split('#');
      const target = path === '' ? file : resolve(dirname(file), decodeURI(path));
      if (!existsSync(target)) broken.push(where);
      else if (anchor && target.endsWith('.html') && !(await idsOf(target)).has(decodeURIComponent(anchor))) broken.push(`${where} (no such anchor)`);
    }
  }
  t.true(checked > 1000, `${checked} links`);
  t.deepEqual(broken, []);
});

test('source links go to the repository package.json names, at the commit built, whatever the checkout\'s remote', async (t) => {
  const { dir, checkout, commit } = await reference();
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { repository: string };
  const repository = `https://github.com/${manifest.repository.replace(/^github:/, '')}`;
  const links = new Set<string>();
  for (const file of await htmlFiles(dir)) for (const [, href = ''] of (await readFile(file, 'utf8')).matchAll(/<a\s[^>]*?href="(https:\/\/[^"]*\/blob\/[^"]*)"/g)) links.add(href);
  t.true(links.size > 200, `${links.size} source links`);
  const prefix = `${repository}/blob/${commit}/`;
  t.deepEqual([...links].filter((link) => !link.startsWith(prefix) || !/#L\d+$/.test(link)), [], prefix);
  t.deepEqual([...links].map((link) => link.slice(prefix.length).split('#')[0]!).filter((path) => !existsSync(join(checkout, path))), [], 'each names a file of the checkout');
});
