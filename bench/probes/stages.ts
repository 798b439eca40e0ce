/**
 * `node --expose-gc --import=tsx bench/probes/stages.ts`: where a watch event's time goes in the informer
 * pipeline, stage by stage, without HTTP. Builds the chain one operator at a time (toDeltas, then
 * + resync(0), + bufferByKey, + dedupDeltas, + indexReducer, then the whole `informer()` read
 * through `changes$`) over a store of N = BENCH_N (100k) listed objects, feeds M = 20k MODIFIED
 * lines in bursts of 40 (`JSON.parse` inside the clock), and prints µs/event per chain; the
 * difference between two rows is the marginal cost of a stage. Chains alternate round by round.
 */
import { performance } from 'node:perf_hooks';
import { Subject, type Observable } from 'rxjs';
import type { KubeObject, RawEvent } from 'rx-informer';
import { stampedJson } from '../core/workload.js';
import { buildLibrary, importLibrary } from '../core/library.js';

// rx-informer compiled, as users get it (bench/core/library.ts).
const { bufferByKey, dedupDeltas, indexReducer, informer, resync, toDeltas } = await importLibrary(buildLibrary());

const N = Number(process.env.BENCH_N ?? 100_000);
const M = Number(process.env.BENCH_EVENTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHUNK = 40;
const gc = (globalThis as { gc?: () => void }).gc!;
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

const listText = `[${Array.from({ length: N }, (_, i) => stampedJson(i, 1)).join(',')}]`;
const lines = Array.from({ length: M }, (_, k) => `{"type":"MODIFIED","object":${stampedJson(k % N, 2 + k)}}`);

type Raw = RawEvent<KubeObject>;
/** Each chain: subscribes to the source and calls `count(n)` for every n updates that reach its end. */
const chains: [string, (source: Observable<Raw>, count: (n: number) => void) => void][] = [
  ['parse only', () => {}],
  ['toDeltas', (s, count) => s.pipe(toDeltas()).subscribe((d) => d.type === 'Updated' && count(1))],
  ['+ resync(0)', (s, count) => s.pipe(toDeltas(), resync(0)).subscribe((d) => d.type === 'Updated' && count(1))],
  ['+ bufferByKey', (s, count) => s.pipe(toDeltas(), resync(0), bufferByKey()).subscribe((b) => count(b.listed ? 0 : b.deltas.size))],
  ['+ dedupDeltas', (s, count) => s.pipe(toDeltas(), resync(0), bufferByKey(), dedupDeltas()).subscribe((b) => count(b.listed ? 0 : b.deltas.size))],
  [
    '+ indexReducer',
    (s, count) =>
      s.pipe(toDeltas(), resync(0), bufferByKey(), dedupDeltas(), indexReducer()).subscribe((u) => count(u.changes.filter((c) => c.type === 'update').length)),
  ],
  ['informer().changes$', (s, count) => informer(s).changes$.subscribe((c) => c.type === 'update' && count(1))],
];

async function once(build: (source: Observable<Raw>, count: (n: number) => void) => void, parseOnly: boolean): Promise<number> {
  const source = new Subject<Raw>();
  let seen = 0;
  let last = 0;
  build(source, (n) => {
    seen += n;
    last = performance.now();
  });
  source.next({ type: 'LIST_START' });
  source.next({ type: 'LIST_PAGE', items: JSON.parse(listText) as KubeObject[], page: 1, itemsSoFar: N });
  source.next({ type: 'LIST_DONE', resourceVersion: '1' });
  await turn();
  gc();
  seen = 0;
  const start = performance.now();
  for (let k = 0; k < M; k += CHUNK) {
    for (let j = k; j < Math.min(M, k + CHUNK); j++) {
      const event = JSON.parse(lines[j]!) as Raw;
      if (parseOnly) (seen++, (last = performance.now()));
      else source.next(event);
    }
    await turn();
  }
  if (seen !== M) throw new Error(`saw ${seen} of ${M}`);
  source.complete();
  return ((last - start) / M) * 1000;
}

const samples = new Map<string, number[]>(chains.map(([name]) => [name, []]));
for (let round = 0; round <= ROUNDS; round++) {
  const order = round % 2 ? [...chains].reverse() : chains;
  for (const [name, build] of order) {
    const us = await once(build, name === 'parse only');
    if (round > 0) samples.get(name)!.push(us);
  }
}
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;
console.log(`N = ${N}, M = ${M} MODIFIED in bursts of ${CHUNK}; medians of ${ROUNDS} alternating rounds`);
let previous = 0;
for (const [name, v] of samples) {
  const us = median(v);
  console.log(`${name.padEnd(22)} ${us.toFixed(2).padStart(7)} µs/event   (+${(us - previous).toFixed(2)})`);
  previous = us;
}
