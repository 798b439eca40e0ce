/**
 * Waits for the control plane to go quiet before a contender of `npm run bench:cluster` starts. A
 * contender that follows another inherits what the apiserver still does for the one before: the Go
 * garbage collector freeing a 145 MB list it has just serialised, the watch cache taking in a burst
 * of 10,000 updates, etcd's compaction. Started at once, the next contender's sync pays for it; the
 * rotation then charges whoever follows the heavy one (rx followed the GET floor in runs 2 and 3).
 * So each contender starts once the apiserver and etcd together have used at most `idleCpuMs` of CPU
 * over the last `windowMs`, or after `maxWaitMs` (said in the result).
 */
import { readFileSync } from 'node:fs';

/** One reading: when (ms, monotonic) and the CPU time the processes had used by then (ms). */
export interface CpuReading {
  readonly at: number;
  readonly cpuMs: number;
}

/** How {@link waitForIdle} judges quiet. */
export interface IdleOptions {
  /** The window over which CPU is counted (default 1,000 ms). */
  readonly windowMs?: number;
  /** CPU the processes may use within the window and still be idle (default 50 ms, 5 % of a core). */
  readonly idleCpuMs?: number;
  /** Gives up after this long (default 30,000 ms). */
  readonly maxWaitMs?: number;
  /** Time between readings (default 250 ms). */
  readonly pollMs?: number;
}

/**
 * Whether the readings (oldest first) show a whole window of quiet: the latest reading and the
 * newest one at least `windowMs` before it differ by at most `idleCpuMs`.
 */
export function isIdle(readings: readonly CpuReading[], windowMs: number, idleCpuMs: number): boolean {
  const last = readings.at(-1);
  if (last === undefined) return false;
  for (let i = readings.length - 2; i >= 0; i--) {
    const earlier = readings[i]!;
    if (last.at - earlier.at >= windowMs) return last.cpuMs - earlier.cpuMs <= idleCpuMs;
  }
  return false;
}

/** CPU time (user + system, ms) a process has used, from /proc (Linux; 100 clock ticks a second). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Waits until `pids` are idle as {@link IdleOptions} says; resolves with the wait and whether quiet came. */
export async function waitForIdle(pids: readonly number[], options: IdleOptions = {}): Promise<{ waitedMs: number; idle: boolean }> {
  const { windowMs = 1_000, idleCpuMs = 50, maxWaitMs = 30_000, pollMs = 250 } = options;
  const start = performance.now();
  const readings: CpuReading[] = [];
  for (;;) {
    const at = performance.now();
    readings.push({ at, cpuMs: pids.reduce((sum, pid) => sum + processCpuMs(pid), 0) });
    if (isIdle(readings, windowMs, idleCpuMs)) return { waitedMs: at - start, idle: true };
    if (at - start >= maxWaitMs) return { waitedMs: at - start, idle: false };
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
