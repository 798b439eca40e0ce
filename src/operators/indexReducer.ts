import type { OperatorFunction } from 'rxjs';
import { applyBatch, type StoreUpdate } from '../store/applyBatch.js';
import type { DeltaBatch } from '../store/delta.js';
import type { Indexers } from '../store/indexFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import { emptySnapshot, type Snapshot } from '../store/snapshot.js';
import { operate } from './operate.js';
import { argumentError } from '../options/optionChecks.js';

/** Options of {@link indexReducer}. */
export interface IndexReducerConfig<T extends KubeObject> {
  /** Index functions by name, maintained incrementally on every write. */
  readonly indexers?: Indexers<T>;
  /** The snapshot to start from; an empty, unsynced one by default. Its index names must match. */
  readonly initial?: Snapshot<T>;
}

/** @internal The names of `indexers`, after checking each is a function. Shared with toStore. */
export function indexNamesOf<T>(indexers: Indexers<T>): string[] {
  for (const [name, indexFunc] of Object.entries(indexers)) {
    if (typeof indexFunc !== 'function') throw argumentError('indexReducer', `indexer "${name}" is not a function`);
  }
  return Object.keys(indexers);
}

/**
 * Applies batches of deltas to an immutable, indexed snapshot and emits the new snapshot with the
 * notifications the batch produced.
 *
 * <span class="informal">`scan` over {@link applyBatch}: the store of the informer.</span>
 *
 * ```text
 * source:  --x-----y-------z--|    x = {a:[Replaced], b:[Replaced], listed}  y = {a:[Updated]}  z = {}
 * indexReducer()
 * result:  --X-----Y-------Z--|    X = {snapshot S1 (a,b; synced), changes [add a, add b]}
 *                                  Y = {snapshot S2, changes [update a]}
 *                                  Z = {snapshot S2 (same reference), changes []}
 * ```
 *
 * - Each batch is applied atomically; the snapshot of an emission contains all of its changes, so a
 *   consumer reading the snapshot when told of a change sees that change.
 * - A batch that changes nothing emits the same snapshot reference.
 * - `synced` flips once, with the first batch that holds a complete list.
 * - An index function that throws is isolated: the object is left out of that index and the error
 *   is in the emission's `errors`; nothing is thrown into the source.
 *
 * ## Example
 * ```ts
 * import { of } from 'rxjs';
 * import { indexReducer, byNamespace } from 'rx-informer';
 *
 * const pod = { metadata: { namespace: 'web', name: 'p1', resourceVersion: '7' } };
 * of({ deltas: new Map([['web/p1', [{ type: 'Replaced' as const, key: 'web/p1', object: pod }]]]), resourceVersion: '7', listed: true })
 *   .pipe(indexReducer({ indexers: { namespace: byNamespace } }))
 *   .subscribe(({ snapshot, changes }) => console.log(snapshot.indexKeys('namespace', 'web'), changes[0]?.type));
 * // Logs:
 * // [ 'web/p1' ] add
 * ```
 *
 * @param config index functions and starting snapshot.
 * @returns an operator from {@link DeltaBatch}es to {@link StoreUpdate}s.
 */
export function indexReducer<T extends KubeObject>(config: IndexReducerConfig<T> = {}): OperatorFunction<DeltaBatch<T>, StoreUpdate<T>> {
  const indexers = config.indexers ?? {};
  const names = indexNamesOf(indexers);
  const initial = config.initial ?? emptySnapshot<T>(names);
  // Without a given initial snapshot each subscription starts from a fresh empty one, so a
  // long-lived operator does not keep the first version of every run (and what follows it) alive.
  const start = (): Snapshot<T> => config.initial ?? emptySnapshot<T>(names);
  if (initial.indexNames.join('\0') !== names.join('\0')) {
    throw argumentError('indexReducer', `initial snapshot has indexes [${initial.indexNames.join(', ')}], indexers are [${names.join(', ')}]`);
  }

  return operate<DeltaBatch<T>, StoreUpdate<T>>((subscriber) => {
    let snapshot = start();
    return {
      next(batch) {
        const update = applyBatch(snapshot, batch, indexers);
        snapshot = update.snapshot;
        subscriber.next(update);
      },
    };
  });
}
