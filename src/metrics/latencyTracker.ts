import { defer, distinctUntilChanged, map, merge, NEVER, ReplaySubject, share, Subject, timer, type Observable, type SchedulerLike } from 'rxjs';
import { histogramRecorder, type LatencyHistogram } from './latencyHistogram.js';
import { objectiveWindow, type LatencyObjective, type LatencyObjectiveStatus } from './latencyObjective.js';

/**
 * The latency half of {@link informerMetrics}: how long a watch event took from the socket (and from
 * the apiserver's write) to its delivery to subscribers, as histograms and, with an objective, its
 * sliding window. @internal
 */
export interface LatencyTracker {
  /** A watch event arrived: its arrival time (if stamped) and the object, whose write time is read. */
  arrived(receivedAt: number | undefined, object: unknown): void;
  /** A batch was delivered: every event arrived since is timed now. */
  delivered(): void;
  /** The run ended: the events not yet delivered never will be. */
  clear(): void;
  /** The histograms, and the objective's status when there is one. */
  read(): { readonly eventLatency: LatencyHistogram; readonly watchLag: LatencyHistogram; readonly objective?: LatencyObjectiveStatus };
  /** The objective's status as it changes; never emits without an objective. */
  readonly objective$: Observable<LatencyObjectiveStatus>;
}

/**
 * Creates a {@link LatencyTracker} timing on `latencyNow` (the evaluation ticks of the objective's
 * window run on `clock`). @internal
 */
export function latencyTracker(clock: SchedulerLike, latencyNow: () => number, objective: LatencyObjective | undefined): LatencyTracker {
  const window = objective === undefined ? undefined : objectiveWindow(objective);
  const eventLatency = histogramRecorder();
  const watchLag = histogramRecorder();
  // Arrival and write times of the watch events not yet delivered, oldest first.
  const pending = timeQueue();
  const delivered = new Subject<void>();
  return {
    arrived(receivedAt, object) {
      const written = writtenAt(object);
      if (receivedAt !== undefined || written !== undefined) pending.push(receivedAt ?? NaN, written ?? NaN);
    },
    delivered() {
      if (pending.size === 0) return;
      const now = latencyNow();
      pending.drain((receivedAt, written) => {
        if (receivedAt === receivedAt) {
          eventLatency.observe(now - receivedAt);
          if (window?.of === 'pipeline') window.record(now, now - receivedAt);
        }
        if (written === written) {
          watchLag.observe(now - written);
          if (window?.of === 'watchLag') window.record(now, now - written);
        }
      });
      if (window !== undefined) delivered.next();
    },
    clear: () => pending.clear(),
    read: () => ({
      eventLatency: eventLatency.read(),
      watchLag: watchLag.read(),
      ...(window !== undefined ? { objective: window.evaluate(latencyNow()) } : {}),
    }),
    objective$:
      window === undefined
        ? NEVER
        : defer(() => merge(timer(0, window.sliceMs, clock), delivered)).pipe(
            map(() => window.evaluate(latencyNow())),
            distinctUntilChanged((a, b) => a.state === b.state),
            share({ connector: () => new ReplaySubject<LatencyObjectiveStatus>(1), resetOnRefCountZero: true }),
          ),
  };
}

/**
 * The newest `metadata.managedFields[].time` of `object`, epoch ms, if any. It runs for every watch
 * event, so times in the apiserver's own spelling (`2026-12-01T14:00:05Z`: RFC 3339 in UTC, whole
 * seconds, which sorts as text) are compared as strings and only the newest is parsed; any other
 * spelling (an offset, fractions of a second) is parsed to be compared.
 */
function writtenAt(object: unknown): number | undefined {
  const fields = (object as { metadata?: { managedFields?: unknown } } | null)?.metadata?.managedFields;
  if (!Array.isArray(fields)) return undefined;
  let newest: string | undefined;
  for (const entry of fields) {
    const time = (entry as { time?: unknown } | null)?.time;
    if (typeof time !== 'string') continue;
    if (!isCanonicalTime(time)) return newestParsed(fields);
    if (newest === undefined || time > newest) newest = time;
  }
  if (newest === undefined) return undefined;
  const ms = Date.parse(newest);
  return ms === ms ? ms : newestParsed(fields); // shaped like a time but not one (month 13)
}

/** The newest of the `time`s that parse, each parsed: for spellings that do not sort as text. */
function newestParsed(fields: readonly unknown[]): number | undefined {
  let newest: number | undefined;
  for (const entry of fields) {
    const time = (entry as { time?: unknown } | null)?.time;
    if (typeof time !== 'string') continue;
    const ms = Date.parse(time);
    if (ms === ms && (newest === undefined || ms > newest)) newest = ms;
  }
  return newest;
}

/** `YYYY-MM-DDTHH:MM:SSZ`, checked by its separators (Date.parse still validates the one parsed). */
function isCanonicalTime(time: string): boolean {
  return time.length === 20 && time.charCodeAt(19) === 90 /* Z */ && time.charCodeAt(10) === 84 /* T */ && time.charCodeAt(4) === 45 && time.charCodeAt(13) === 58;
}

/**
 * The (arrival, write) time pairs of the events not yet delivered, in one typed array: no allocation
 * per event. It is only ever emptied whole (`drain`), so it is a stack of pairs read in push order:
 * one end, doubled when full and kept at its largest size. `clear` forgets the pairs unread.
 */
function timeQueue() {
  let buffer = new Float64Array(256);
  let length = 0;
  return {
    get size(): number {
      return length / 2;
    },
    push(a: number, b: number): void {
      if (length + 2 > buffer.length) {
        const next = new Float64Array(buffer.length * 2);
        next.set(buffer);
        buffer = next;
      }
      buffer[length++] = a;
      buffer[length++] = b;
    },
    drain(visit: (a: number, b: number) => void): void {
      for (let i = 0; i < length; i += 2) visit(buffer[i]!, buffer[i + 1]!);
      length = 0;
    },
    clear(): void {
      length = 0;
    },
  };
}
