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
 * Runs of one key that overlapped in time, across replicas or within one replica (a run of an
 * earlier leadership term still going when the next term's run of the key began). A run is
 * `start` … `end` of one replica, told apart by its `run` number (the key, in logs without one);
 * a replica that died mid-run (`deaths`: replica → time of its SIGKILL) ends its open runs then.
 */
export function overlappingRuns(lines: readonly LogLine[], deaths: ReadonlyMap<string, number>, endOfRun: number): Overlap[] {
  const open = new Map<string, { key: string; from: number }>(); // replica\0run → its key and start
  const runs = new Map<string, Array<{ replica: string; from: number; to: number }>>();
  const idOf = (line: LogLine): string => `${line.replica}\0${String(line['run'] ?? line.key)}`;
  const close = (id: string, to: number): void => {
    const run = open.get(id);
    if (run === undefined) return;
    open.delete(id);
    const list = runs.get(run.key) ?? [];
    list.push({ replica: id.slice(0, id.indexOf('\0')), from: run.from, to });
    runs.set(run.key, list);
  };
  for (const line of lines) {
    if (line.event === 'start') open.set(idOf(line), { key: String(line.key), from: line.at });
    else if (line.event === 'end') close(idOf(line), line.at);
  }
  for (const id of [...open.keys()]) close(id, deaths.get(id.slice(0, id.indexOf('\0'))) ?? endOfRun);
  const overlaps: Overlap[] = [];
  for (const [key, list] of runs) {
    list.sort((x, y) => x.from - y.from);
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length && list[j]!.from < list[i]!.to; j++) overlaps.push({ key, a: list[i]!.replica, b: list[j]!.replica, at: list[j]!.from });
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
