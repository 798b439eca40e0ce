/**
 * The settings and tools of the in-process watch-event benchmarks (bench/probes/pipeline.ts,
 * bench/probes/eventStages.ts), read once here so the two measure the same workload: N = BENCH_N (100,000)
 * listed objects, M = BENCH_EVENTS (20,000) MODIFIED events in chunks of BENCH_CHUNK (40) lines, one
 * chunk per turn of the event loop, BENCH_ROUNDS (7) rounds. `gc` needs `node --expose-gc`.
 */
export const eventBenchSettings = {
  N: Number(process.env.BENCH_N ?? 100_000),
  M: Number(process.env.BENCH_EVENTS ?? 20_000),
  ROUNDS: Number(process.env.BENCH_ROUNDS ?? 7),
  CHUNK: Number(process.env.BENCH_CHUNK ?? 40),
  /** BENCH_RATE: events per second to feed at (a chunk when its time comes, as a real apiserver sends them); 0 (default): as fast as the loop turns. */
  RATE: Number(process.env.BENCH_RATE ?? 0),
  gc: (globalThis as { gc?: () => void }).gc!,
  /** One turn of the event loop. */
  turn: (): Promise<void> => new Promise((r) => setImmediate(r)),
  /** The process's CPU time so far (user + system), in ms. */
  cpuMs: (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  },
};
