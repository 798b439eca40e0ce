/**
 * The soak's checks over the processes' logs (pure functions, so each can be tested on a made-up
 * log): runs of one set by two replicas at once, cleanups per guarded deletion, memory flatness.
 */
import type { LogLine } from './logs.js';

export interface Overlap {
  readonly key: string;
  readonly a: string;
  readonly b: string;
  readonly at: number;
}

/**
 * Runs of one key that overlapped in time across replicas. A run is `start` … `end` of one replica;
 * a replica that died mid-run (`deaths`: replica → time of its SIGKILL) ends its open runs then.
 */
export function overlappingRuns(lines: readonly LogLine[], deaths: ReadonlyMap<string, number>, endOfRun: number): Overlap[] {
  const open = new Map<string, number>(); // replica\0key → start
  const runs = new Map<string, Array<{ replica: string; from: number; to: number }>>();
  const close = (replica: string, key: string, to: number): void => {
    const id = `${replica}\0${key}`;
    const from = open.get(id);
    if (from === undefined) return;
    open.delete(id);
    const list = runs.get(key) ?? [];
    list.push({ replica, from, to });
    runs.set(key, list);
  };
  for (const line of lines) {
    if (line.event === 'start') open.set(`${line.replica}\0${String(line.key)}`, line.at);
    else if (line.event === 'end') close(line.replica, String(line.key), line.at);
  }
  for (const id of [...open.keys()]) {
    const [replica, key] = id.split('\0') as [string, string];
    close(replica, key, deaths.get(replica) ?? endOfRun);
  }
  const overlaps: Overlap[] = [];
  for (const [key, list] of runs) {
    list.sort((x, y) => x.from - y.from);
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length && list[j]!.from < list[i]!.to; j++) {
        if (list[j]!.replica !== list[i]!.replica) overlaps.push({ key, a: list[i]!.replica, b: list[j]!.replica, at: list[j]!.from });
      }
    }
  }
  return overlaps;
}

export interface CleanupCount {
  /** Guarded deletions whose cleanup ran once. */
  readonly once: number;
  /** Guarded deletions whose cleanup never ran. */
  readonly missing: readonly string[];
  /** Cleanups run again by the same replica within one term of leadership: a defect. */
  readonly repeatedInTerm: readonly string[];
  /**
   * Cleanups run again in a later term or by another replica: the term that ran it ended before
   * the finalizer's removal was written (killed, cut off, or its lease lost), so the next leader
   * had to run it again — a finalizer's cleanup is at least once across processes, as in
   * Kubernetes.
   */
  readonly repeatedAfterHandover: readonly string[];
  /** Cleanups of sets the writer never deleted. */
  readonly unexpected: readonly string[];
}

/** Counts cleanups per guarded deletion, telling a repeat within one term from one after a handover. */
export function cleanupCounts(lines: readonly LogLine[]): CleanupCount {
  const deleted = new Set(lines.filter((l) => l.event === 'setDeleted').map((l) => String(l.key)));
  const unsure = new Set(lines.filter((l) => l.event === 'setDeleteUnsure').map((l) => String(l.key)));
  const terms = new Map<string, number>(); // replica → terms begun so far
  const cleaned = new Map<string, string[]>(); // key → the term of each cleanup
  for (const line of lines) {
    if (line.event === 'leadership' && line['state'] === 'leading') terms.set(line.replica, (terms.get(line.replica) ?? 0) + 1);
    if (line.event !== 'cleanup') continue;
    const key = String(line.key);
    cleaned.set(key, [...(cleaned.get(key) ?? []), `${line.replica}#${terms.get(line.replica) ?? 0}`]);
  }
  const repeated = [...cleaned].filter(([, inTerms]) => inTerms.length > 1);
  return {
    once: [...deleted].filter((key) => cleaned.get(key)?.length === 1).length,
    missing: [...deleted].filter((key) => !cleaned.has(key)),
    repeatedInTerm: repeated.filter(([, inTerms]) => new Set(inTerms).size < inTerms.length).map(([key]) => key),
    repeatedAfterHandover: repeated.filter(([, inTerms]) => new Set(inTerms).size === inTerms.length).map(([key]) => key),
    unexpected: [...cleaned.keys()].filter((key) => !deleted.has(key) && !unsure.has(key)),
  };
}

/**
 * Whether heap stays within ±`tolerance` between checkpoints after warm-up: the median of each
 * checkpoint window of samples is compared with the first window's.
 */
export function heapFlatness(samples: ReadonlyArray<{ at: number; heapUsed: number }>, warmUpUntil: number, windowMs: number, tolerance = 0.1): { flat: boolean; windows: number[]; worst: number } {
  const after = samples.filter((s) => s.at >= warmUpUntil);
  const windows: number[] = [];
  for (let from = warmUpUntil; ; from += windowMs) {
    const inWindow = after.filter((s) => s.at >= from && s.at < from + windowMs).map((s) => s.heapUsed).sort((a, b) => a - b);
    if (inWindow.length === 0) break;
    windows.push(inWindow[Math.floor(inWindow.length / 2)]!);
  }
  const base = windows[0] ?? 0;
  const worst = windows.reduce((w, x) => Math.max(w, Math.abs(x / base - 1)), 0);
  return { flat: windows.length > 0 && worst <= tolerance, windows, worst };
}

/** p50 and max of a list of durations (ms). */
export function spread(values: readonly number[]): { n: number; p50: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : NaN, max: sorted.length ? sorted.at(-1)! : NaN };
}
