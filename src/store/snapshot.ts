import { emptyTrie, trieForEach, trieGet, type HashTrie } from './internal/hashTrie.js';
import { emptyVersionedMap, versionedContents, versionedGet, versionedSize, type VersionedMap } from './internal/versionedMap.js';
import { UnknownIndexError } from '../errors.js';
import { objectKey } from './keyFunc.js';
import type { Frozen } from './frozen.js';
import type { KubeObject } from './kubeObject.js';
import { matchesLabels, parseLabelSelector, type LabelSelector } from './labelSelector.js';
import { argumentError } from '../options/optionChecks.js';

/** Options of {@link Snapshot.list}. */
export interface ListOptions {
  /** Only objects in this namespace. Uses an index named `namespace` when there is one. */
  readonly namespace?: string;
  /** Only objects whose labels match: selector text (`app=web,tier in (a,b)`) or a parsed selector. */
  readonly labelSelector?: string | LabelSelector;
}

/**
 * A snapshot bound to one namespace, as client-go's listers are (`podLister.Pods(ns)`): objects by
 * name, and the namespace's objects matching a label selector. It works whatever the key function;
 * with the default key a lookup is one map lookup, with a custom one two (see {@link Snapshot.inNamespace}).
 */
export interface NamespacedLister<T extends KubeObject = KubeObject> {
  /** The namespace this view is bound to (`""` for cluster-scoped objects). */
  readonly namespace: string;
  /** The object named `name` in this namespace. */
  get(name: string): Frozen<T> | undefined;
  /** Whether an object named `name` is cached in this namespace. */
  has(name: string): boolean;
  /** The objects of this namespace, optionally only those matching a label selector (text or parsed). @throws {LabelSelectorError} */
  list(labelSelector?: string | LabelSelector): readonly Frozen<T>[];
}

/**
 * An immutable, deeply frozen view of the cache at one moment: the objects by key, the indexes, the
 * collection's resourceVersion and whether the first list has been applied.
 *
 * Its objects are typed {@link Frozen}`<T>`: writing to one is a type error, as it is a `TypeError`
 * at run time. To change one, draft it (immer's `produce`, or `editPatch` of `rx-informer/controller`)
 * or take a deep copy (`structuredClone(object) as T`).
 *
 * Snapshots are values: a new one is made for each batch that changes something, unchanged parts are
 * shared with the previous one, and a batch that changes nothing keeps the same reference. `get`,
 * `has` and index lookups on the newest snapshot cost a map lookup (older snapshots stay readable,
 * a little slower). Iteration and `list()` gather the snapshot's objects into an array once, on
 * first use, and reuse it; filtered `list()` calls return a new array.
 */
export interface Snapshot<T extends KubeObject = KubeObject> extends Iterable<Frozen<T>> {
  /** Resource version of the last event applied (opaque; `""` before the first list). */
  readonly resourceVersion: string;
  /** True once the first complete list has been applied; never goes back. */
  readonly synced: boolean;
  /** Number of cached objects. */
  readonly size: number;
  /** Names of the configured indexes. */
  readonly indexNames: readonly string[];
  /** The object under `key` (`namespace/name` or `name` by default). */
  get(key: string): Frozen<T> | undefined;
  /** The object `name` in `namespace` (`""` for cluster-scoped), whatever the key function. */
  get(namespace: string, name: string): Frozen<T> | undefined;
  /** Whether `key` (or `namespace`, `name`) is cached. */
  has(key: string): boolean;
  /** Whether the object `name` in `namespace` (`""` for cluster-scoped) is cached, whatever the key function. */
  has(namespace: string, name: string): boolean;
  /** Iterates the keys (in the same order as `values()`). */
  keys(): IterableIterator<string>;
  /** Iterates the objects. */
  values(): IterableIterator<Frozen<T>>;
  /** Iterates `[key, object]`. */
  entries(): IterableIterator<[string, Frozen<T>]>;
  /** Calls `visit` for every object; stops when it returns `false`. */
  forEach(visit: (object: Frozen<T>, key: string) => boolean | void): void;
  /** The objects, optionally of one namespace and matching a label selector (unfiltered: the same array every call). */
  list(options?: ListOptions): readonly Frozen<T>[];
  /**
   * This snapshot bound to `namespace` (`""` for cluster-scoped objects): `get(name)`,
   * `has(name)`, `list(selector)`, as a controller's lister. Works with a custom key function too:
   * the store notes, for each object whose key is not `namespace/name`, which key it is under
   * (nothing at all with the default key), so a miss is never a scan.
   *
   * ## Example
   * ```ts
   * import type { Informer, KubeObject } from 'rx-informer';
   * declare const pods: Informer<KubeObject>; // assuming: a synced informer
   *
   * const web = pods.snapshot.inNamespace('web');
   * console.log(web.get('frontend-1')?.metadata?.name, web.list('tier=front').length);
   * // Logs: frontend-1 2
   * ```
   */
  inNamespace(namespace: string): NamespacedLister<T>;
  /** The objects whose index `indexName` has `value`. @throws {UnknownIndexError} */
  byIndex(indexName: string, value: string): readonly Frozen<T>[];
  /** The keys (sorted) whose index `indexName` has `value`. @throws {UnknownIndexError} */
  indexKeys(indexName: string, value: string): readonly string[];
  /** The distinct values currently in index `indexName`. @throws {UnknownIndexError} */
  indexValues(indexName: string): readonly string[];
}

/** @internal The data behind a snapshot; written only by the store's reducer. */
export interface SnapshotState<T> {
  readonly items: VersionedMap<Frozen<T>>;
  readonly indexes: readonly HashTrie<HashTrie<true>>[];
  readonly indexNames: readonly string[];
  /** The default key (`namespace/name`) → the key, only for objects stored under another key. */
  readonly names: HashTrie<string>;
  readonly resourceVersion: string;
  readonly synced: boolean;
}

type Impl<T extends KubeObject> = Snapshot<T> & SnapshotState<T>;

function indexOf(self: SnapshotState<unknown>, indexName: string): HashTrie<HashTrie<true>> {
  const position = self.indexNames.indexOf(indexName);
  if (position < 0) throw new UnknownIndexError(indexName, self.indexNames);
  return self.indexes[position]!;
}

function byKeyOrName<T extends KubeObject>(self: SnapshotState<T>, keyOrNamespace: string, name: string | undefined): Frozen<T> | undefined {
  return name === undefined ? versionedGet(self.items, keyOrNamespace) : byName(self, keyOrNamespace, name);
}

/** The object `name` in `namespace`: under its default key, or under the key the name lookup holds. */
function byName<T extends KubeObject>(self: SnapshotState<T>, namespace: string, name: string): Frozen<T> | undefined {
  const key = objectKey(namespace, name);
  const direct = versionedGet(self.items, key);
  if (direct !== undefined && direct.metadata?.name === name && (direct.metadata.namespace ?? '') === namespace) return direct;
  if (self.names.size === 0) return undefined;
  const aliased = trieGet(self.names, key);
  return aliased === undefined ? undefined : versionedGet(self.items, aliased);
}

function namespacedLister<T extends KubeObject>(self: Impl<T>, namespace: string): NamespacedLister<T> {
  if (typeof namespace !== 'string') throw argumentError('inNamespace', `the namespace must be a string, got ${typeof namespace}`);
  return Object.freeze({
    namespace,
    get: (name: string) => byName(self, namespace, name),
    has: (name: string) => byName(self, namespace, name) !== undefined,
    list: (labelSelector?: string | LabelSelector) => self.list(labelSelector === undefined ? { namespace } : { namespace, labelSelector }),
  });
}

function* entriesOf<T>(items: VersionedMap<T>): Generator<[string, T]> {
  const { keys, values } = versionedContents(items);
  for (let i = 0; i < keys.length; i++) yield [keys[i]!, values[i]!];
}

const snapshotMethods = {
  get size(): number {
    return versionedSize((this as unknown as SnapshotState<unknown>).items);
  },
  get<T extends KubeObject>(this: Impl<T>, keyOrNamespace: string, name?: string): Frozen<T> | undefined {
    return byKeyOrName(this, keyOrNamespace, name);
  },
  has<T extends KubeObject>(this: Impl<T>, keyOrNamespace: string, name?: string): boolean {
    return byKeyOrName(this, keyOrNamespace, name) !== undefined;
  },
  inNamespace<T extends KubeObject>(this: Impl<T>, namespace: string): NamespacedLister<T> {
    return namespacedLister(this, namespace);
  },
  entries<T extends KubeObject>(this: Impl<T>): IterableIterator<[string, Frozen<T>]> {
    return entriesOf(this.items);
  },
  keys<T extends KubeObject>(this: Impl<T>): IterableIterator<string> {
    return versionedContents(this.items).keys[Symbol.iterator]();
  },
  values<T extends KubeObject>(this: Impl<T>): IterableIterator<Frozen<T>> {
    return versionedContents(this.items).values[Symbol.iterator]();
  },
  [Symbol.iterator]<T extends KubeObject>(this: Impl<T>): IterableIterator<Frozen<T>> {
    return this.values();
  },
  forEach<T extends KubeObject>(this: Impl<T>, visit: (object: Frozen<T>, key: string) => boolean | void): void {
    const { keys, values } = versionedContents(this.items);
    for (let i = 0; i < keys.length; i++) if (visit(values[i]!, keys[i]!) === false) return;
  },
  list<T extends KubeObject>(this: Impl<T>, options: ListOptions = {}): readonly Frozen<T>[] {
    const { namespace, labelSelector } = options;
    if (namespace === undefined && labelSelector === undefined) return versionedContents(this.items).values;
    const selector: LabelSelector | undefined = typeof labelSelector === 'string' ? parseLabelSelector(labelSelector) : labelSelector;
    const result: Frozen<T>[] = [];
    const consider = (object: Frozen<T>): void => {
      if (namespace !== undefined && (object.metadata?.namespace ?? '') !== namespace) return;
      if (selector !== undefined && !matchesLabels(selector, object.metadata?.labels)) return;
      result.push(object);
    };
    if (namespace !== undefined && this.indexNames.includes('namespace')) {
      for (const object of this.byIndex('namespace', namespace)) consider(object);
    } else {
      for (const object of versionedContents(this.items).values) consider(object);
    }
    return Object.freeze(result);
  },
  byIndex<T extends KubeObject>(this: Impl<T>, indexName: string, value: string): readonly Frozen<T>[] {
    const keys = trieGet(indexOf(this, indexName), value);
    const result: Frozen<T>[] = [];
    if (keys !== undefined) {
      trieForEach(keys, (_, key) => {
        const object = versionedGet(this.items, key);
        if (object !== undefined) result.push(object);
      });
    }
    return Object.freeze(result);
  },
  indexKeys<T extends KubeObject>(this: Impl<T>, indexName: string, value: string): readonly string[] {
    const keys = trieGet(indexOf(this, indexName), value);
    const result: string[] = [];
    if (keys !== undefined) trieForEach(keys, (_, key) => void result.push(key));
    return Object.freeze(result.sort());
  },
  indexValues<T extends KubeObject>(this: Impl<T>, indexName: string): readonly string[] {
    const result: string[] = [];
    trieForEach(indexOf(this, indexName), (_, value) => void result.push(value));
    return Object.freeze(result);
  },
};

/** @internal Wraps state in a frozen snapshot object. */
export function snapshotOf<T extends KubeObject>(state: SnapshotState<T>): Snapshot<T> {
  const snapshot = Object.create(snapshotMethods) as Impl<T>;
  Object.assign(snapshot, state);
  return Object.freeze(snapshot);
}

/**
 * The snapshot of an empty, unsynced cache with the given index names.
 *
 * @param indexNames the names of the indexes the snapshot will carry.
 */
export function emptySnapshot<T extends KubeObject = KubeObject>(indexNames: readonly string[] = []): Snapshot<T> {
  return snapshotOf<T>({
    items: emptyVersionedMap(),
    indexes: Object.freeze(indexNames.map(() => emptyTrie<HashTrie<true>>())),
    indexNames: Object.freeze([...indexNames]),
    names: emptyTrie<string>(),
    resourceVersion: '',
    synced: false,
  });
}

/** @internal The state behind a snapshot made by this module. */
export function stateOf<T extends KubeObject>(snapshot: Snapshot<T>): SnapshotState<T> {
  return snapshot as Impl<T>;
}
