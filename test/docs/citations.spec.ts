/**
 * Every rule the code cites is defined in the repository (style.md point 39).
 *
 * Scans src/, test/, examples/, bench/ and the top-level Markdown files for rule citations
 * (`R12`, `docs/semantics.md#r12-…`) and style citations (`style rule 25`, `style.md rule 35`,
 * `style.md §17`, `style point 3`, `docs/style.md#25-…`), and checks each against the headings of
 * docs/semantics.md (`### R12 — Title`) and docs/style.md (`### 25. Title`).
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
// This file's own examples of citations are not citations.
const self = fileURLToPath(import.meta.url);
const scannedDirs = ['src', 'test', 'examples', 'bench', 'packages'];
const skippedDirs = new Set(['node_modules', 'dist', '.cluster', '.cache', '.bench-build', '.git']);
const scannedExtensions = ['.ts', '.mjs', '.md', '.go', '.sh'];
const ruleCount = 31;
const styleCount = 45;

interface Citation {
  readonly kind: 'rule' | 'style';
  readonly id: number;
  readonly where: string;
}

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirs.has(entry.name)) yield* files(path);
    } else if (entry.isFile() && scannedExtensions.some((ext) => entry.name.endsWith(ext)) && path !== self) {
      yield path;
    }
  }
}

async function scannedFiles(): Promise<string[]> {
  const result: string[] = [];
  for (const dir of scannedDirs) for await (const path of files(join(root, dir))) result.push(path);
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.md')) result.push(join(root, entry.name));
  }
  return result;
}

// `R` and one or two digits as a whole word: not `HTTP2`, `R2D2`, `aR1`, `R100`.
const ruleId = /(?<![A-Za-z0-9_])R(\d{1,2})(?![A-Za-z0-9_])/g;
// Links to a rule heading: `semantics.md#r12--resync-timer`.
const ruleAnchor = /semantics\.md#r(\d{1,2})(?![0-9])/gi;
// `style rule 25`, `style.md rule 35`, `style.md §17`, `style point 3`, `style rules 25 and 35`.
const styleRef = /(?<![A-Za-z0-9_])style(?:\.md)?\s*(?:rules?|points?|§§?)\s*(\d{1,2}(?:\s*(?:,|\/|and|[–-])\s*\d{1,2})*)(?![0-9])/gi;
// Links to a style heading: `style.md#25-validate-arguments-eagerly`.
const styleAnchor = /style\.md#(\d{1,2})-/gi;
const url = /\b(?:https?|file):\/\/\S+/g;

/** The numbers a list such as `25`, `25 and 35`, `12–14` stands for. */
function numbersOf(list: string): number[] {
  const result: number[] = [];
  for (const part of list.split(/\s*(?:,|\/|and)\s*/)) {
    const [from, to] = part.split(/\s*[–-]\s*/).map(Number);
    if (to === undefined) result.push(from!);
    else for (let n = from!; n <= to; n++) result.push(n);
  }
  return result;
}

function citationsIn(text: string, file: string): Citation[] {
  const found: Citation[] = [];
  text.split('\n').forEach((rawLine, index) => {
    const where = `${file}:${index + 1}`;
    const line = rawLine.replace(url, (match) => ' '.repeat(match.length));
    // Rule ids, with `R1–R11` (en dash, hyphen or "to") standing for every rule in between.
    const ids = [...line.matchAll(ruleId)];
    ids.forEach((match, i) => {
      const id = Number(match[1]);
      found.push({ kind: 'rule', id, where });
      const next = ids[i + 1];
      if (next === undefined) return;
      const between = line.slice(match.index + match[0].length, next.index);
      if (/^\s*(?:[–-]|to)\s*$/.test(between)) {
        for (let n = id + 1; n < Number(next[1]); n++) found.push({ kind: 'rule', id: n, where });
      }
    });
    for (const match of line.matchAll(ruleAnchor)) found.push({ kind: 'rule', id: Number(match[1]), where });
    for (const match of line.matchAll(styleRef)) {
      for (const id of numbersOf(match[1]!)) found.push({ kind: 'style', id, where });
    }
    for (const match of line.matchAll(styleAnchor)) found.push({ kind: 'style', id: Number(match[1]), where });
  });
  return found;
}

/** The ids of the `### …` headings `heading` matches, and the ones defined twice or left empty. */
function definitions(doc: string, heading: RegExp): { ids: Set<number>; problems: string[] } {
  const ids = new Set<number>();
  const problems: string[] = [];
  const lines = doc.split('\n');
  lines.forEach((line, index) => {
    const match = heading.exec(line);
    if (match === null) return;
    const id = Number(match[1]);
    if (ids.has(id)) problems.push(`line ${index + 1}: "${line}" is a second definition`);
    ids.add(id);
    const body = lines.slice(index + 1).findIndex((next) => /^#{1,3} /.test(next));
    const section = lines.slice(index + 1, body < 0 ? undefined : index + 1 + body);
    if (!section.some((next) => next.trim() !== '')) problems.push(`line ${index + 1}: "${line}" has no text`);
  });
  return { ids, problems };
}

const loaded = (async () => {
  const [semantics, style, paths] = await Promise.all([
    readFile(join(root, 'docs/semantics.md'), 'utf8'),
    readFile(join(root, 'docs/style.md'), 'utf8'),
    scannedFiles(),
  ]);
  const citations: Citation[] = [];
  for (const path of paths) citations.push(...citationsIn(await readFile(path, 'utf8'), relative(root, path)));
  return {
    rules: definitions(semantics, /^### R(\d+) — \S/),
    styles: definitions(style, /^### (\d+)\. \S/),
    citations,
  };
})();

const range = (count: number): number[] => Array.from({ length: count }, (_, i) => i + 1);

/** What is wrong with the definitions: ids missing from 1…count, ids beyond it, duplicates, empty sections. */
function definitionProblems(defs: { ids: Set<number>; problems: string[] }, count: number, label: (id: number) => string): string[] {
  return [
    ...range(count).filter((id) => !defs.ids.has(id)).map((id) => `${label(id)} is not defined`),
    ...[...defs.ids].filter((id) => id < 1 || id > count).map((id) => `${label(id)} is out of range`),
    ...defs.problems,
  ];
}

test('docs/semantics.md defines each of R1–R31 once, each with text', async (t) => {
  const problems = definitionProblems((await loaded).rules, ruleCount, (id) => `R${id}`);
  t.deepEqual(problems, [], `docs/semantics.md needs one "### R<n> — <title>" heading per rule:\n${problems.join('\n')}`);
});

test('docs/style.md defines each of points 1–40 once, each with text', async (t) => {
  const problems = definitionProblems((await loaded).styles, styleCount, (id) => `point ${id}`);
  t.deepEqual(problems, [], `docs/style.md needs one "### <n>. <title>" heading per point:\n${problems.join('\n')}`);
});

test('the scan finds the citations (at least 50, of rules and of style points)', async (t) => {
  const { citations } = await loaded;
  t.true(citations.length >= 50, `only ${citations.length} citations found: is the scan looking in the right place?`);
  t.true(citations.some((c) => c.kind === 'rule'), 'no rule citation found');
  t.true(citations.some((c) => c.kind === 'style'), 'no style citation found');
});

test('every cited rule and style point has a heading in docs/', async (t) => {
  const { rules, styles, citations } = await loaded;
  const unresolved = citations
    .filter((c) => !(c.kind === 'rule' ? rules.ids : styles.ids).has(c.id))
    .map((c) => `${c.where}: ${c.kind === 'rule' ? `R${c.id} (no "### R${c.id} — " in docs/semantics.md)` : `style point ${c.id} (no "### ${c.id}. " in docs/style.md)`}`);
  t.deepEqual(unresolved, [], `unresolved citations:\n${unresolved.join('\n')}`);
});

test('the citation patterns: what counts and what does not', (t) => {
  const ids = (text: string): string[] => citationsIn(text, 'x').map((c) => `${c.kind === 'rule' ? 'R' : 's'}${c.id}`);
  t.deepEqual(ids('(R1/R4/R5) R16.2–3 R10\'s'), ['R1', 'R4', 'R5', 'R16', 'R10']);
  t.deepEqual(ids('rules R5–R9'), ['R5', 'R6', 'R7', 'R8', 'R9']);
  t.deepEqual(ids('HTTP2 R2D2 xR1 R100 R_1 https://example.com/R7 sha R3a'), []);
  t.deepEqual(ids('see docs/semantics.md#r12--resync-timer'), ['R12']);
  t.deepEqual(ids('style rule 25; style.md rule 35; docs/style.md §17; style point 3'), ['s25', 's35', 's17', 's3']);
  t.deepEqual(ids('style rules 25 and 35, style.md §§12–14, docs/style.md#39-cite-only'), ['s25', 's35', 's12', 's13', 's14', 's39']);
  t.deepEqual(ids('issue 7 §1, the styles §4, lifestyle point 2'), []);
});
