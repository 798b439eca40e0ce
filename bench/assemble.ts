/**
 * BENCHMARKS.md is put together from three files, so that each benchmark regenerates only its
 * own part: bench/results/cluster.md (`npm run bench:cluster`, the real control plane),
 * bench/results/loopback.md (`npm run bench`, the test API server) and bench/NOTES.md (the
 * analysis, written by hand).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where each generated part lives. */
export const partPath = (part: 'cluster' | 'loopback'): string => join(root, 'bench', 'results', `${part}.md`);

/** Writes one generated part, then BENCHMARKS.md from all of them. */
export function writeBenchmarks(part: 'cluster' | 'loopback', text: string): string {
  writeFileSync(partPath(part), text);
  const read = (path: string): string => (existsSync(path) ? `${readFileSync(path, 'utf8').trim()}\n\n` : '');
  const out =
    '# Benchmarks\n\n' +
    'rx-informer against its peers, every target a ratio measured in the same run. Two benchmarks, each in its own section: ' +
    'against a real kube-apiserver + etcd (`npm run bench:cluster`), and on loopback against the test API server (`npm run bench`). ' +
    'The analysis at the end (bench/NOTES.md) is written by hand; check it against the tables.\n\n' +
    read(partPath('cluster')) +
    read(partPath('loopback')) +
    read(join(root, 'bench', 'NOTES.md'));
  const path = join(root, 'BENCHMARKS.md');
  writeFileSync(path, out.replace(/\n+$/, '\n'));
  return path;
}
