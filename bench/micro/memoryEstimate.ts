/**
 * `npm run bench:memory`: how close `metrics().estimatedBytes` comes to the heap an informer's
 * cache really takes. For N = 10,000 and 100,000 of the benchmark's ConfigMaps (bench/core/workload.ts,
 * ~1.5 KB of JSON each, with managedFields), each run in a fresh process with `--expose-gc`:
 * the heap after a full GC before the informer exists, then after it has applied a list of the N
 * objects (parsed page by page, as over HTTP, the texts dropped) and another full GC. The difference
 * is the cache: objects, the store's maps, the delta converter's keys, the metrics' own table.
 * Printed beside it: the estimate, and the bytes of JSON received (the other estimate one could keep).
 * Each N twice: the objects as received, and without managedFields (what `stripManagedFields`
 * keeps), a shape the bytes received no longer describe. Three runs per case, in rotated order; the table has the median and the spread, and the runs go to
 * bench/results/memory-<time>.json. Env: BENCH_SIZES (`10000,100000`), BENCH_ROUNDS (3).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstValueFrom, filter, Subject } from 'rxjs';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { buildLibrary, loadLibrary } from '../core/library.js';
import { stampedJson } from '../core/workload.js';

// Built once by the parent; its children load that build (BENCH_RX_LIB).
process.env.BENCH_RX_LIB ??= buildLibrary();
const { informer, informerMetrics, stripManagedFields } = (await loadLibrary()).main;

interface Run {
  readonly n: number;
  /** `full`: the objects as received; `stripped`: without managedFields (a `stripManagedFields` transform). */
  readonly variant: string;
  readonly measured: number;
  readonly estimate: number;
  readonly jsonBytes: number;
}

const here = dirname(fileURLToPath(import.meta.url));

/** One run, in this process: the heap the cache of `n` ConfigMaps takes, and the two estimates. */
async function measure(n: number, variant: string): Promise<Run> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const settle = async (): Promise<number> => {
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    return process.memoryUsage().heapUsed;
  };
  const before = await settle();
  const metrics = informerMetrics();
  const source = new Subject<RawEvent<KubeObject>>();
  const cache = informer<KubeObject>(source, { onUpdate: metrics.onUpdate });
  const connection = cache.connect();
  let jsonBytes = 0;
  source.next({ type: 'LIST_START' });
  for (let page = 0; page * 500 < n; page++) {
    const items: KubeObject[] = [];
    for (let i = page * 500; i < Math.min(n, (page + 1) * 500); i++) {
      const text = stampedJson(i, 1);
      jsonBytes += Buffer.byteLength(text);
      const object = JSON.parse(text) as KubeObject;
      items.push(variant === 'stripped' ? stripManagedFields(object) : object);
    }
    source.next({ type: 'LIST_PAGE', items, page: page + 1, itemsSoFar: Math.min(n, (page + 1) * 500) });
  }
  source.next({ type: 'LIST_DONE', resourceVersion: '1' });
  await firstValueFrom(cache.synced$.pipe(filter(Boolean)));
  const after = await settle();
  const { estimatedBytes, objects } = metrics.read();
  if (objects !== n || cache.snapshot.size !== n) throw new Error(`cached ${objects} of ${n}`);
  connection.unsubscribe();
  return { n, variant, measured: after - before, estimate: estimatedBytes, jsonBytes };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
const pct = (ratio: number): string => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(await measure(Number(process.argv[3]), process.argv[4] ?? 'full')));
} else {
  const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const cases = sizes.flatMap((n) => ['full', 'stripped'].map((variant) => ({ n, variant })));
  const runs: Run[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = [...cases.slice(round % cases.length), ...cases.slice(0, round % cases.length)];
    for (const { n, variant } of order) {
      const out = execFileSync(process.execPath, ['--expose-gc', '--import=tsx', join(here, 'memoryEstimate.ts'), '--child', String(n), variant], { encoding: 'utf8' });
      runs.push(JSON.parse(out) as Run);
    }
  }
  console.log(`| objects | heap measured (MB), median [min–max] | estimatedBytes (MB) | estimate / heap | JSON received (MB) | JSON / heap |`);
  console.log(`|---|---:|---:|---:|---:|---:|`);
  for (const { n, variant } of cases) {
    const mine = runs.filter((r) => r.n === n && r.variant === variant);
    const heap = mine.map((r) => r.measured);
    const m = median(heap);
    const { estimate, jsonBytes } = mine[0]!;
    console.log(
      `| ${n.toLocaleString('en')} ${variant === 'full' ? 'ConfigMaps' : 'without managedFields'} | ${mb(m)} [${mb(Math.min(...heap))}–${mb(Math.max(...heap))}] | ${mb(estimate)} | ${pct(estimate / m)} | ${mb(jsonBytes)} | ${pct(jsonBytes / m)} |`,
    );
  }
  mkdirSync(join(here, '..', 'results'), { recursive: true });
  const file = join(here, '..', 'results', `memory-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ node: process.version, runs }, null, 2));
  console.log(`runs: ${file}`);
}
