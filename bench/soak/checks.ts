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

/** One heap sample of a process: when (ms from the soak's start), heap after GC, and the role it had then. */
export interface HeapSample {
  readonly at: number;
  readonly heapUsed: number;
  /** `leading` or `following` for a replica; absent for a process without roles (the informers). */
  readonly role?: string;
  /** When the process took that role (ms from the soak's start); 0 or less for the role it started in or held before the soak began. */
  readonly roleSince?: number;
  /** When the process wrote its first log line (ms from the soak's start; negative for one up before the soak began). */
  readonly startedAt?: number;
}

/**
 * The memory samples of the log, each with the role its process held then and when the process
 * started (its first line): a replica follows from its start and leads from each `leadership` line
 * whose state is `leading` until one that is not. The informers process has no role. Times are ms
 * from `soakStart`.
 */
export function memorySamples(lines: readonly LogLine[], soakStart: number): Array<HeapSample & { process: string; rss: number }> {
  const atStart = { role: 'following', since: 0 };
  const roleOf = new Map<string, { role: string; since: number }>();
  const startedAt = new Map<string, number>();
  return lines.flatMap((l) => {
    if (!startedAt.has(l.replica)) startedAt.set(l.replica, l.at - soakStart);
    if (l.event === 'leadership') {
      const role = l['state'] === 'leading' ? 'leading' : 'following';
      if ((roleOf.get(l.replica) ?? atStart).role !== role) roleOf.set(l.replica, { role, since: l.at - soakStart });
    }
    if (l.event !== 'memory') return [];
    const held = roleOf.get(l.replica) ?? (l.replica === 'informers' ? undefined : atStart);
    return [{ process: l.replica, at: l.at - soakStart, heapUsed: l['heapUsed'] as number, rss: l['rss'] as number, startedAt: startedAt.get(l.replica)!, ...(held ? { role: held.role, roleSince: held.since } : {}) }];
  });
}

/**
 * Whether heap stays within ±`tolerance` between checkpoints after warm-up: the median of each
 * checkpoint window of samples is compared with the first window's, role by role. A replica that
 * takes the lead starts its controller's work (the queue, the write record, the reconcile code) and
 * settles at a level of its own, so a role's windows are compared with that role's first window.
 * A sample counts from the end of the warm-up — for a process started during the soak (a killed
 * replica's replacement), a warm-up after its own start, as a young process has code and caches
 * still to build — and after a change of role only once the process has held the new role for a
 * whole window. A term that leaves something behind still shows: a follower back from a term is
 * held to its first follower window. `windows` holds each role's medians (`all` for samples without
 * a role); a process that never held a role for a window has none.
 */
export function heapFlatness(samples: readonly HeapSample[], warmUpUntil: number, windowMs: number, tolerance = 0.1): { flat: boolean; windows: Record<string, number[]>; worst: number } {
  const warm = (s: HeapSample) => s.at >= warmUpUntil && (s.startedAt === undefined || s.startedAt <= 0 || s.at >= s.startedAt + warmUpUntil);
  const settled = samples.filter((s) => warm(s) && (s.roleSince === undefined || s.roleSince <= 0 || s.at >= s.roleSince + windowMs));
  const windows: Record<string, number[]> = {};
  let worst = 0;
  for (const role of new Set(settled.map((s) => s.role ?? 'all'))) {
    const own = settled.filter((s) => (s.role ?? 'all') === role);
    const last = Math.max(...own.map((s) => s.at));
    const medians: number[] = [];
    for (let from = warmUpUntil; from <= last; from += windowMs) {
      const inWindow = own.filter((s) => s.at >= from && s.at < from + windowMs).map((s) => s.heapUsed).sort((a, b) => a - b);
      if (inWindow.length > 0) medians.push(inWindow[Math.floor(inWindow.length / 2)]!);
    }
    windows[role] = medians;
    worst = medians.reduce((w, x) => Math.max(w, Math.abs(x / medians[0]! - 1)), worst);
  }
  return { flat: Object.keys(windows).length > 0 && worst <= tolerance, windows, worst };
}

/** The soak's heap verdict over every process's samples (ms from the soak's start). */
export interface HeapVerdict {
  /** The informers were judged, and every process judged stayed within tolerance. */
  readonly flat: boolean;
  readonly worst: number;
  /** Each process judged: it lived from the warm-up to the end and held a role for a window. */
  readonly byProcess: Readonly<Record<string, ReturnType<typeof heapFlatness>>>;
  /** Replicas that lived through the run but never held a role for a window (terms won and lost too often): named, not judged. */
  readonly unjudged: readonly string[];
}

/**
 * {@link heapFlatness} for every process that lived from the warm-up to the end of the churn (the
 * informers, and the replicas no fault killed). The informers must be judged; a replica whose role
 * never held for a window is named in `unjudged` instead of failing the run for lack of evidence.
 */
export function heapCheck(samples: ReadonlyArray<HeapSample & { process: string }>, config: { warmUp: number; checkpointMs: number; end: number }): HeapVerdict {
  const { warmUp, checkpointMs, end } = config;
  const survivors = [...new Set(samples.map((s) => s.process))].filter((name) => {
    const own = samples.filter((s) => s.process === name);
    return own.some((s) => s.at <= warmUp + 10_000) && own.some((s) => s.at >= end - 10_000);
  });
  const byProcess: Record<string, ReturnType<typeof heapFlatness>> = {};
  const unjudged: string[] = [];
  for (const name of survivors) {
    const flatness = heapFlatness(samples.filter((s) => s.process === name), warmUp, checkpointMs);
    if (Object.keys(flatness.windows).length === 0 && name !== 'informers') unjudged.push(name);
    else byProcess[name] = flatness;
  }
  const judged = Object.values(byProcess);
  return { flat: byProcess['informers'] !== undefined && judged.every((f) => f.flat), worst: Math.max(0, ...judged.map((f) => f.worst)), byProcess, unjudged };
}

/** p50 and max of a list of durations (ms). */
export function spread(values: readonly number[]): { n: number; p50: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : NaN, max: sorted.length ? sorted.at(-1)! : NaN };
}
