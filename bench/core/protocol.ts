/**
 * The wire protocol between `bench/loopback/run.ts`, the workload server and the contenders.
 *
 * - Server (child process with IPC): `{ type: 'seed', n }` → `{ type: 'ready', kubeconfig, url }`;
 *   `{ type: 'fire', count, rate }` (rate 0: back-to-back) → `{ type: 'fired', firstSeq, lastSeq, first, last }`.
 * - Contender (child process, JSON lines on stdout, commands on stdin): prints `synced` once the
 *   initial list is in its cache; on `{ type: 'measure', first, last, record }` collects garbage,
 *   prints `armed` (with its resident set size then: the settled RSS), then `measured` once an update
 *   of every seq annotation in `first..last` reached its cache/callback (they may arrive in any
 *   order: through a real apiserver, concurrent writes commit in any order), with the CPU time it
 *   spent since `armed`; `{ type: 'exit' }` ends it.
 *
 * Every time is milliseconds of the machine's monotonic clock (CLOCK_MONOTONIC), with
 * sub-millisecond precision: one clock for every process, so a time written by one process can be
 * subtracted from a time read in another. (`performance.timeOrigin + performance.now()` cannot: each
 * process fixes its own origin at start, and two of them were seen to disagree by ~5 ms, which made
 * latencies negative.)
 */

/** Sequence number of a benchmark write, in the object's annotations. */
export const SEQ_ANNOTATION = 'bench.rx-informer.dev/seq';
/** When the server made the write (epoch ms, fractional). */
export const TIME_ANNOTATION = 'bench.rx-informer.dev/t';

/** Milliseconds of CLOCK_MONOTONIC (the same clock in every process of the machine; Go: bench/contenders/client-go). */
export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export interface SyncedMessage {
  readonly type: 'synced';
  /** Just before the contender started its list. */
  readonly start: number;
  readonly synced: number;
  /** Objects in the cache (or parsed, for the raw limit). */
  readonly count: number;
  /** Heap used after GC before anything was listed. */
  readonly heapBaseline: number;
  /** Heap used after GC once synced. */
  readonly heapAfterGC: number;
  /** Peak resident set size so far, bytes. */
  readonly maxRSS: number;
}

export interface ArmedMessage {
  readonly type: 'armed';
  /** Resident set size after a full GC, bytes (Linux VmRSS). */
  readonly rss: number;
}

export interface MeasuredMessage {
  readonly type: 'measured';
  readonly lastSeen: number;
  /** CPU time (user + system) the contender process spent from `armed` to `measured`, ms. */
  readonly cpuMs: number;
  /** Write-to-visible latencies in ms, when `record` was asked. */
  readonly latencies: readonly number[];
  readonly maxRSS: number;
  /** What the contender's own instruments read over the measurement (rx with BENCH_RX_METRICS=1: its eventLatency histogram). */
  readonly instruments?: Readonly<Record<string, number | undefined>>;
}

export interface MeasureCommand {
  readonly type: 'measure';
  readonly first: number;
  readonly last: number;
  readonly record: boolean;
}
