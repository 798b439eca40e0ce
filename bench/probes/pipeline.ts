/**
 * `node --expose-gc --import=tsx bench/probes/pipeline.ts [dir…]`: the informer pipeline without HTTP,
 * A/B. For each library copy (src/ by default; each `dir` is a patched copy of src/ to compare),
 * compiled first (bench/core/library.ts),
 * feeds N = BENCH_N (100k) list items in pages of 500, then M = 20k MODIFIED events in network-
 * chunk-sized bursts of 40 lines, every line `JSON.parse`d inside the clock, and times (a) list →
 * synced and (b) first event → last event visible on `changes$` (wall time, and the process's CPU
 * time, which a loaded machine disturbs less). A "parse only" row is the limit. BENCH_CHUNK=1 gives
 * every event its own turn of the event loop, as events trickling in one by one do.
 * Variants alternate round by round (7 rounds, medians) so machine noise hits them alike; this is
 * how a proposed pipeline fix is measured before/after when whole-process runs are too noisy.
 * Two more rows run src/ as the HTTP source and the factory do: `+ receivedAt` stamps each event
 * with its burst's arrival (one clock read a burst, one property an event), `+ metrics` also wires
 * an `informerMetrics()` collector (arrival queue, histograms); they price the latency probe.
 */
import { performance } from 'node:perf_hooks';
import { Subject, tap } from 'rxjs';
import type { KubeObject, RawEvent } from 'rx-informer';
import { eventBenchSettings } from './eventBenchSettings.js';
import { buildLibrary, importLibrary } from '../core/library.js';
import { stampedJson } from '../core/workload.js';

const { N, M, ROUNDS, CHUNK, gc, turn, cpuMs } = eventBenchSettings;

const listPages: string[] = [];
for (let i = 0; i < N; i += 500) listPages.push(`[${Array.from({ length: Math.min(500, N - i) }, (_, k) => stampedJson(i + k, 1)).join(',')}]`);
const lines = Array.from({ length: M }, (_, k) => `{"type":"MODIFIED","object":${stampedJson(k % N, 2 + k, k)}}`);

type Lib = typeof import('rx-informer');
interface Probe {
  readonly stamp?: boolean;
  readonly metrics?: boolean;
}
// Each library compiled as users get it (bench/core/library.ts), not through tsx.
const src = await importLibrary(buildLibrary());
const variants: [string, Lib | undefined, Probe][] = [
  ['parse only', undefined, {}],
  ['src', src, {}],
  ['src + receivedAt', src, { stamp: true }],
  ['src + receivedAt + metrics', src, { stamp: true, metrics: true }],
];
for (const dir of process.argv.slice(2)) variants.push([dir, await importLibrary(buildLibrary(dir)), {}]);

async function once(lib: Lib | undefined, probe: Probe): Promise<{ sync: number; events: number; cpu: number }> {
  const source = new Subject<RawEvent<KubeObject>>();
  let seen = 0;
  let lastSeen = 0;
  let synced: Promise<unknown> = Promise.resolve();
  if (lib) {
    const metrics = probe.metrics ? lib.informerMetrics() : undefined;
    const inf = metrics ? lib.informer(source.pipe(tap((event) => metrics.onEvent(event))), { onUpdate: metrics.onUpdate }) : lib.informer(source);
    inf.changes$.subscribe((c) => {
      if (c.type === 'update') {
        seen++;
        lastSeen = performance.now();
      }
    });
    synced = inf.whenSynced();
  }
  gc();
  const t0 = performance.now();
  source.next({ type: 'LIST_START' });
  let items = 0;
  for (const page of listPages) {
    const parsed = JSON.parse(page) as KubeObject[];
    items += parsed.length;
    source.next({ type: 'LIST_PAGE', items: parsed, page: 0, itemsSoFar: items });
    await turn();
  }
  source.next({ type: 'LIST_DONE', resourceVersion: '1' });
  await synced;
  const sync = performance.now() - t0;
  await turn();
  const t1 = performance.now();
  const c1 = cpuMs();
  for (let k = 0; k < M; k += CHUNK) {
    const arrivedAt = probe.stamp ? performance.timeOrigin + performance.now() : 0;
    for (let j = k; j < Math.min(M, k + CHUNK); j++) {
      const event = JSON.parse(lines[j]!) as { type: 'MODIFIED'; object: KubeObject; receivedAt?: number };
      if (probe.stamp) event.receivedAt = arrivedAt;
      if (!lib) lastSeen = performance.now();
      source.next(event);
    }
    await turn();
  }
  const cpu = cpuMs() - c1;
  if (lib && seen !== M) throw new Error(`saw ${seen} of ${M} updates`);
  source.complete();
  return { sync, events: lastSeen - t1, cpu };
}

const samples = new Map<string, { sync: number[]; events: number[]; cpu: number[] }>(variants.map(([name]) => [name, { sync: [], events: [], cpu: [] }]));
for (let round = 0; round < ROUNDS + 1; round++) {
  const order = round % 2 ? [...variants].reverse() : variants;
  for (const [name, lib, probe] of order) {
    const r = await once(lib, probe);
    if (round > 0) {
      samples.get(name)!.sync.push(r.sync);
      samples.get(name)!.events.push(r.events);
      samples.get(name)!.cpu.push(r.cpu);
    }
  }
}
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const base = samples.get('parse only')!;
console.log(`N = ${N}, M = ${M} in bursts of ${CHUNK}; medians of ${ROUNDS} alternating rounds`);
console.log('variant'.padEnd(28), 'sync ms'.padStart(9), 'µs/event'.padStart(9), 'CPU µs/event'.padStart(13), 'events/s'.padStart(10), 'vs parse'.padStart(9));
for (const [name, s] of samples) {
  const us = (median(s.events) / M) * 1000;
  const cpu = (median(s.cpu) / M) * 1000;
  console.log(name.padEnd(28), median(s.sync).toFixed(0).padStart(9), us.toFixed(2).padStart(9), cpu.toFixed(2).padStart(13), (1e6 / us).toFixed(0).padStart(10), (median(base.events) / median(s.events)).toFixed(2).padStart(9));
}
