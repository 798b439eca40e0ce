import { isTombstone, type Delta } from './delta.js';

/**
 * Collapses one key's pending deltas: whenever a delta has the same type as the one just before it,
 * the two become one — the newer, except that for two `Deleted` the one carrying a full object beats
 * a tombstone. Deltas of different types are never merged (`Added, Updated` stays two).
 *
 * Returns the same array when nothing collapsed.
 *
 * @param deltas one key's deltas, oldest first.
 */
export function dedupDeltaList<T>(deltas: readonly Delta<T>[]): readonly Delta<T>[] {
  let collapsible = false;
  for (let i = 1; i < deltas.length && !collapsible; i++) collapsible = deltas[i]!.type === deltas[i - 1]!.type;
  if (!collapsible) return deltas;
  const result: Delta<T>[] = [];
  for (const delta of deltas) {
    const last = result[result.length - 1];
    if (last === undefined || last.type !== delta.type) result.push(delta);
    else result[result.length - 1] = newerOf(last, delta);
  }
  return result;
}

function newerOf<T>(older: Delta<T>, newer: Delta<T>): Delta<T> {
  if (newer.type === 'Deleted' && isTombstone(newer.object) && !isTombstone(older.object)) return older;
  return newer;
}
