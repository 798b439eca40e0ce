/**
 * `node --import=tsx bench/render.ts bench/results/bench-<time>.json`: rewrites BENCHMARKS.md from
 * a saved run (tables from the JSON, then bench/NOTES.md), e.g. after editing the notes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderReport, type Results } from './report.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = process.argv[2];
if (!file) throw new Error('usage: bench/render.ts <results.json>');
const notesPath = join(root, 'bench', 'NOTES.md');
const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
writeFileSync(join(root, 'BENCHMARKS.md'), renderReport(results, existsSync(notesPath) ? readFileSync(notesPath, 'utf8') : undefined));
