import type { KubeObject, Snapshot } from 'rx-informer';

/** One index's distinct values with how many objects have each, largest first. */
export interface IndexSummary {
  readonly name: string;
  readonly distinct: number;
  /** `[value, count]`, by count descending then value; at most `limit` entries. */
  readonly top: ReadonlyArray<readonly [string, number]>;
}

/**
 * Summarises an index of a snapshot: its distinct values and the objects per value.
 *
 * @param snapshot the cache.
 * @param name the index name (as given to `--index`).
 * @param limit how many values to keep, largest first.
 */
export function indexSummary(snapshot: Snapshot<KubeObject>, name: string, limit = 50): IndexSummary {
  let byName = counts.get(snapshot);
  if (!byName) counts.set(snapshot, (byName = new Map()));
  let counted = byName.get(name);
  if (!counted) {
    // Counted once per snapshot and index: frames redraw the same snapshot several times.
    counted = snapshot.indexValues(name).map((value) => [value, snapshot.indexKeys(name, value).length] as const);
    counted.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    byName.set(name, counted);
  }
  return { name, distinct: counted.length, top: counted.slice(0, limit) };
}

const counts = new WeakMap<Snapshot<KubeObject>, Map<string, Array<readonly [string, number]>>>();

/**
 * One line for an index summary, cut to `width`: `index node (50 values): node-07 112 · node-12 110 · …`.
 */
export function formatIndexSummary(summary: IndexSummary, width = Infinity): string {
  const head = `index ${summary.name} (${summary.distinct.toLocaleString('en-US')} value${summary.distinct === 1 ? '' : 's'})`;
  if (summary.top.length === 0) return `${head}: none yet`;
  let line = `${head}:`;
  for (const [i, [value, count]] of summary.top.entries()) {
    const part = `${i === 0 ? ' ' : ' · '}${value === '' ? '""' : value} ${count.toLocaleString('en-US')}`;
    const more = i < summary.distinct - 1 ? ' · …' : '';
    if (line.length + part.length + more.length > width) return `${line}${i === 0 ? ' ' : ''} · …`.slice(0, width);
    line += part;
  }
  return summary.top.length < summary.distinct ? `${line} · …` : line;
}
