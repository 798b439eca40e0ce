/**
 * `npm run bench:store`: cost of applying a batch to the store, by store size.
 *
 * For 1k, 10k and 100k cached objects, times `applyBatch` with a 1-change and a 1,000-change batch
 * of updates (fresh objects, so deep-freezing is included), and, as the in-run baseline, the same
 * updates through one immer `produce` over a flat `Map` (what a naive immer store does).
 * Writes bench/results/store-<timestamp>.json and prints a table. Absolute times are noise on
 * shared machines; read the ratios.
 */
import { enableMapSet, produce } from 'immer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Delta } from '../../src/store/delta.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { Snapshot } from '../../src/store/snapshot.js';
import { loadLibrary } from '../core/library.js';

const { applyBatch, byNamespace, emptySnapshot } = (await loadLibrary()).main;

enableMapSet();

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const BATCHES = [1, 1000];
const NAMESPACES = 20;

function object(i: number, rv: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `config-${i}`,
      namespace: `ns-${i % NAMESPACES}`,
      resourceVersion: String(rv),
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      labels: { app: `app-${i % 50}`, tier: i % 2 ? 'front' : 'back' },
      annotations: { 'example.com/owner': `team-${i % 7}` },
    },
    data: { 'settings.yaml': `replicas: ${i % 5}\nmode: ${rv % 2 ? 'fast' : 'safe'}\n`.repeat(8) },
  } as KubeObject;
}
const keyOf = (i: number) => `ns-${i % NAMESPACES}/config-${i}`;
const indexers = { namespace: byNamespace as (o: KubeObject) => readonly string[] };

function build(n: number): Snapshot<KubeObject> {
  const deltas = new Map<string, Delta<KubeObject>[]>();
  for (let i = 0; i < n; i++) deltas.set(keyOf(i), [{ type: 'Replaced', key: keyOf(i), object: object(i, 1) }]);
  return applyBatch(emptySnapshot(['namespace']), { deltas, resourceVersion: '1', listed: true }, indexers).snapshot;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeIt(iterations: number, prepare: (iteration: number) => unknown, run: (input: unknown) => unknown): number {
  const samples: number[] = [];
  for (let it = 0; it < iterations; it++) {
    const input = prepare(it);
    const start = performance.now();
    run(input);
    samples.push(performance.now() - start);
  }
  return median(samples);
}

interface Row {
  size: number;
  batch: number;
  storeMs: number;
  flatImmerMapMs: number;
}

const rows: Row[] = [];
for (const size of SIZES) {
  const base = build(size);
  const flat = new Map<string, KubeObject>([...base.entries()]);
  for (const batch of BATCHES) {
    const iterations = batch === 1 ? 400 : 40;
    const pick = (it: number, j: number) => (it * 7919 + j * 104729) % size;
    const makeDeltas = (it: number) => {
      const deltas = new Map<string, Delta<KubeObject>[]>();
      for (let j = 0; j < batch; j++) {
        const i = pick(it, j);
        deltas.set(keyOf(i), [{ type: 'Updated', key: keyOf(i), object: object(i, 2 + it) }]);
      }
      return deltas;
    };
    // Warm up both paths.
    for (let it = 0; it < 20; it++) applyBatch(base, { deltas: makeDeltas(it) }, indexers);
    const storeMs = timeIt(iterations, makeDeltas, (deltas) => applyBatch(base, { deltas: deltas as Map<string, Delta<KubeObject>[]>, resourceVersion: '9' }, indexers));
    const flatImmerMapMs = timeIt(
      Math.min(iterations, 40),
      makeDeltas,
      (deltas) =>
        produce(flat, (draft) => {
          for (const [key, [delta]] of deltas as Map<string, Delta<KubeObject>[]>) draft.set(key, delta!.object as never);
        }),
    );
    rows.push({ size, batch, storeMs, flatImmerMapMs });
    console.error(`size ${size} batch ${batch}: store ${storeMs.toFixed(4)} ms, flat immer Map ${flatImmerMapMs.toFixed(4)} ms`);
  }
}

const at = (size: number, batch: number) => rows.find((r) => r.size === size && r.batch === batch);
const smallest = Math.min(...SIZES);
const largest = Math.max(...SIZES);
const ratios = BATCHES.map((batch) => ({
  batch,
  largestOverSmallest: at(largest, batch)!.storeMs / at(smallest, batch)!.storeMs,
  flatMapOverStoreAtLargest: at(largest, batch)!.flatImmerMapMs / at(largest, batch)!.storeMs,
}));
const result = {
  command: 'npm run bench:store',
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  date: new Date().toISOString(),
  rows,
  ratios,
  targets: {
    oneChangeAtLargestUnderHalfMs: at(largest, 1)!.storeMs < 0.5,
    costAtLargestAtMostTwiceSmallest: ratios.every((r) => r.largestOverSmallest <= 2),
  },
};
mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
const file = new URL(`../results/store-${result.date.replace(/[:.]/g, '-')}.json`, import.meta.url);
writeFileSync(file, JSON.stringify(result, null, 2));

console.log(`\n${result.machine}\n`);
console.log('| cached | batch | store (median ms) | flat immer Map (median ms) | flat / store |');
console.log('|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.size} | ${r.batch} | ${r.storeMs.toFixed(4)} | ${r.flatImmerMapMs.toFixed(3)} | ${(r.flatImmerMapMs / r.storeMs).toFixed(1)}× |`);
for (const r of ratios) console.log(`\nbatch ${r.batch}: cost at ${largest} / cost at ${smallest} = ${r.largestOverSmallest.toFixed(2)}`);
console.log(`\ntargets: 1-change batch at ${largest} < 0.5 ms: ${result.targets.oneChangeAtLargestUnderHalfMs}; cost at ${largest} ≤ 2× cost at ${smallest}: ${result.targets.costAtLargestAtMostTwiceSmallest}`);
console.log(`written: ${file.pathname}`);
