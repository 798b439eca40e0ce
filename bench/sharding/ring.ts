/**
 * `npm run bench:ring`: the sharding ring at scale, without a cluster — 100 replicas × 1,000,000
 * keys. Prints a Markdown section (for BENCHMARKS.md via bench/NOTES.md) and writes the figures to
 * bench/results/ring-<time>.json. Asserts nothing; `RING_KEYS` / `RING_REPLICAS` change the size.
 *
 * - balance: keys of the most and the least loaded replica over the mean, per virtual-node count;
 * - movement: keys whose owner changed when one replica joins or leaves, against the ideal 1/N;
 * - cost: one ring rebuild (all points hashed and sorted) and one lookup.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HashRing } from '../../src/sharding/label/hashRing.js';
import { loadLibrary } from '../core/library.js';

const library = await loadLibrary();
const { hashRing } = library.controller;
const { hash32 } = await library.module<typeof import('../../src/sharding/hash32.js')>('sharding/hash32.js');

const keyCount = Number(process.env.RING_KEYS ?? 1_000_000);
const replicas = Number(process.env.RING_REPLICAS ?? 100);
const pointCounts = [100, 500, 1_000, 2_000];
const defaultPoints = 2_000;
const changes = 5;

const keys = Array.from({ length: keyCount }, (_, k) => `v1/ConfigMap/ns-${k % 1_000}/object-${k}`);
const member = (i: number): string => `controller-${i}_${hash32(`member-${i}`).toString(16).padStart(8, '0')}`;
const members = Array.from({ length: replicas }, (_, i) => member(i));

function owners(ring: HashRing): string[] {
  const out = new Array<string>(keys.length);
  for (let k = 0; k < keys.length; k++) out[k] = ring.ownerOf(keys[k]!)!;
  return out;
}

function balance(assigned: readonly string[], count: number): { max: number; min: number } {
  const counts = new Map<string, number>();
  for (const owner of assigned) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  const mean = assigned.length / count;
  const values = [...counts.values()];
  while (values.length < count) values.push(0);
  return { max: Math.max(...values) / mean, min: Math.min(...values) / mean };
}

function moved(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) n += 1;
  return n / a.length;
}

const median = (values: number[]): number => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const log = (text: string): void => void process.stderr.write(`[bench:ring] ${text}\n`);
const started = new Date();

log(`${replicas} replicas × ${keyCount.toLocaleString('en')} keys`);
const balanceRows = pointCounts.map((points) => {
  const b = balance(owners(hashRing(members, { virtualNodes: points })), replicas);
  log(`balance with ${points} points: max/mean ${b.max.toFixed(3)}`);
  return { points, ...b };
});
const small = [3, 10].map((n) => ({ n, ...balance(owners(hashRing(members.slice(0, n), { virtualNodes: defaultPoints })), n) }));

const base = owners(hashRing(members, { virtualNodes: defaultPoints }));
const joins: number[] = [];
const leaves: number[] = [];
for (let i = 0; i < changes; i++) {
  joins.push(moved(base, owners(hashRing([...members, member(replicas + i)], { virtualNodes: defaultPoints }))));
  leaves.push(moved(base, owners(hashRing(members.filter((_, m) => m !== i * 17), { virtualNodes: defaultPoints }))));
}
log(`join moves ${(median([...joins]) * 100).toFixed(2)} %, leave ${(median([...leaves]) * 100).toFixed(2)} %`);

const rebuildMs = pointCounts.map((points) => {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    hashRing(members, { virtualNodes: points });
    times.push(performance.now() - t0);
  }
  return { points, ms: median(times) };
});
const ring = hashRing(members, { virtualNodes: defaultPoints });
const lookupTimes: number[] = [];
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  for (const key of keys) ring.ownerOf(key);
  lookupTimes.push(((performance.now() - t0) * 1e6) / keys.length);
}
const lookupNs = median(lookupTimes);

const f = (x: number, d = 3): string => x.toFixed(d);
const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;
const markdown = [
  `### Sharding ring (\`npm run bench:ring\`)`,
  '',
  `${replicas} replicas × ${keyCount.toLocaleString('en')} keys (\`v1/ConfigMap/ns-<k mod 1000>/object-<k>\`), MurmurHash3 positions; run ${started.toISOString()}, ${cpus().length} × ${cpus()[0]?.model.trim()}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}.`,
  '',
  '| points per replica | max / mean keys | min / mean keys | one rebuild (ms) |',
  '|---:|---:|---:|---:|',
  ...balanceRows.map((row) => `| ${row.points.toLocaleString('en')}${row.points === defaultPoints ? ' (default)' : ''} | ${f(row.max)} | ${f(row.min)} | ${f(rebuildMs.find((r) => r.points === row.points)!.ms, 1)} |`),
  '',
  `With the default ${defaultPoints.toLocaleString('en')} points: ${small.map((s) => `${s.n} replicas max/mean ${f(s.max)}`).join(', ')}.`,
  '',
  `| membership change (${changes} each) | keys moved, median | min – max | ideal |`,
  '|---|---:|---:|---:|',
  `| one replica joins (${replicas} → ${replicas + 1}) | ${pct(median([...joins]))} | ${pct(Math.min(...joins))} – ${pct(Math.max(...joins))} | ${pct(1 / (replicas + 1))} |`,
  `| one replica leaves (${replicas} → ${replicas - 1}) | ${pct(median([...leaves]))} | ${pct(Math.min(...leaves))} – ${pct(Math.max(...leaves))} | ${pct(1 / replicas)} |`,
  '',
  `A lookup (hash the key, binary search ${(replicas * defaultPoints).toLocaleString('en')} points) takes ${f(lookupNs, 0)} ns; assigning all ${keyCount.toLocaleString('en')} keys after a change takes ${f((lookupNs * keyCount) / 1e6, 0)} ms.`,
].join('\n');
process.stdout.write(`${markdown}\n`);

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'bench', 'results', `ring-${started.toISOString().replace(/[:.]/g, '-')}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ started, replicas, keyCount, balanceRows, small, joins, leaves, rebuildMs, lookupNs }, null, 2));
log(`wrote ${out}`);
