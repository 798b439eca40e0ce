import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { ListWatchStatus, RelistReason } from '../sources/reflector/listWatchStatus.js';
import type { RawEvent } from '../sources/rawEvent.js';
import type { StoreUpdate } from '../store/applyBatch.js';
import type { KubeObject } from '../store/kubeObject.js';

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
  /** Relists, by reason. */
  readonly relists: number;
  readonly relistReasons: Readonly<Partial<Record<RelistReason, number>>>;
  /** Backoff waits, and errors reported by the source. */
  readonly backoffs: number;
  readonly errors: number;
  readonly lastError?: string;
  /** Raw watch events by type. */
  readonly events: { readonly added: number; readonly modified: number; readonly deleted: number; readonly bookmarks: number };
  /** Notifications delivered by the informer, by kind (`sync` = resync or unchanged relist updates). */
  readonly notifications: { readonly add: number; readonly update: number; readonly sync: number; readonly delete: number };
  /** Cached objects, and whether the first list has been applied. */
  readonly objects: number;
  readonly synced: boolean;
  /** Time from the collector's creation (or first list) to the first synced snapshot, ms. */
  readonly syncDurationMs?: number;
  /** Time since the last byte-level event (watch event, bookmark or list page), ms. */
  readonly lastEventAgeMs?: number;
  /** Reconcile runs by result, failures being the retries scheduled, and the queue depth after the last run. */
  readonly reconciles: { readonly successes: number; readonly failures: number; readonly queueDepth: number };
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
 * `onStatus`, a `tap` on raw events, the informer's `onUpdate`, and reconcile outcomes.
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
 * const source = listWatch(kubeConfig, { version: 'v1', plural: 'pods' }, { onStatus: metrics.onStatus }).pipe(tap((event) => metrics.onEvent(event)));
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
  /** Pass as the informer's `onUpdate`. */
  readonly onUpdate: (update: StoreUpdate<KubeObject>) => void;
  /** `tap` it on the output of `reconcile()`. */
  readonly onReconcile: (outcome: ReconcileOutcomeReading) => void;
  /** The current reading. */
  read(): InformerMetrics;
}

/**
 * Creates an {@link InformerMetricsCollector}.
 *
 * @param options the clock for ages and durations (`asyncScheduler` by default).
 */
export function informerMetrics(options: { readonly scheduler?: SchedulerLike } = {}): InformerMetricsCollector {
  const clock = options.scheduler ?? asyncScheduler;
  const startedAt = clock.now();
  let firstListAt: number | undefined;
  let lastEventAt: number | undefined;
  let syncDurationMs: number | undefined;
  let lastError: string | undefined;
  let objects = 0;
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
      }
    },
    onEvent(event) {
      if (event.type === 'STATUS') return; // counted through onStatus; not a byte from the server
      lastEventAt = clock.now();
      if (event.type === 'ADDED') events.added++;
      else if (event.type === 'MODIFIED') events.modified++;
      else if (event.type === 'DELETED') events.deleted++;
      else if (event.type === 'BOOKMARK') events.bookmarks++;
    },
    onUpdate(update) {
      objects = update.snapshot.size;
      if (update.snapshot.synced && !synced) {
        synced = true;
        syncDurationMs = clock.now() - (firstListAt ?? startedAt);
      }
      for (const change of update.changes) {
        if (change.type === 'update') notifications[change.sync ? 'sync' : 'update']++;
        else notifications[change.type]++;
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
        synced,
        ...(syncDurationMs !== undefined ? { syncDurationMs } : {}),
        ...(lastEventAt !== undefined ? { lastEventAgeMs: clock.now() - lastEventAt } : {}),
        reconciles: { ...reconciles },
      });
    },
  };
}
