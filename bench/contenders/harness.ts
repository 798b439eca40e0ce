/**
 * What every Node contender shares: memory readings, the stdout/stdin protocol of bench/core/protocol.ts,
 * and the check of each arriving object against the armed measurement.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createInterface } from 'node:readline';
import { nowMs, SEQ_ANNOTATION, TIME_ANNOTATION, type MeasureCommand } from '../core/protocol.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('contenders run with --expose-gc');

/** Heap used after a full GC, bytes. */
export function heapAfterGC(): number {
  for (let i = 0; i < 3; i++) gc!();
  return process.memoryUsage().heapUsed;
}

export const maxRSS = (): number => process.resourceUsage().maxRSS * 1024;

/** The resident set size now (VmRSS), bytes. */
export const currentRSS = (): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : process.memoryUsage().rss;
};

// BENCH_PROFILE_MEASURE=<dir>: a CPU profile of each measurement alone (from "armed" to "measured"),
// written to <dir>/<BENCH_TAG or pid>-measure<k>.cpuprofile: the per-event cost without the sync in it.
// BENCH_HEAP_PROFILE_MEASURE=<dir>: the same for allocations (V8's sampling heap profiler, one sample
// per 8 KiB allocated, including what was collected since), as <dir>/<tag>-measure<k>.heapprofile.
const profileDir = process.env.BENCH_PROFILE_MEASURE;
const heapProfileDir = process.env.BENCH_HEAP_PROFILE_MEASURE;
let profiler: Session | undefined;
let measurements = 0;
const session = (): Session => {
  if (!profiler) {
    profiler = new Session();
    profiler.connect();
  }
  return profiler;
};
const startProfile = (): void => {
  if (profileDir) {
    session().post('Profiler.enable');
    session().post('Profiler.setSamplingInterval', { interval: 250 });
    session().post('Profiler.start');
  }
  if (heapProfileDir) {
    session().post('HeapProfiler.enable');
    session().post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
};
const stopProfile = (): void => {
  if (!profiler) return;
  const k = measurements++;
  const name = `${process.env.BENCH_TAG ?? process.pid}-measure${k}`;
  if (profileDir) {
    profiler.post('Profiler.stop', (error, result) => {
      if (error) return;
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(`${profileDir}/${name}.cpuprofile`, JSON.stringify(result.profile));
    });
  }
  if (heapProfileDir) {
    profiler.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) return;
      mkdirSync(heapProfileDir, { recursive: true });
      writeFileSync(`${heapProfileDir}/${name}.heapprofile`, JSON.stringify(result.profile));
    });
  }
};

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export const emit = (message: object): void => void process.stdout.write(`${JSON.stringify(message)}\n`);

type Annotated = { metadata?: { annotations?: Readonly<Record<string, string>> | null } } | null | undefined;

/**
 * A contender calls `start` just before it lists, `synced(count)` once its cache holds the list,
 * and `seen(object)` for every object that reaches its cache/callback from the watch.
 */
export function harness(instruments?: { armed(): void; measured(): Record<string, number | undefined> }): { start(): void; synced(count: number): void; seen(object: Annotated): void } {
  const heapBaseline = heapAfterGC();
  let start = 0;
  // The armed measurement: seqs first..last, which of them were seen, CPU time at arming.
  let first = 0;
  let last = -1;
  let left = 0;
  let seenSeqs = new Uint8Array(0);
  let record = false;
  let latencies: number[] = [];
  let cpuAtArm = 0;
  const seen = (object: Annotated): void => {
    if (left === 0) return;
    const annotations = object?.metadata?.annotations;
    const seq = annotations?.[SEQ_ANNOTATION];
    if (seq === undefined) return;
    const i = Number(seq) - first;
    if (!(i >= 0 && i <= last - first) || seenSeqs[i] === 1) return;
    seenSeqs[i] = 1;
    const now = nowMs();
    if (record) latencies.push(now - Number(annotations![TIME_ANNOTATION]));
    if (--left === 0) {
      const cpu = cpuMs() - cpuAtArm;
      stopProfile();
      emit({ type: 'measured', lastSeen: now, cpuMs: cpu, latencies, maxRSS: maxRSS(), ...(instruments ? { instruments: instruments.measured() } : {}) });
    }
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = JSON.parse(line) as MeasureCommand | { type: 'exit' };
    if (command.type === 'exit') process.exit(0);
    heapAfterGC();
    latencies = [];
    record = command.record;
    first = command.first;
    last = command.last;
    left = last - first + 1;
    seenSeqs = new Uint8Array(left);
    instruments?.armed();
    emit({ type: 'armed', rss: currentRSS() });
    startProfile();
    cpuAtArm = cpuMs();
  });
  return {
    start: () => void (start = nowMs()),
    synced(count) {
      const synced = nowMs();
      emit({ type: 'synced', start, synced, count, heapBaseline, heapAfterGC: heapAfterGC(), maxRSS: maxRSS() });
    },
    seen,
  };
}
