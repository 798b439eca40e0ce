/**
 * `node --import=tsx bench/micro/reconcile.ts`: how long `reconcile()` takes to work through a backlog of
 * N keys (BENCH_KEYS, default 10k, 100k and 1M) whose handler returns synchronously, the shape of a
 * controller starting on a synced cache. The first key is held on a gate until every other key is
 * queued, so the whole backlog waits in the ready queue. Prints ms and keys per second, best of 3.
 */
import { concat, from, NEVER, Subject } from 'rxjs';
import { loadLibrary } from '../core/library.js';

const { reconcile } = (await loadLibrary()).main;

const sizes = process.env.BENCH_KEYS ? [Number(process.env.BENCH_KEYS)] : [10_000, 100_000, 1_000_000];

for (const n of sizes) {
  const keys = Array.from({ length: n }, (_, i) => `ns/key-${i}`);
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const gate = new Subject<undefined>();
    let outcomes = 0;
    const started = performance.now();
    const subscription = concat(from(keys), NEVER)
      .pipe(reconcile((key) => (key === keys[0] ? gate : undefined)))
      .subscribe(() => outcomes++);
    gate.complete();
    const ms = performance.now() - started;
    subscription.unsubscribe();
    if (outcomes !== n) throw new Error(`expected ${n} outcomes, got ${outcomes}`);
    best = Math.min(best, ms);
  }
  console.log(`${n.toLocaleString('en')} keys: ${best.toFixed(0)} ms, ${Math.round(n / (best / 1000)).toLocaleString('en')} keys/s`);
}
