import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Delta, DeltaBatch } from '../store/delta.js';
import { dedupDeltaList } from '../store/deltaRules.js';

/**
 * Collapses repeated deltas of the same type within each key of a batch.
 *
 * <span class="informal">A burst of `Updated` for one key reaches the store, and its handlers, as
 * one `update(cached, latest)`.</span>
 *
 * ```text
 * source:  --x-------y----|     x = {a:[U1,U2,U3], b:[A,U1]}   y = {c:[D(tombstone),D(final)]}
 * dedupDeltas()
 * result:  --x'------y'---|     x' = {a:[U3], b:[A,U1]}        y' = {c:[D(final)]}
 * ```
 *
 * Within one key, when a delta has the same type as the one just before it, the two collapse into
 * the newer; for two `Deleted`, the one carrying a full object beats a tombstone. Different types
 * are never merged. This replaces client-go's delete-only rule (semantics.md R14): the seed of this
 * project asks for it so bursts do not turn into callback storms.
 *
 * A batch in which nothing collapses is passed on as the same reference.
 *
 * ## Example
 * ```ts
 * import { of } from 'rxjs';
 * import { dedupDeltas, type DeltaBatch } from 'rx-informer';
 *
 * const v = (rv: string) => ({ metadata: { name: 'a', resourceVersion: rv } });
 * const batch: DeltaBatch<ReturnType<typeof v>> = {
 *   deltas: new Map([['a', [{ type: 'Updated', key: 'a', object: v('1') }, { type: 'Updated', key: 'a', object: v('2') }]]]),
 * };
 * of(batch).pipe(dedupDeltas()).subscribe((b) => console.log(b.deltas.get('a')?.map((d) => d.type === 'Updated' && d.object.metadata.resourceVersion)));
 * // Logs:
 * // [ '2' ]
 * ```
 *
 * @returns an operator on {@link DeltaBatch}es.
 * @see dedupDeltaList for the rule on one key, as a pure function.
 */
export function dedupDeltas<T>(): MonoTypeOperatorFunction<DeltaBatch<T>> {
  return map((batch) => {
    let deltas: Map<string, readonly Delta<T>[]> | undefined;
    for (const [key, list] of batch.deltas) {
      const collapsed = dedupDeltaList(list);
      if (collapsed !== list) (deltas ??= new Map(batch.deltas)).set(key, collapsed);
    }
    return deltas === undefined ? batch : { ...batch, deltas };
  });
}
