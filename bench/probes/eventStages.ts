/**
 * `node --expose-gc --import=tsx bench/probes/eventStages.ts`: the per-stage account of one watch event,
 * in-process, on the compiled library (bench/core/library.ts), beside the same account of client-node's
 * path. The socket read itself is bench/probes/readPath.ts's (over loopback).
 *
 * The input is what a socket read hands over: M = BENCH_EVENTS (20,000) MODIFIED lines of the
 * loopback benchmark's objects, cut into Buffers of BENCH_CHUNK (40) lines, one chunk per turn of
 * the event loop (or, with BENCH_RATE, at that many events per second, as an apiserver sends them:
 * idle time between them, in which the process's timers and V8's GC run as they would); the store
 * holds N = BENCH_N (100,000) listed objects first. Each row adds one
 * stage to the row above and is timed whole (process CPU time from the first chunk to the last
 * event seen), so the difference between two rows is that stage's cost per event:
 *
 * rx-informer:
 * 1. **split**: rx-informer's line reader (dist/sources/http/lineReader.js), lines decoded, dropped.
 * 2. **+ JSON.parse**.
 * 3. **+ watch message**: readWatch's per-line checks and the `receivedAt` stamp (one clock read a chunk).
 * 4. **+ reflector**: the messages through `reflector()` over a ListerWatcher whose watch is the lines above.
 * 5. **+ informer**: `informer()` on that source, a `changes$` subscriber (keying, the batch, sharing and
 *    freezing, the versioned map, the snapshot, the notifications).
 * 6. **+ metrics**: an `informerMetrics()` collector wired as the factory wires it (`onEvent`, `onUpdate`:
 *    event counts, receivedAt → eventLatency, watch lag from managedFields).
 *
 * client-node (2.x, as its `Watch` and `ListWatch` read a watch, minus the socket):
 * 1. **cn split**: the chunks through a Readable into `readline` (what `Readable.fromWeb` feeds it).
 * 2. **cn + JSON.parse**: `JSON.parse(line.toString())` as its Watch does.
 * 3. **cn + ListWatch**: its `ListWatch.watchHandler` (a Map per namespace, an `update` callback).
 *
 * And the informer's part split further, each alone over pre-parsed objects (rows "alone: …"):
 * keying (`metaNamespaceKey`), sharing + freezing (`prepareForStore` against the cached version),
 * and `applyBatch` of prepared objects (versioned map, snapshot, notifications) in batches of the chunk.
 *
 * Rows rotate round by round, fresh objects each round; medians with min–max of BENCH_ROUNDS (7), and
 * of each row the main thread's GC pauses in the measurement (perf_hooks `gc` entries), per event.
 * BENCH_ROWS (comma list of row names) runs only those; BENCH_DIST=<dir> measures a library compiled there
 * (a kept copy of dist/, for an A/B) instead of compiling src/ into dist/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Observable, Subject, tap } from 'rxjs';
import type { KubeObject, ListerWatcher, RawEvent, WatchMessage } from 'rx-informer';
import { eventBenchSettings } from './eventBenchSettings.js';
import { buildLibrary, importLibrary } from '../core/library.js';
import { stampedJson } from '../core/workload.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { N, M, ROUNDS, CHUNK, RATE, gc, turn, cpuMs } = eventBenchSettings;

// BENCH_DIST=<dir>: a compiled library already built there (e.g. a copy of dist/ kept as the
// baseline of an A/B), measured as it is; by default src/ is compiled into dist/ first.
const distDir = process.env.BENCH_DIST ? resolve(process.env.BENCH_DIST) : dirname(buildLibrary());
const lib = await importLibrary(join(distDir, 'index.js'));
const dist = (path: string): Promise<unknown> => import(pathToFileURL(join(distDir, path)).href);
const { createLineReader } = (await dist('sources/http/lineReader.js')) as typeof import('../../src/sources/http/lineReader.js');
const { prepareForStore, applyBatch } = (await dist('store/applyBatch.js')) as typeof import('../../src/store/applyBatch.js');
const { wallClock } = (await dist('sources/wallClock.js')) as typeof import('../../src/sources/wallClock.js');
const { ListWatch } = await import('@kubernetes/client-node');

const listText = `[${Array.from({ length: N }, (_, i) => stampedJson(i, 1)).join(',')}]`;
const lineTexts = Array.from({ length: M }, (_, k) => `{"type":"MODIFIED","object":${stampedJson((k * 37) % N, 2 + k, k)}}`);
const chunks: Buffer[] = [];
for (let k = 0; k < M; k += CHUNK) chunks.push(Buffer.from(lineTexts.slice(k, k + CHUNK).map((l) => `${l}\n`).join('')));

type Obj = KubeObject;
/** A row: given `seen()` to call once per event reaching its end, returns the consumer of one chunk (and may be async to set up). */
type Row = (seen: () => void) => Promise<(chunk: Buffer) => void>;

// rx-informer's readWatch, per line, as in src/sources/http/httpListerWatcher.ts (not exported).
const watchMessage = (line: string, arrivedAt: number): WatchMessage<Obj> | undefined => {
  const event = JSON.parse(line) as { type?: unknown; object?: unknown; receivedAt?: number };
  if (event === null || typeof event !== 'object' || event.object === null || typeof event.object !== 'object') throw new Error('malformed');
  const type = event.type;
  if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED' || type === 'BOOKMARK') {
    const kind = (event.object as { kind?: unknown }).kind;
    if (typeof kind === 'string' && kind !== 'ConfigMap') return undefined;
    if (type !== 'BOOKMARK') event.receivedAt = arrivedAt;
    return event as WatchMessage<Obj>;
  }
  throw new Error('malformed');
};

/** A source as listWatch builds it: reflector() over a ListerWatcher listing the N objects, then watching `messages`. */
const source = (messages: Subject<WatchMessage<Obj>>): Observable<RawEvent<Obj>> => {
  const lw: ListerWatcher<Obj> = {
    list: () => new Observable((s) => (s.next({ items: JSON.parse(listText) as Obj[], resourceVersion: '1' }), s.complete())),
    watch: () =>
      new Observable<WatchMessage<Obj>>((s) => {
        s.next({ type: 'OPEN' });
        return messages.subscribe(s);
      }),
  };
  return lib.reflector(lw);
};

const rxRow =
  (depth: 'split' | 'parse' | 'message' | 'reflector' | 'informer' | 'metrics'): Row =>
  async (seen) => {
    let push: (line: string, arrivedAt: number) => void;
    if (depth === 'split') push = () => seen();
    else if (depth === 'parse') push = (line) => (JSON.parse(line), seen());
    else if (depth === 'message') push = (line, at) => (watchMessage(line, at), seen());
    else {
      const messages = new Subject<WatchMessage<Obj>>();
      push = (line, at) => {
        const m = watchMessage(line, at);
        if (m) messages.next(m);
      };
      const raw = source(messages);
      if (depth === 'reflector') {
        let listed = false;
        raw.subscribe((e) => (e.type === 'LIST_DONE' ? (listed = true) : e.type === 'MODIFIED' && seen()));
        while (!listed) await turn();
      } else {
        const metrics = depth === 'metrics' ? lib.informerMetrics() : undefined;
        const inf = metrics ? lib.informer(raw.pipe(tap((e) => metrics.onEvent(e))), { onUpdate: metrics.onUpdate }) : lib.informer(raw);
        inf.changes$.subscribe((c) => c.type === 'update' && seen());
        await inf.whenSynced();
      }
    }
    let arrivedAt = 0;
    const reader = createLineReader(16 * 1024 * 1024, (line) => push(line, arrivedAt));
    return (chunk) => {
      arrivedAt = wallClock();
      reader.push(chunk);
    };
  };

const cnRow =
  (depth: 'split' | 'parse' | 'listwatch'): Row =>
  async (seen) => {
    const body = new Readable({ read() {} });
    let handle: (line: string) => void = () => seen();
    if (depth !== 'split') {
      let callback: (phase: string, obj: Obj, data: unknown) => void = () => seen();
      if (depth === 'listwatch') {
        const objects = JSON.parse(listText) as Obj[];
        const lw = new ListWatch<never>('/api/v1/configmaps', {} as never, (() => Promise.resolve({ items: objects, metadata: {} })) as never, false);
        lw.on('update', () => seen());
        (lw as unknown as { addOrUpdateItems(items: Obj[]): void }).addOrUpdateItems(objects);
        const handler = (lw as unknown as { watchHandler(phase: string, obj: Obj, data: unknown): Promise<void> }).watchHandler.bind(lw);
        callback = (phase, obj, data) => void handler(phase, obj, data);
      }
      handle = (line) => {
        try {
          const data = JSON.parse(line.toString()) as { type: string; object: Obj };
          callback(data.type, data.object, data);
        } catch {
          /* as client-node */
        }
      };
    }
    createInterface(body).on('line', handle);
    return (chunk) => void body.push(chunk);
  };

/** The informer's stages alone, over objects parsed before the clock: `stage(objects)` runs them all. */
const alone =
  (stage: 'keying' | 'share+freeze' | 'apply'): ((objects: Obj[]) => (seen: () => void) => void) =>
  (objects) => {
    if (stage === 'keying') return (seen) => { for (const o of objects) (lib.metaNamespaceKey(o), seen()); };
    const cache = new Map<string, Obj>();
    for (const o of JSON.parse(listText) as Obj[]) cache.set(lib.metaNamespaceKey(o), prepareForStore(o) as Obj);
    if (stage === 'share+freeze') return (seen) => { for (const o of objects) (prepareForStore(o, cache.get(lib.metaNamespaceKey(o)) as never), seen()); };
    // apply: a snapshot of the N objects, then batches of CHUNK prepared updates.
    let snapshot = applyBatch(lib.emptySnapshot<Obj>(), { deltas: new Map([...cache].map(([key, object]) => [key, [{ type: 'Replaced', key, object } as never]])), resourceVersion: '1', listed: true }).snapshot;
    const prepared = objects.map((o) => { const key = lib.metaNamespaceKey(o); return { key, object: prepareForStore(o, cache.get(key) as never) }; });
    return (seen) => {
      for (let k = 0; k < prepared.length; k += CHUNK) {
        const deltas = new Map<string, never[]>();
        for (const { key, object } of prepared.slice(k, k + CHUNK)) deltas.set(key, [{ type: 'Updated', key, object } as never]);
        const update = applyBatch(snapshot, { deltas, resourceVersion: String(k) });
        snapshot = update.snapshot;
        for (const c of update.changes) if (c.type === 'update') seen();
      }
    };
  };

const allRows: [string, Row | ((objects: Obj[]) => (seen: () => void) => void), boolean][] = [
  ['split', rxRow('split'), false],
  ['+ JSON.parse', rxRow('parse'), false],
  ['+ watch message', rxRow('message'), false],
  ['+ reflector', rxRow('reflector'), false],
  ['+ informer', rxRow('informer'), false],
  ['+ metrics', rxRow('metrics'), false],
  ['cn split', cnRow('split'), false],
  ['cn + JSON.parse', cnRow('parse'), false],
  ['cn + ListWatch', cnRow('listwatch'), false],
  ['alone: keying', alone('keying'), true],
  ['alone: share+freeze', alone('share+freeze'), true],
  ['alone: applyBatch', alone('apply'), true],
];

// BENCH_ROWS=name,name: only those rows (e.g. to profile one with --cpu-prof).
const rows = process.env.BENCH_ROWS ? allRows.filter(([name]) => process.env.BENCH_ROWS!.split(',').includes(name)) : allRows;

async function once(row: Row | ((objects: Obj[]) => (seen: () => void) => void), isAlone: boolean): Promise<number> {
  let seen = 0;
  let cpuAtLast = 0;
  const count = (): void => {
    if (++seen === M) cpuAtLast = cpuMs();
  };
  if (isAlone) {
    const objects = lineTexts.map((l) => (JSON.parse(l) as { object: Obj }).object);
    const run = (row as (objects: Obj[]) => (seen: () => void) => void)(objects);
    gc();
    const c0 = cpuMs();
    gcWindow = [performance.now(), Infinity];
    run(count);
    gcWindow[1] = performance.now();
    if (seen !== M) throw new Error(`saw ${seen} of ${M}`);
    return ((cpuAtLast - c0) / M) * 1000;
  }
  const consume = await (row as Row)(count);
  await turn();
  gc();
  const c0 = cpuMs();
  gcWindow = [performance.now(), Infinity];
  const t0 = performance.now();
  for (let k = 0; k < chunks.length; k++) {
    consume(chunks[k]!);
    const due = RATE > 0 ? t0 + (((k + 1) * CHUNK) / RATE) * 1000 - performance.now() : 0;
    await (due > 1 ? new Promise((resolve) => setTimeout(resolve, due)) : turn());
  }
  while (seen < M) await turn();
  gcWindow[1] = performance.now();
  return ((cpuAtLast - c0) / M) * 1000;
}

// Main-thread GC pauses (ms) while a row is measured: the part of its CPU that is the collector's.
let gcWindow: [number, number] = [Infinity, Infinity];
const gcEntries: Array<{ startTime: number; duration: number }> = [];
new PerformanceObserver((list) => void gcEntries.push(...list.getEntries())).observe({ entryTypes: ['gc'] });
const gcMsIn = ([from, to]: [number, number]): number => gcEntries.filter((e) => e.startTime >= from && e.startTime < to).reduce((sum, e) => sum + e.duration, 0);
const gcSamples = new Map<string, number[]>();
const load = [loadavg()[0]!];
const samples = new Map<string, number[]>(rows.map(([name]) => [name, []]));
for (let round = 0; round <= ROUNDS; round++) {
  const order = rows.map((_, k) => rows[(k + round * 5) % rows.length]!);
  for (const [name, row, isAlone] of order) {
    const us = await once(row, isAlone);
    await turn(); // the observer's entries arrive asynchronously
    if (round > 0) samples.get(name)!.push(us);
    if (round > 0) gcSamples.set(name, [...(gcSamples.get(name) ?? []), (gcMsIn(gcWindow) / M) * 1000]);
    gcEntries.length = 0;
    gc();
  }
  load.push(loadavg()[0]!);
}
const stats = (v: number[]): [number, number, number] => {
  const s = [...v].sort((a, b) => a - b);
  return [s[0]!, s[s.length >> 1]!, s[s.length - 1]!];
};
const out = [
  `N = ${N} cached, M = ${M} MODIFIED in chunks of ${CHUNK} lines${RATE > 0 ? ` at ${RATE} events/s` : ''}, CPU µs per event, median (min–max) of ${ROUNDS} rotated rounds, load ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}`,
  '',
  '| stage | CPU µs/event, cumulative | this stage | of it, main-thread GC µs/event |',
  '|---|---:|---:|---:|',
];
let previous = 0;
for (const [name] of rows) {
  const [lo, med, hi] = stats(samples.get(name)!);
  const first = name === 'split' || name === 'cn split' || name.startsWith('alone');
  const gcMedian = stats(gcSamples.get(name)!)[1];
  out.push(`| ${name} | ${med.toFixed(2)} (${lo.toFixed(2)}–${hi.toFixed(2)}) | ${first ? med.toFixed(2) : (med - previous).toFixed(2)} | ${gcMedian.toFixed(2)} |`);
  previous = med;
}
console.log(out.join('\n'));
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', `eventStages-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ N, M, CHUNK, ROUNDS, load, samples: Object.fromEntries(samples) }, null, 1));
// The informers of the rows stay subscribed (and keep the event loop alive): end here, which also writes a --cpu-prof profile.
process.exit(0);
