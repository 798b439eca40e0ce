import type { KubeObject, Snapshot } from 'rx-informer';
import type { Column } from './column.js';
import type { TableRow } from './renderTable.js';
import { deletedKeptMs, type RecentChange } from './watchState.js';

/** Options of {@link tableRows}. */
export interface TableRowsConfig {
  /** Every column, NAMESPACE and NAME included (see `columnsFor`). */
  readonly columns: readonly Column[];
  readonly now: number;
  /** At most this many rows (default: all). */
  readonly limit?: number;
  /** Live changes, oldest first: shown first, newest on top. Without it, rows are sorted by key. */
  readonly recent?: ReadonlyMap<string, RecentChange>;
  /** How long a change stays highlighted, in ms (default 1 500). */
  readonly highlightMs?: number;
}

/** The headers that go with {@link tableRows}. */
export function tableHeaders(columns: readonly Column[]): string[] {
  return columns.map((c) => c.header);
}

/**
 * The cells of one object's row; a column that throws shows `<error>`.
 *
 * @param object the object.
 * @param columns the columns.
 * @param now for the ages.
 */
export function rowCells(object: KubeObject, columns: readonly Column[], now: number): string[] {
  return columns.map((column) => {
    try {
      return column.value(object, now);
    } catch {
      return '<error>';
    }
  });
}

/**
 * The rows of the table: with `recent`, the most recently changed objects first (a deleted one
 * stays for a few seconds, marked), then the rest by key; without it, every object by key.
 *
 * @param snapshot the cache.
 * @param config columns, limit, time and recent changes.
 */
export function tableRows(snapshot: Snapshot<KubeObject>, config: TableRowsConfig): TableRow[] {
  const { columns, now, limit = Infinity, recent, highlightMs = 1500 } = config;
  const rows: TableRow[] = [];
  const shown = new Set<string>();
  const row = (object: KubeObject, mark?: RecentChange['mark']): TableRow => {
    const cells = rowCells(object, columns, now);
    return mark ? { cells, mark } : { cells };
  };
  if (recent) {
    const newestFirst = [...recent].reverse();
    for (const [key, change] of newestFirst) {
      if (rows.length >= limit) break;
      const fresh = now - change.at < highlightMs;
      if (change.mark === 'deleted') {
        if (now - change.at >= deletedKeptMs || !change.object || snapshot.has(key)) continue;
        rows.push(row(change.object, 'deleted'));
      } else {
        const object = snapshot.get(key);
        if (!object) continue;
        rows.push(row(object, fresh ? change.mark : undefined));
      }
      shown.add(key);
    }
  }
  if (rows.length < limit) {
    for (const key of firstKeys(snapshot, limit - rows.length, shown)) rows.push(row(snapshot.get(key)!));
  }
  return rows;
}

/**
 * The `count` smallest keys not in `skip`, in order, without sorting the whole cache: one pass
 * keeping a short sorted list (a frame needs a screenful of 100 000 keys, four times a second).
 */
function firstKeys(snapshot: Snapshot<KubeObject>, count: number, skip: ReadonlySet<string>): string[] {
  if (!Number.isFinite(count)) return [...snapshot.keys()].filter((key) => !skip.has(key)).sort();
  // Enough keys that `count` remain whatever `skip` holds; kept per snapshot, as frames repeat.
  const needed = count + skip.size;
  let first = smallest.get(snapshot);
  if (!first || (first.length < needed && first.length < snapshot.size)) smallest.set(snapshot, (first = smallestKeys(snapshot, needed)));
  return first.filter((key) => !skip.has(key)).slice(0, count);
}

const smallest = new WeakMap<Snapshot<KubeObject>, string[]>();

function smallestKeys(snapshot: Snapshot<KubeObject>, count: number): string[] {
  const best: string[] = [];
  for (const key of snapshot.keys()) {
    if (best.length >= count && key >= best[best.length - 1]!) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (best[mid]! < key) low = mid + 1;
      else high = mid;
    }
    best.splice(low, 0, key);
    if (best.length > count) best.pop();
  }
  return best;
}
