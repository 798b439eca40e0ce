/** Which rows of a windowed table are drawn (examples/web/windowedTable.ts). */

/** The rows to draw: `[first, end)` of the sorted keys, and where the first one sits. */
export interface RowWindow {
  readonly first: number;
  readonly end: number;
  /** Pixels above the first drawn row. */
  readonly offset: number;
  /** Pixels of the whole table, drawn or not (what the scroll bar measures). */
  readonly height: number;
}

/** Which of `count` rows of `rowHeight` px a viewport of `viewportHeight` px scrolled to `scrollTop` shows, with `overscan` rows around. Pure. */
export function rowWindow(count: number, scrollTop: number, viewportHeight: number, rowHeight: number, overscan = 10): RowWindow {
  const first = Math.max(0, Math.min(count, Math.floor(scrollTop / rowHeight) - overscan));
  const end = Math.min(count, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { first, end, offset: first * rowHeight, height: count * rowHeight };
}
