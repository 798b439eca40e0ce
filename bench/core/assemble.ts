/**
 * BENCHMARKS.md is put together from four files, so that each benchmark regenerates only its
 * own part: bench/results/cluster.md (`npm run bench:cluster`, the real control plane),
 * bench/results/controller.md (`npm run bench:controller`, controllers on the real control plane),
 * bench/results/loopback.md (`npm run bench`, the test API server) and bench/NOTES.md (the
 * analysis, written by hand).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The generated parts. */
export type Part = 'cluster' | 'controller' | 'loopback';

/** Where each generated part lives. */
export const partPath = (part: Part): string => join(root, 'bench', 'results', `${part}.md`);

/** Writes one generated part, then BENCHMARKS.md from all of them. */
export function writeBenchmarks(part: Part, text: string): string {
  writeFileSync(partPath(part), text);
  const read = (path: string): string => (existsSync(path) ? `${readFileSync(path, 'utf8').trim()}\n\n` : '');
  const out =
    '# Benchmarks\n\n' +
    'rx-informer against its peers, every target a ratio measured in the same run. Three benchmarks, each in its own section: ' +
    'informers against a real kube-apiserver + etcd (`npm run bench:cluster`), controllers against controller-runtime there (`npm run bench:controller`), and informers on loopback against the test API server (`npm run bench`). ' +
    'The analysis at the end (bench/NOTES.md) is written by hand; check it against the tables.\n\n' +
    'What the library survives over time under faults (a 30-minute chaos soak on the real control plane: faults by kind, recovery times, divergences, doubled reconciles, cleanups, heap and RSS over time) is in [RELIABILITY.md](RELIABILITY.md).\n\n' +
    read(partPath('cluster')) +
    read(partPath('controller')) +
    read(partPath('loopback')) +
    read(join(root, 'bench', 'NOTES.md'));
  const path = join(root, 'BENCHMARKS.md');
  writeFileSync(path, out.replace(/\n+$/, '\n'));
  return path;
}
