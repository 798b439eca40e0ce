import { deepFreeze } from './internal/deepFreeze.js';
import { freezeShared } from './internal/freezeShared.js';
import { internStrings } from './internal/internStrings.js';
import { editTrie, emptyTrie, type HashTrie, type TrieEditor } from './internal/hashTrie.js';
import { adoptVersionedMap, editVersionedMap, type VersionedMap } from './internal/versionedMap.js';
import type { Delta, DeltaBatch, Tombstone } from './delta.js';
import { type IndexFunc, type Indexers } from './indexFunc.js';
import { aliasOf } from './keyFunc.js';
import { indexFuncError, type InformerError } from '../errors.js';
import type { Frozen } from './frozen.js';
import type { KubeObject } from './kubeObject.js';
import type { Notification } from './notification.js';
import { resourceVersionOf } from './resourceVersionOf.js';
import { snapshotOf, stateOf, type Snapshot, type SnapshotState } from './snapshot.js';
import { argumentError } from '../options/optionChecks.js';

/** What applying one batch produced. */
export interface StoreUpdate<T extends KubeObject = KubeObject> {
  /** The cache after the batch; the same reference as before when the batch changed nothing. */
  readonly snapshot: Snapshot<T>;
  /** One notification per applied delta, in batch order; each is contained in `snapshot`. */
  readonly changes: readonly Notification<T>[];
  /** Index functions that failed while applying the batch (the store kept working). */
  readonly errors: readonly InformerError[];
  /** Set when the batch came from a resync timer (its updates are the periodic re-deliveries). */
  readonly resync?: true;
}

const NO_ERRORS: readonly InformerError[] = Object.freeze([]);

/**
 * Applies a batch of deltas to a snapshot: the store transition of the informer (client-go's
 * `processDeltas` + `Indexer`), as a pure function.
 *
 * For each key in batch order, each delta oldest first (R21): `Added`, `Updated`, `Replaced` and
 * `Sync` store the object and notify `update(old, new)` when the key was cached, `add(new,
 * isInInitialList)` otherwise, `isInInitialList` being true only for the objects of the first list
 * (R19); `Deleted` removes the key and always notifies `delete`. Indexes
 * are maintained incrementally (R26). The resourceVersion becomes the batch's (R28); `synced`
 * becomes true with the first listed batch. Objects entering the store are deeply frozen (their
 * metadata strings that repeat across objects, such as label values, kept once), and a new
 * version of a cached object shares every part equal to the old version's (the parts it takes over
 * are the old version's objects: unchanged parts keep their identity from one version to the next).
 *
 * The cost follows the batch, not the store: objects live in a versioned map (a `Map` for the
 * newest snapshot, undo records for older ones) and indexes in persistent tries.
 *
 * @param snapshot the cache before the batch; must carry the same index names as `indexers`.
 * @param batch the deltas to apply.
 * @param indexers the index functions, by name.
 * @returns the new snapshot, the notifications and any index-function failures.
 */
export function applyBatch<T extends KubeObject>(snapshot: Snapshot<T>, batch: DeltaBatch<T>, indexers: Indexers<T> = {}): StoreUpdate<T> {
  const state = stateOf(snapshot);
  // R19: only the objects of the first list are initial. A list's objects arrive as `Replaced`;
  // watch events sharing its batch (the same burst, or the same window) are `Added`/`Updated`.
  const initial = !state.synced;
  const items = editVersionedMap(state.items);
  const indexes = state.indexNames.map((name, position) => indexWriter(state.indexes[position]!, name, indexers[name]!));
  const names = nameWriter<T>(state.names);
  const changes: Notification<T>[] = [];
  const errors: InformerError[] = [];

  for (const [key, deltas] of batch.deltas) {
    for (const delta of deltas) applyDelta(key, delta);
  }

  function applyDelta(key: string, delta: Delta<T>): void {
    if (delta.type === 'Deleted') {
      const old = items.delete(key);
      if (old !== undefined) {
        for (const index of indexes) index.update(key, old, undefined, errors);
        names.update(key, old, undefined);
      }
      changes.push(Object.freeze({ type: 'delete', key, object: deepFreeze(delta.object) as Frozen<T> | Tombstone<T> }));
      return;
    }
    const old = items.get(key);
    const object = prepareForStore(delta.object, old);
    items.set(key, object, old);
    names.update(key, old, object);
    if (old === undefined) {
      for (const index of indexes) index.update(key, undefined, object, errors);
      changes.push(Object.freeze({ type: 'add', key, object, isInInitialList: initial && delta.type === 'Replaced' }));
    } else {
      if (old !== object) for (const index of indexes) index.update(key, old, object, errors);
      const oldRV = resourceVersionOf(old);
      changes.push(Object.freeze({ type: 'update', key, oldObject: old, object, sync: oldRV !== undefined && oldRV === resourceVersionOf(object) }));
    }
  }

  return storeUpdate(state, items.commit(), indexes, names, changes, errors, batch);
}

/**
 * The snapshot after a batch and the update. The snapshot is the same reference when the batch
 * changed nothing (style point 13); it is built directly rather than through an immer draft: one
 * frozen record of six fields, once per batch, where a draft cost ~3 µs of every single-event batch.
 */
function storeUpdate<T extends KubeObject>(
  state: SnapshotState<T>,
  nextItems: VersionedMap<Frozen<T>>,
  indexes: readonly IndexWriter<T>[],
  names: NameWriter<T>,
  changes: Notification<T>[],
  errors: InformerError[],
  batch: Pick<DeltaBatch<T>, 'resourceVersion' | 'listed' | 'resync'>,
): StoreUpdate<T> {
  let nextIndexes = state.indexes;
  if (indexes.length > 0) {
    const committed = indexes.map((index) => index.commit());
    if (committed.some((trie, position) => trie !== state.indexes[position])) nextIndexes = Object.freeze(committed);
  }
  const nextNames = names.commit();
  const resourceVersion = batch.resourceVersion ?? state.resourceVersion;
  const synced = state.synced || batch.listed === true;
  const unchanged =
    nextItems === state.items && nextIndexes === state.indexes && nextNames === state.names && resourceVersion === state.resourceVersion && synced === state.synced;
  const next = unchanged
    ? (state as Snapshot<T> & SnapshotState<T>)
    : snapshotOf<T>({ items: nextItems, indexes: nextIndexes, indexNames: state.indexNames, names: nextNames, resourceVersion, synced });
  return Object.freeze({
    snapshot: next as Snapshot<T>,
    changes: Object.freeze(changes),
    errors: errors.length ? Object.freeze(errors) : NO_ERRORS,
    ...(batch.resync ? { resync: true as const } : {}),
  });
}

/**
 * @internal Makes an object ready to enter the store ahead of the batch that will carry it, as
 * {@link applyBatch} would (takes the one copy of its metadata strings that repeat across objects,
 * shares what it has in common with `previous`, the version the store holds, and deep-freezes it),
 * so a list page can be prepared while the next one is on the wire. An update keeps the unchanged
 * parts of the version it replaces, so only the rest is frozen.
 */
export function prepareForStore<T>(object: T | Frozen<T>, previous?: Frozen<T>): Frozen<T> {
  internStrings(object);
  return freezeShared(object, previous) as Frozen<T>; // frozen once more is frozen: Frozen<Frozen<T>> is Frozen<T>
}

/**
 * @internal What {@link applyBatch} returns for a batch that is exactly one complete list, every
 * item `Replaced` in map order and nothing else, applied to an empty snapshot: computed without the
 * per-item deltas, by taking over `items` as the store's map.
 *
 * @param snapshot an empty snapshot.
 * @param items key → object, in list order; frozen objects. Taken over: the caller must not touch it again.
 * @param resourceVersion the list's resourceVersion.
 * @param indexers the index functions, by name.
 */
export function applyListToEmpty<T extends KubeObject>(snapshot: Snapshot<T>, items: Map<string, Frozen<T>>, resourceVersion: string, indexers: Indexers<T> = {}): StoreUpdate<T> {
  const state = stateOf(snapshot);
  if (snapshot.size !== 0) throw argumentError('applyListToEmpty', 'the snapshot is not empty');
  const isInInitialList = !state.synced;
  const indexes = state.indexNames.map((name, position) => indexWriter(state.indexes[position]!, name, indexers[name]!));
  const names = nameWriter<T>(state.names);
  const changes: Notification<T>[] = new Array(items.size);
  const errors: InformerError[] = [];
  let i = 0;
  for (const [key, object] of items) {
    deepFreeze(object);
    for (const index of indexes) index.update(key, undefined, object, errors);
    names.update(key, undefined, object);
    changes[i++] = Object.freeze({ type: 'add', key, object, isInInitialList });
  }
  return storeUpdate(state, items.size === 0 ? state.items : adoptVersionedMap(items), indexes, names, changes, errors, { resourceVersion, listed: true });
}

interface NameWriter<T> {
  update(key: string, old: Frozen<T> | undefined, next: Frozen<T> | undefined): void;
  commit(): HashTrie<string>;
}

/**
 * Keeps the snapshot's name lookup (default key → key) for objects stored under a key that is not
 * their default one. With the default key function it only compares strings: no editor, no entry.
 */
function nameWriter<T extends KubeObject>(names: HashTrie<string>): NameWriter<T> {
  let editor: TrieEditor<string> | undefined;
  return {
    update(key, old, next) {
      if (old !== undefined && old !== next && (editor !== undefined || names.size !== 0)) {
        const before = aliasOf(key, old);
        if (before !== undefined) {
          editor ??= editTrie(names);
          if (editor.get(before) === key) editor.delete(before);
        }
      }
      const after = next === undefined ? undefined : aliasOf(key, next);
      if (after !== undefined) (editor ??= editTrie(names)).set(after, key);
    },
    commit: () => (editor === undefined ? names : editor.commit()),
  };
}

interface IndexWriter<T> {
  update(key: string, old: Frozen<T> | undefined, next: Frozen<T> | undefined, errors: InformerError[]): void;
  commit(): HashTrie<HashTrie<true>>;
}

function indexWriter<T>(index: HashTrie<HashTrie<true>>, name: string, indexFunc: IndexFunc<T>): IndexWriter<T> {
  const values = editTrie(index);
  const sets = new Map<string, TrieEditor<true>>();

  const valuesOf = (key: string, object: Frozen<T> | undefined, errors: InformerError[] | undefined): readonly string[] => {
    if (object === undefined) return [];
    try {
      const result = indexFunc(object);
      if (!Array.isArray(result) || result.some((value) => typeof value !== 'string')) {
        throw new TypeError(`expected an array of strings, got ${JSON.stringify(result)}`);
      }
      return result;
    } catch (cause) {
      errors?.push(indexFuncError(name, key, cause));
      return [];
    }
  };
  const setOf = (value: string): TrieEditor<true> => {
    let set = sets.get(value);
    if (set === undefined) {
      set = editTrie(values.get(value) ?? emptyTrie<true>());
      sets.set(value, set);
    }
    return set;
  };

  return {
    update(key, old, next, errors) {
      // A failure on the old object was reported when it was stored; report only the new one's.
      const before = valuesOf(key, old, undefined);
      const after = valuesOf(key, next, errors);
      if (before.length === 1 && after.length === 1 && before[0] === after[0]) return;
      for (const value of before) if (!after.includes(value)) setOf(value).delete(key);
      for (const value of after) setOf(value).set(key, true);
    },
    commit() {
      for (const [value, set] of sets) {
        const trie = set.commit();
        if (trie.size === 0) values.delete(value);
        else values.set(value, trie);
      }
      return values.commit();
    },
  };
}
