/**
 * The rules of the delta queue, as pure functions: how a key's pending deltas collapse, what a
 * relist queues, what a resync queues, and which resourceVersion a batch carries.
 *
 * Both forms of the informer's store stage call these and nothing else for these decisions: the
 * standalone operators (`toDeltas`, `bufferByKey`, `dedupDeltas`, `resync`) and the fused stage
 * that `informer()` runs. So the two cannot drift apart; a property test holds their outputs equal.
 */
import type { Frozen } from './frozen.js';
import { isMarker, isTombstone, tombstone, type Delta, type DeltaEvent } from './delta.js';
import { resourceVersionOf } from './resourceVersionOf.js';

/**
 * Appends `delta` to one key's pending deltas (oldest first), collapsing it with the last one when
 * both have the same type: the newer wins, except that of two `Deleted` the one with a full object
 * beats a tombstone. Deltas of different types never merge (`Added, Updated` stays two). This is
 * this project's dedup rule (docs/semantics.md R14, which it widens from client-go's deletes-only).
 *
 * @param pending one key's deltas; changed in place.
 * @param delta the newer delta.
 */
export function appendDelta<T>(pending: Delta<T>[], delta: Delta<T>): void {
  const last = pending[pending.length - 1];
  if (last === undefined || last.type !== delta.type) pending.push(delta);
  else if (!(delta.type === 'Deleted' && isTombstone(delta.object) && !isTombstone(last.object))) pending[pending.length - 1] = delta;
}

/**
 * {@link appendDelta}'s rule over a whole list of one key's deltas.
 *
 * @param deltas one key's deltas, oldest first.
 * @returns the collapsed deltas; the same array when nothing collapsed.
 */
export function dedupDeltaList<T>(deltas: readonly Delta<T>[]): readonly Delta<T>[] {
  let collapsible = false;
  for (let i = 1; i < deltas.length && !collapsible; i++) collapsible = deltas[i]!.type === deltas[i - 1]!.type;
  if (!collapsible) return deltas;
  const result: Delta<T>[] = [];
  for (const delta of deltas) appendDelta(result, delta);
  return result;
}

/**
 * The resourceVersion of a batch after one more event (R28): a `Listed` or `Bookmark` marker's own;
 * an object's, when it has one; otherwise unchanged (a tombstone, an object without one, and what a
 * resync queues: the `Resync` marker and `Sync` deltas, which re-deliver cached objects and say
 * nothing new about the collection).
 *
 * @param current the batch's resourceVersion so far, if any.
 * @param event the event joining the batch.
 */
export function batchResourceVersion<T>(current: string | undefined, event: DeltaEvent<T>): string | undefined {
  if (isMarker(event)) return event.type === 'Resync' ? current : event.resourceVersion;
  if (event.type === 'Sync' || isTombstone(event.object)) return current;
  return resourceVersionOf(event.object) ?? current;
}

/**
 * What a completed (re)list queues (R16): `Replaced` for every listed object in list order, then a
 * `Deleted` tombstone carrying the last known object for every known key the list no longer has,
 * in the order `known` yields them.
 *
 * @param listed `[key, object]` of every listed item, in list order (a key listed twice is queued twice).
 * @param inList whether a key is in the list.
 * @param known every key the store holds or has queued, with its latest object.
 */
export function relistDeltas<T>(
  listed: Iterable<readonly [string, Frozen<T>]>,
  inList: { has(key: string): boolean },
  known: Iterable<readonly [string, Frozen<T>]>,
): Delta<T>[] {
  const deltas: Delta<T>[] = [];
  for (const [key, object] of listed) deltas.push({ type: 'Replaced', key, object });
  for (const [key, object] of known) if (!inList.has(key)) deltas.push({ type: 'Deleted', key, object: tombstone(key, object) });
  return deltas;
}

/**
 * What a resync tick queues (R17): a `Resync` marker, then `Sync` with the cached object, unchanged
 * and untransformed (R18), for every known key. The marker comes even when nothing is known, so
 * that handlers are re-flagged at every tick (R23).
 *
 * @param known every known key with its latest object.
 */
export function resyncEvents<T>(known: Iterable<readonly [string, Frozen<T>]>): DeltaEvent<T>[] {
  const events: DeltaEvent<T>[] = [{ type: 'Resync' }];
  for (const [key, object] of known) events.push({ type: 'Sync', key, object });
  return events;
}

/**
 * R17, the queue's side of a resync: a `Sync` for a key that has deltas queued is dropped, since
 * the object it carries is already out of date and the queued deltas bring the key up to date.
 *
 * @param pending the keys with queued deltas in the open batch.
 * @param delta the delta about to join it.
 */
export function skipsResync<T>(pending: { has(key: string): boolean }, delta: Delta<T>): boolean {
  return delta.type === 'Sync' && pending.has(delta.key);
}
