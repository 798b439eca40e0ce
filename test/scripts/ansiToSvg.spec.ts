import test from 'ava';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ansiToSvg } from '../../scripts/ansiToSvg.js';

const root = new URL('../../', import.meta.url);
const tspans = (svg: string): string[] => [...svg.matchAll(/<tspan ([^>]*)>([^<]*)<\/tspan>/g)].map((m) => `${m[2]} | ${m[1]}`);

test('SGR runs become styled tspans on the terminal grid; other escapes and blank runs are dropped', (t) => {
  const svg = ansiToSvg('\x1b[1mtitle\x1b[0m  \x1b[2m12:00\x1b[0m\n\x1b[32m+ a\x1b[39m \x1b[31;9m- b\x1b[0m\x1b[K\n\x1b[93mx\x1b[22m', { columns: 20, fontSize: 10 });
  t.deepEqual(tspans(svg), [
    'title | x="16.0" textLength="30.0" lengthAdjust="spacingAndGlyphs" fill="#d3d0c8" font-weight="bold"',
    '12:00 | x="58.0" textLength="30.0" lengthAdjust="spacingAndGlyphs" fill="#d3d0c8" fill-opacity="0.6"',
    '+ a | x="16.0" textLength="18.0" lengthAdjust="spacingAndGlyphs" fill="#99cc99"',
    '- b | x="40.0" textLength="18.0" lengthAdjust="spacingAndGlyphs" fill="#f2777a" text-decoration="line-through"',
    'x | x="16.0" textLength="6.0" lengthAdjust="spacingAndGlyphs" fill="#ffd479"',
  ]);
  t.regex(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="152" height="74" /);
  t.is((svg.match(/<text y=/g) ?? []).length, 3);
});

test('text is XML-escaped and cut at the terminal width; wide characters count as one cell', (t) => {
  const svg = ansiToSvg('a<b & "c" ● · …and more', { columns: 12 });
  t.deepEqual(tspans(svg).map((s) => s.split(' | ')[0]), ['a&lt;b &amp; &quot;c&quot; ● ']);
  t.regex(svg, /textLength="100\.8"/, '12 cells of 8.4 px');
});

test('a title bar when asked', (t) => {
  const svg = ansiToSvg('x', { columns: 10, title: 'npm start' });
  t.regex(svg, /<circle cx="22" cy="15" r="6" fill="#ff5f56"\/>/);
  t.regex(svg, />npm start<\/text>/);
});

test('the README\'s picture is this renderer\'s capture of the live view', async (t) => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  t.regex(readme, /!\[[^\]]+\]\(docs\/demo\.svg\)/);
  const svg = await readFile(new URL('docs/demo.svg', root), 'utf8');
  t.regex(svg, /aria-label="npm start"/);
  for (const text of ['rx-informer watch pods · all namespaces', 'watching at resourceVersion', 'NAMESPACE', 'shown · newest changes first · Ctrl-C to quit']) t.true(svg.includes(text), text);
});

test.serial('npm run screenshot regenerates it from a real npm start in tmux', async (t) => {
  t.is(spawnSync('tmux', ['-V']).status, 0, 'tmux is needed (Debian: apt-get install tmux)');
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-shot-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'demo.svg');
  await promisify(execFile)(process.execPath, ['--import=tsx', 'scripts/screenshot.ts', path], { cwd: root, timeout: 90_000 });
  const svg = await readFile(path, 'utf8');
  t.true(svg.includes('watching at resourceVersion'));
  t.regex(svg, /fill="#99cc99">\+ /, 'a row just added, in green');
  t.regex(svg, /text-decoration="line-through">- /, 'a row just deleted, struck through');
});
