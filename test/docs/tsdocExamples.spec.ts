/**
 * The examples in the TSDoc (what an editor's hover and the API reference show) type-check as a
 * reader would paste them: every ```ts block of every file under src/ that the entry points
 * publish (the CLI is a package of its own), strict, with its own imports and any assumption a visible
 * `declare … // assuming: …` line.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsdocTsBlocks, typeCheckSnippets, type Snippet } from '../helpers/typeCheckSnippets.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function examples(dir: string): Promise<Snippet[]> {
  const found: Snippet[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await examples(path)));
    else if (entry.isFile() && entry.name.endsWith('.ts')) found.push(...tsdocTsBlocks(relative(root, path), await readFile(path, 'utf8')));
  }
  return found;
}

test('every TSDoc example of the published entry points type-checks as it stands', async (t) => {
  const snippets = await examples(join(root, 'src'));
  t.true(snippets.length >= 18, `${snippets.length} examples`);
  t.deepEqual(typeCheckSnippets(snippets), []);
});
