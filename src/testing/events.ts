import type { BookmarkEvent, ListDone, ListPage, ListStart, RawEvent, WatchEvent } from '../sources/rawEvent.js';

/** A watch `ADDED` event. */
export function added<T>(object: T): WatchEvent<T> {
  return { type: 'ADDED', object };
}

/** A watch `MODIFIED` event. */
export function modified<T>(object: T): WatchEvent<T> {
  return { type: 'MODIFIED', object };
}

/** A watch `DELETED` event carrying the final object. */
export function deleted<T>(object: T): WatchEvent<T> {
  return { type: 'DELETED', object };
}

/** A watch `BOOKMARK` at `resourceVersion`. */
export function bookmark(resourceVersion: string, initialEventsEnd?: boolean): BookmarkEvent {
  return initialEventsEnd === undefined ? { type: 'BOOKMARK', resourceVersion } : { type: 'BOOKMARK', resourceVersion, initialEventsEnd };
}

/** The start of a list cycle. */
export function listStart(): ListStart {
  return { type: 'LIST_START' };
}

/** One page of a list; `itemsSoFar` defaults to the page's own length. */
export function listPage<T>(
  items: readonly T[],
  options: {
    /** The page's number within its list cycle, from 1. Default 1. */
    page?: number;
    /** Items of the cycle so far, this page's included. Default: this page's length. */
    itemsSoFar?: number;
    /** The server's estimate of the items after this page. Default: none (the last page). */
    remainingItemCount?: number;
  } = {},
): ListPage<T> {
  const { page = 1, itemsSoFar = items.length, remainingItemCount } = options;
  return remainingItemCount === undefined
    ? { type: 'LIST_PAGE', items, page, itemsSoFar }
    : { type: 'LIST_PAGE', items, page, itemsSoFar, remainingItemCount };
}

/** The end of a list cycle at `resourceVersion`. */
export function listDone(resourceVersion: string): ListDone {
  return { type: 'LIST_DONE', resourceVersion };
}

/**
 * A whole list cycle: `LIST_START`, the items in pages of `pageSize` (one page by default, with
 * `remainingItemCount` on all but the last), `LIST_DONE`. Use it as one marble value with
 * {@link marbleSource}, which emits the array's events in the same frame.
 */
export function listEvents<T>(
  items: readonly T[],
  resourceVersion: string,
  options: {
    /** Items per page (at least 1). Default: all items in one page. */
    pageSize?: number;
  } = {},
): RawEvent<T>[] {
  const pageSize = Math.max(1, options.pageSize ?? Math.max(items.length, 1));
  const events: RawEvent<T>[] = [listStart()];
  for (let start = 0, page = 1; start < items.length; start += pageSize, page++) {
    const end = Math.min(start + pageSize, items.length);
    const remaining = items.length - end;
    events.push(listPage(items.slice(start, end), { page, itemsSoFar: end, ...(remaining > 0 ? { remainingItemCount: remaining } : {}) }));
  }
  events.push(listDone(resourceVersion));
  return events;
}
