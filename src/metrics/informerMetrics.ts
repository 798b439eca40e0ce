import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import type { LatencyHistogram } from './latencyHistogram.js';
import type { LatencyObjective, LatencyObjectiveStatus } from './latencyObjective.js';
import { latencyTracker } from './latencyTracker.js';
import { wallClock } from '../sources/wallClock.js';
import { heapBytesChange } from './heapBytesChange.js';
import { internedPlaces } from '../store/internedPlaces.js';
import type { ListWatchStatus, RelistReason } from '../sources/reflector/listWatchStatus.js';
import type { RawEvent } from '../sources/rawEvent.js';
import type { StoreUpdate } from '../store/applyBatch.js';
import type { KubeObject } from '../store/kubeObject.js';
import { isTombstone } from '../store/delta.js';
import { cacheEntryBytes, estimateHeapBytes } from './estimateHeapBytes.js';

/** A point-in-time reading of an informer's counters (all counts since the collector was created). */
export interface InformerMetrics {
  /** List cycles started (first list and relists; a streaming list counts as one). */
  readonly lists: number;
  /** List pages received. */
  readonly listPages: number;
  /** Watch streams the server accepted. */
  readonly watches: number;
  /** Watches opened after the first: reconnects from the last resourceVersion. */
  readonly watchRestarts: number;
  /** Relists. */
  readonly relists: number;
  /** Relists by reason (a reason that never happened is absent). */
  readonly relistReasons: Readonly<Partial<Record<RelistReason, number>>>;
  /** Backoff waits. */
  readonly backoffs: number;
  /** Errors reported by the source (`ERROR` statuses). */
  readonly errors: number;
  /** The message of the last error the source reported; absent before the first. */
  readonly lastError?: string;
  /** Raw watch events by type. */
  readonly events: {
    /** `ADDED` events. */
    readonly added: number;
    /** `MODIFIED` events. */
    readonly modified: number;
    /** `DELETED` events. */
    readonly deleted: number;
    /** `BOOKMARK` events. */
    readonly bookmarks: number;
  };
  /** Notifications delivered by the informer, by kind. */
  readonly notifications: {
    /** `add` notifications. */
    readonly add: number;
    /** `update` notifications with a new resourceVersion. */
    readonly update: number;
    /** `update` notifications of a resync or an unchanged relisted object (`sync: true`). */
    readonly sync: number;
    /** `delete` notifications. */
    readonly delete: number;
  };
  /** Cached objects, and whether the first list has been applied. */
  readonly objects: number;
  /**
   * An estimate of the heap bytes the cached objects hold: each object's shape costed as V8 lays
   * it out, plus the cache's entry for it, computed once as the object
   * arrives and summed as objects come and go. Within 5 % of the heap measured on the benchmark's
   * ConfigMaps (BENCHMARKS.md); `0` while the informer is not running.
   */
  readonly estimatedBytes: number;
  /** The first list has been applied. */
  readonly synced: boolean;
  /** Time from the collector's creation (or first list) to the first synced snapshot, ms. */
  readonly syncDurationMs?: number;
  /** Time since the last byte-level event (watch event, bookmark or list page), ms. */
  readonly lastEventAgeMs?: number;
  /** Reconcile runs by result, and the queue depth after the last run. */
  readonly reconciles: {
    /** Runs that succeeded. */
    readonly successes: number;
    /** Runs that failed (`error`, retried, or `terminal`). */
    readonly failures: number;
    /** Keys due and waiting for a worker when the last run ended. */
    readonly queueDepth: number;
  };
  /**
   * The pipeline's own latency: from a watch event's arrival on the socket (`receivedAt`) to the
   * delivery of the update that holds it to subscribers. An event that changes nothing (a delete of
   * an unknown key, an object that cannot be keyed) is counted at the next delivery.
   */
  readonly eventLatency: LatencyHistogram;
  /**
   * The watch lag: from the server's write of the object (the newest `metadata.managedFields[].time`)
   * to its delivery. Those times have a resolution of one second, truncated, so each sample reads
   * up to 1 s long (0.5 s on average): lags under a second cannot be told apart, and the figure is
   * for lags of seconds. Objects without managedFields (stripped by `stripManagedFields`, or by a
   * metadata-only source that omits them) are not counted.
   */
  readonly watchLag: LatencyHistogram;
  /** Where the configured latency objective stands now, when there is one. */
  readonly objective?: LatencyObjectiveStatus;
}

/** Options of {@link informerMetrics}. */
export interface InformerMetricsOptions {
  /**
   * The clock for ages, durations and latencies (`asyncScheduler` by default; latencies then use a
   * sub-millisecond wall clock). A source must stamp arrivals on the same clock: give `listWatch()`
   * the same scheduler, or none.
   */
  readonly scheduler?: SchedulerLike;
  /**
   * A latency objective to evaluate over a sliding window, e.g. `{ quantile: 0.95, targetMs: 200,
   * alertMs: 5000, windowMs: 60_000 }`: its state is in `read().objective` and on `objective$`.
   */
  readonly objective?: LatencyObjective;
}

/**
 * What {@link InformerMetricsCollector.onReconcile} reads of a reconcile outcome. Stated here by
 * shape, so that metrics sit below the controller toolkit and do not import it.
 */
export interface ReconcileOutcomeReading {
  /** `success`, or a failure (`error`, `terminal`). */
  readonly result: string;
  /** Keys waiting after the run. */
  readonly queueDepth: number;
  /** The rest of the outcome (key, retries, error…), not read here. */
  readonly [field: string]: unknown;
}

/**
 * Collects {@link InformerMetrics} from the hooks every stage already has: the source's
 * `onStatus`, a `tap` on raw events (and on their end), the informer's `onUpdate`, and reconcile
 * outcomes.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { tap } from 'rxjs';
 * import { informer, informerMetrics, listWatch } from 'rx-informer';
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const metrics = informerMetrics();
 * const source = listWatch(kubeConfig, { version: 'v1', plural: 'pods' }, { onStatus: metrics.onStatus }).pipe(
 *   tap({ next: (event) => metrics.onEvent(event), finalize: () => metrics.onStop() }),
 * );
 * const pods = informer(source, { onUpdate: metrics.onUpdate });
 * pods.changes$.subscribe();
 * setInterval(() => console.log(metrics.read()), 10_000);
 * ```
 */
export interface InformerMetricsCollector {
  /** Pass as the source's `onStatus`. */
  readonly onStatus: (status: ListWatchStatus) => void;
  /** `tap` it on the raw event stream (in-band `STATUS` events are left to `onStatus`). */
  readonly onEvent: (event: RawEvent<unknown>) => void;
  /**
   * Call when a run of the source ends (unsubscribed, `graceMs` expired, an error): `tap` it as the
   * `finalize` of the raw event stream, next to `onEvent`. The events of a batch still open then are
   * dropped with it, so their arrival times are forgotten too; otherwise the next run's first delivery
   * would count the downtime as their latency. (A `FAILED` status on `onStatus` does the same.)
   */
  readonly onStop: () => void;
  /** Pass as the informer's `onUpdate`. */
  readonly onUpdate: <T extends KubeObject>(update: StoreUpdate<T>) => void;
  /** `tap` it on the output of `reconcile()`. */
  readonly onReconcile: (outcome: ReconcileOutcomeReading) => void;
  /**
   * The latency objective's status as it changes (a new state, or the first reading), evaluated
   * at each delivery and as the window moves on (every twentieth of it, on the scheduler, while
   * subscribed). Replays the latest to a late subscriber. Without an objective it never emits.
   */
  readonly objective$: Observable<LatencyObjectiveStatus>;
  /** The current reading. */
  read(): InformerMetrics;
}

/**
 * Creates an {@link InformerMetricsCollector}.
 *
 * The latency half, which has state worth naming (the events not yet delivered, the histograms, the
 * objective's window), is `latencyTracker`; what stays here is a flat record of counters and the
 * hooks that bump them, one `case` or line each, which is why it stays over 80 lines.
 *
 * @param options the clock (`asyncScheduler` by default) and a latency objective.
 */
export function informerMetrics(options: InformerMetricsOptions = {}): InformerMetricsCollector {
  const clock = options.scheduler ?? asyncScheduler;
  const latencyNow = options.scheduler ? () => clock.now() : wallClock;
  const latency = latencyTracker(clock, latencyNow, options.objective);
  const startedAt = clock.now();
  let firstListAt: number | undefined;
  let lastEventAt: number | undefined;
  let syncDurationMs: number | undefined;
  let lastError: string | undefined;
  let objects = 0;
  let estimatedBytes = 0;
  // Each cached key's estimate, so a delete or an update takes back what its add counted (by key:
  // a Map entry rewritten per update, where a WeakMap took a new entry per object version).
  let sizes = new Map<string, number>();
  const sizeOf = (object: object): number => estimateHeapBytes(object, internedPlaces) + cacheEntryBytes;
  let synced = false;
  const count = { lists: 0, listPages: 0, watches: 0, relists: 0, backoffs: 0, errors: 0 };
  const relistReasons: Partial<Record<RelistReason, number>> = {};
  const events = { added: 0, modified: 0, deleted: 0, bookmarks: 0 };
  const notifications = { add: 0, update: 0, sync: 0, delete: 0 };
  const reconciles = { successes: 0, failures: 0, queueDepth: 0 };

  return {
    onStatus(status) {
      switch (status.type) {
        case 'LISTING':
          if (status.page === 0) {
            count.lists++;
            firstListAt ??= clock.now();
          } else if (!status.streaming) count.listPages++;
          return;
        case 'WATCHING':
          count.watches++;
          return;
        case 'RELISTING':
          count.relists++;
          relistReasons[status.reason] = (relistReasons[status.reason] ?? 0) + 1;
          return;
        case 'BACKING_OFF':
          count.backoffs++;
          return;
        case 'ERROR':
          count.errors++;
          lastError = status.error.message;
          return;
        case 'FAILED':
          latency.clear(); // the run ends: its undelivered events will never be delivered
          return;
      }
    },
    onEvent(event) {
      if (event.type === 'STATUS') return; // counted through onStatus; not a byte from the server
      lastEventAt = clock.now();
      if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') {
        events[event.type === 'ADDED' ? 'added' : event.type === 'MODIFIED' ? 'modified' : 'deleted']++;
        latency.arrived(event.receivedAt, event.object);
      } else if (event.type === 'BOOKMARK') events.bookmarks++;
    },
    onStop() {
      latency.clear();
      // The informer drops its cache when it stops.
      objects = 0;
      estimatedBytes = 0;
      sizes = new Map();
    },
    onUpdate(update) {
      latency.delivered();
      objects = update.snapshot.size;
      if (update.snapshot.synced && !synced) {
        synced = true;
        syncDurationMs = clock.now() - (firstListAt ?? startedAt);
      }
      for (const change of update.changes) {
        if (change.type === 'update') {
          notifications[change.sync ? 'sync' : 'update']++;
          if (change.object !== change.oldObject) {
            // The new version shares its unchanged parts with the old one: only the rest is walked.
            const before = sizes.get(change.key) ?? sizeOf(change.oldObject);
            const after = before + heapBytesChange(change.object, change.oldObject, internedPlaces);
            sizes.set(change.key, after);
            estimatedBytes += after - before;
          }
        } else {
          notifications[change.type]++;
          if (change.type === 'add') {
            const size = sizeOf(change.object);
            sizes.set(change.key, size);
            estimatedBytes += size;
          } else {
            const gone = isTombstone(change.object) ? change.object.object : change.object;
            const size = sizes.get(change.key) ?? (gone === undefined ? 0 : sizeOf(gone));
            sizes.delete(change.key);
            estimatedBytes -= size;
          }
        }
      }
      if (objects === 0) {
        estimatedBytes = 0; // a tombstone without its object cannot leave a remainder behind
        sizes.clear();
      }
    },
    onReconcile(outcome) {
      if (outcome.result === 'success') reconciles.successes++;
      else reconciles.failures++;
      reconciles.queueDepth = outcome.queueDepth;
    },
    read() {
      return Object.freeze({
        ...count,
        watchRestarts: Math.max(0, count.watches - 1),
        relistReasons: { ...relistReasons },
        ...(lastError !== undefined ? { lastError } : {}),
        events: { ...events },
        notifications: { ...notifications },
        objects,
        estimatedBytes,
        synced,
        ...(syncDurationMs !== undefined ? { syncDurationMs } : {}),
        ...(lastEventAt !== undefined ? { lastEventAgeMs: clock.now() - lastEventAt } : {}),
        reconciles: { ...reconciles },
        ...latency.read(),
      });
    },
    objective$: latency.objective$,
  };
}
