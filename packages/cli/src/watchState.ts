import { isTombstone, type KubeObject, type ListWatchStatus, type Notification } from 'rx-informer';
import type { RowMark } from './renderTable.js';

/** What the watch is doing, for the status line. */
export type WatchPhase =
  | { readonly type: 'resolving' }
  | { readonly type: 'unreachable'; readonly message: string; readonly retryAt: number }
  | { readonly type: 'listing' }
  /** A list has been applied; the watch is not open yet. */
  | { readonly type: 'opening' }
  | { readonly type: 'watching'; readonly resourceVersion: string }
  | { readonly type: 'backingOff'; readonly until: number; readonly attempt: number; readonly next: 'relist' | 'rewatch'; readonly reason: string }
  /** A list after the first sync, from its RELISTING to the applied list; `page` so far. */
  | { readonly type: 'relisting'; readonly reason: string; readonly page: number; readonly items: number };

/** Progress of the current list, from the LISTING statuses. */
export interface ListProgress {
  readonly page: number;
  readonly itemsSoFar: number;
  readonly remainingItemCount: number | undefined;
  readonly startedAt: number;
}

/** A recently changed key: when and how. */
export interface RecentChange {
  readonly at: number;
  readonly mark: Exclude<RowMark, undefined>;
  /** For deletes, the last object (it is gone from the snapshot). */
  readonly object?: KubeObject;
}

/** Everything the screens show besides the snapshot itself. Mutated by {@link WatchState}'s methods only. */
export interface WatchStateView {
  readonly phase: WatchPhase;
  readonly list: ListProgress | undefined;
  /** Time of the first sync, and how long it took from the start of the first list (discovery not counted). */
  readonly syncedAt: number | undefined;
  readonly syncMs: number | undefined;
  /** Pages of the list in progress, or of the last one. */
  readonly pages: number;
  /** Pages of the first list, once synced (0 before). */
  readonly syncPages: number;
  /** Live notifications by type (the initial list's adds and resync updates are not counted). */
  readonly counts: { readonly add: number; readonly update: number; readonly delete: number };
  /** Keys in the order they last changed (oldest first), live events only; deletes expire after {@link deletedKeptMs}. */
  readonly recent: ReadonlyMap<string, RecentChange>;
  /** The latest error from the source or the informer, and when. */
  readonly lastError: { readonly message: string; readonly at: number } | undefined;
  readonly relists: number;
}

/** The state behind the live view, the plain lines and the summary: fed statuses and changes. */
export interface WatchState extends WatchStateView {
  onStatus(status: ListWatchStatus, now: number): void;
  onChange(change: Notification<KubeObject>, now: number): void;
  /** The first list has been applied (also {@link WatchState.onListApplied}). */
  onSynced(now: number): void;
  /** A list (the first or a relist) has been applied to the cache: until the watch opens, the phase is `opening`. */
  onListApplied(): void;
  onError(message: string, now: number): void;
  onUnreachable(message: string, retryAt: number): void;
  /** Live events per second over the last two seconds. */
  rate(now: number): number;
}

const bucketMs = 250;
const rateWindowMs = 2000;
/** How long a deleted row stays on screen, struck through. */
export const deletedKeptMs = 3000;
/** Recent changes kept: far more than a screen shows, few enough to copy every frame. */
const maxRecent = 2000;

/**
 * Creates the watch state, starting at `startedAt` (ms since the epoch).
 *
 * @param startedAt when the command started; the sync time is measured from the first `LISTING`
 *   (what the server took, without discovery), or from here when no list was reported.
 */
export function createWatchState(startedAt: number): WatchState {
  let phase: WatchPhase = { type: 'resolving' };
  let list: ListProgress | undefined;
  let firstListAt: number | undefined;
  let syncedAt: number | undefined;
  let pages = 0;
  let syncPages = 0;
  let relists = 0;
  let lastError: WatchStateView['lastError'];
  const counts = { add: 0, update: 0, delete: 0 };
  const recent = new Map<string, RecentChange>();
  const buckets: Array<{ start: number; n: number }> = [];
  let firstLiveEvent: number | undefined;

  const listApplied = (): void => {
    if (list === undefined && phase.type !== 'listing' && phase.type !== 'relisting') return;
    list = undefined;
    phase = { type: 'opening' };
  };
  const touch = (key: string, change: RecentChange): void => {
    recent.delete(key);
    recent.set(key, change);
    if (recent.size > maxRecent) recent.delete(recent.keys().next().value!);
  };

  return {
    get phase() {
      return phase;
    },
    get list() {
      return list;
    },
    get syncedAt() {
      return syncedAt;
    },
    get syncMs() {
      return syncedAt === undefined ? undefined : syncedAt - (firstListAt ?? startedAt);
    },
    get pages() {
      return pages;
    },
    get syncPages() {
      return syncPages;
    },
    counts,
    recent,
    get lastError() {
      return lastError;
    },
    get relists() {
      return relists;
    },
    onStatus(status, now) {
      switch (status.type) {
        case 'LISTING':
          if (syncedAt === undefined) firstListAt ??= now;
          if (status.page === 0) list = { page: 0, itemsSoFar: 0, remainingItemCount: undefined, startedAt: now };
          else list = { page: status.page, itemsSoFar: status.itemsSoFar, remainingItemCount: status.remainingItemCount, startedAt: list?.startedAt ?? now };
          if (status.page > 0) pages = status.page;
          // After the first sync a list is a relist, whatever started it; before, the first list.
          if (syncedAt === undefined) phase = { type: 'listing' };
          else phase = { type: 'relisting', reason: phase.type === 'relisting' ? phase.reason : 'relist', page: status.page, items: status.itemsSoFar };
          break;
        case 'WATCHING':
          phase = { type: 'watching', resourceVersion: status.resourceVersion };
          list = undefined;
          break;
        case 'BACKING_OFF':
          phase = { type: 'backingOff', until: now + status.delay, attempt: status.attempt, next: status.next, reason: status.cause.message };
          break;
        case 'RELISTING':
          relists++;
          phase = { type: 'relisting', reason: status.reason, page: 0, items: 0 };
          break;
        case 'ERROR':
          lastError = { message: status.error.message, at: now };
          break;
      }
    },
    onChange(change, now) {
      if (change.type === 'add' && change.isInInitialList) return;
      if (change.type === 'update' && change.sync) return;
      counts[change.type]++;
      firstLiveEvent ??= now;
      const start = now - (now % bucketMs);
      const last = buckets[buckets.length - 1];
      if (last?.start === start) last.n++;
      else buckets.push({ start, n: 1 });
      while (buckets.length > 0 && buckets[0]!.start < now - rateWindowMs - bucketMs) buckets.shift();
      for (const [key, old] of recent) {
        if (old.mark !== 'deleted' || now - old.at < deletedKeptMs) break;
        recent.delete(key); // expired deletes at the old end
      }
      if (change.type === 'delete') {
        const object = isTombstone(change.object) ? change.object.object : change.object;
        touch(change.key, { at: now, mark: 'deleted', ...(object ? { object } : {}) });
      } else {
        touch(change.key, { at: now, mark: change.type === 'add' ? 'added' : 'updated' });
      }
    },
    onSynced(now) {
      if (syncedAt !== undefined) return;
      syncedAt = now;
      syncPages = pages;
      listApplied();
    },
    onListApplied: () => listApplied(),
    onError(message, now) {
      lastError = { message, at: now };
    },
    onUnreachable(message, retryAt) {
      phase = { type: 'unreachable', message, retryAt };
    },
    rate(now) {
      if (firstLiveEvent === undefined) return 0;
      const from = now - rateWindowMs;
      const n = buckets.reduce((sum, b) => (b.start + bucketMs > from ? sum + b.n : sum), 0);
      const span = Math.min(rateWindowMs, Math.max(bucketMs, now - firstLiveEvent));
      return (n * 1000) / span;
    },
  };
}
