import test from 'ava';
import { readFile } from 'node:fs/promises';

const root = new URL('../../', import.meta.url);

test('package.json installs rx-informer from the built bin.js (the Node check), and npm start runs the demo from source', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string>; files: string[] };
  t.deepEqual(pkg.bin, { 'rx-informer': './dist/cli/bin.js' });
  t.true(pkg.files.includes('dist'));
  t.is(pkg.scripts['start'], 'tsx src/cli/main.ts demo');
  const bin = await readFile(new URL('src/cli/bin.ts', root), 'utf8');
  t.true(bin.startsWith('#!/usr/bin/env node\n'), 'tsc keeps the shebang in dist/cli/bin.js');
  t.regex(bin, /await import\('\.\/main\.js'\)/, 'bin.js loads the CLI only after the check');
});
