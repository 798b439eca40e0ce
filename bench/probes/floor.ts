/**
 * `node --expose-gc --import=tsx bench/probes/floor.ts`: how close the informer is to the least any cache
 * can do per watch event, without HTTP. Over a cache of N = BENCH_N (100k) objects, M = BENCH_EVENTS
 * (100k) MODIFIED lines are `JSON.parse`d in bursts of 40 (a network chunk) and handed to:
 *
 * - `parse only`: nothing (the raw limit);
 * - `Map (client-node)`: key, `Map.get` + `Map.set`, a callback: what client-node's informer does;
 * - `Map + deep freeze`: the same with every object deep-frozen (style.md §17: snapshots are frozen);
 * - `hash trie + freeze`: the persistent hash trie that held the objects before the versioned map;
 * - `informer()`: rx-informer itself, read through `changes$`.
 *
 * Variants alternate round by round (BENCH_ROUNDS, 3) and the medians are printed with the GC time
 * per event (from `PerformanceObserver` 'gc' entries). Many events per round, because one major GC
 * of the ~250 MB heap is ~100 ms and must average out.
 */
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { Subject } from 'rxjs';
import type { KubeObject, RawEvent } from 'rx-informer';
import type { HashTrie } from '../../src/store/internal/hashTrie.js';
import { loadLibrary } from '../core/library.js';
import { stampedJson } from '../core/workload.js';

// rx-informer compiled, as users get it (bench/core/library.ts).
const library = await loadLibrary();
const { informer } = library.main;
const { deepFreeze } = await library.module<typeof import('../../src/store/internal/deepFreeze.js')>('store/internal/deepFreeze.js');
const { editTrie, emptyTrie } = await library.module<typeof import('../../src/store/internal/hashTrie.js')>('store/internal/hashTrie.js');

const N = Number(process.env.BENCH_N ?? 100_000);
const M = Number(process.env.BENCH_EVENTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 40);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const listText = `[${Array.from({ length: N }, (_, i) => stampedJson(i, 1)).join(',')}]`;
const lines = Array.from({ length: M }, (_, k) => `{"type":"MODIFIED","object":${stampedJson(k % N, 2 + k)}}`);

type Event = { type: 'MODIFIED'; object: KubeObject };
const keyOf = (o: KubeObject): string => `${o.metadata!.namespace}/${o.metadata!.name}`;
let seen = 0;
const callback = (_old: unknown, _new: unknown): void => void seen++;

interface Variant {
  setup(items: KubeObject[]): void;
  burst(events: Event[]): void;
}
const mapVariant = (freeze: boolean) => (): Variant => {
  const map = new Map<string, KubeObject>();
  const prepare = freeze ? deepFreeze : <T>(o: T) => o;
  return {
    setup: (items) => items.forEach((o) => map.set(keyOf(o), prepare(o))),
    burst: (events) => {
      for (const { object } of events) {
        const key = keyOf(object);
        const old = map.get(key);
        map.set(key, prepare(object));
        callback(old, object);
      }
    },
  };
};
const variants: Record<string, (() => Variant) | null> = {
  'parse only': null,
  'Map (client-node)': mapVariant(false),
  'Map + deep freeze': mapVariant(true),
  'hash trie + freeze': () => {
    let trie: HashTrie<KubeObject> = emptyTrie();
    return {
      setup(items) {
        const editor = editTrie(trie);
        for (const o of items) editor.set(keyOf(o), deepFreeze(o));
        trie = editor.commit();
      },
      burst(events) {
        const editor = editTrie(trie);
        const changes = events.map(({ object }) => {
          const key = keyOf(object);
          return Object.freeze({ type: 'update', key, oldObject: editor.set(key, deepFreeze(object)), object });
        });
        trie = editor.commit();
        for (const c of changes) callback(c.oldObject, c.object);
      },
    };
  },
  'informer()': () => {
    const source = new Subject<RawEvent<KubeObject>>();
    informer(source).changes$.subscribe((c) => c.type === 'update' && callback(c.oldObject, c.object));
    return {
      setup(items) {
        source.next({ type: 'LIST_START' });
        source.next({ type: 'LIST_PAGE', items, page: 1, itemsSoFar: items.length });
        source.next({ type: 'LIST_DONE', resourceVersion: '1' });
      },
      burst: (events) => events.forEach((e) => source.next(e)),
    };
  },
};

const samples: Record<string, { us: number[]; gc: number[] }> = {};
for (let round = 0; round <= ROUNDS; round++) {
  const names = Object.keys(variants);
  if (round % 2) names.reverse();
  for (const name of names) {
    const variant = variants[name]?.() ?? null;
    variant?.setup(JSON.parse(listText) as KubeObject[]);
    await turn();
    gc();
    await turn();
    seen = 0;
    gcMs = 0;
    const start = performance.now();
    for (let k = 0; k < M; k += CHUNK) {
      const burst: Event[] = [];
      for (let j = k; j < Math.min(M, k + CHUNK); j++) burst.push(JSON.parse(lines[j]!) as Event);
      if (variant) variant.burst(burst);
      else seen += burst.length;
      await turn();
    }
    const us = ((performance.now() - start) / M) * 1000;
    await turn(); // let the GC observer report
    if (seen !== M) throw new Error(`${name}: saw ${seen} of ${M}`);
    if (round > 0) {
      (samples[name] ??= { us: [], gc: [] }).us.push(us);
      samples[name].gc.push((gcMs / M) * 1000);
    }
  }
}
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const parse = median(samples['parse only']!.us);
console.log(`N = ${N}, M = ${M} MODIFIED in bursts of ${CHUNK}; medians of ${ROUNDS} alternating rounds`);
console.log(`${'variant'.padEnd(22)} ${'µs/event'.padStart(9)} ${'GC µs'.padStart(7)} ${'vs parse'.padStart(9)}`);
for (const [name, s] of Object.entries(samples)) {
  const us = median(s.us);
  console.log(`${name.padEnd(22)} ${us.toFixed(2).padStart(9)} ${median(s.gc).toFixed(2).padStart(7)} ${(parse / us).toFixed(2).padStart(9)}`);
}
