/**
 * A persistent string-keyed map tuned for one writer that always extends the newest version and
 * readers that mostly read the newest version: the store behind a snapshot's objects.
 *
 * The newest version of a lineage is a plain `Map`, updated in place, so a write costs a `Map.set`
 * plus one undo record and a read of the newest version costs a `Map.get`. Every older version is a
 * node that says how it differs from the next one: for each key changed after it, its value then
 * (or {@link ABSENT}). Reading an old version walks towards the newest until a node knows the key
 * (H. Baker's "shallow binding"; Conchon and Filliâtre use the same idea for persistent arrays).
 * So versions are values: nothing a reader can observe about a version ever changes.
 *
 * Costs:
 * - newest version: get O(1); a batch of k writes O(k), plus one node and one small map;
 * - an old version: get O(changes after it, up to {@link COMPRESS_AFTER} nodes), after which the
 *   read compresses the path (the node absorbs the undo records after it and points at the newest
 *   node, so the next read is O(1) again);
 * - editing an old version (applying a batch to a snapshot that already has a successor, as a pure
 *   function allows) starts a *fork*: a new lineage whose map holds only its own changes and falls
 *   back to the old version for the rest, so it costs O(batch) too. A fork whose own map grows past
 *   half of what it overlays, or a fork of a fork of a fork, is copied into a plain lineage instead;
 * - iteration materializes the version's keys and values once (O(n)) and caches them on the node.
 *
 * Memory: a version that nobody holds is garbage with its undo records. A version that someone
 * holds keeps alive the undo records after it in its lineage, so once a lineage has made more than
 * `2n + REBASE_SLACK` undo records the next batch starts a new lineage from a copy of the map
 * (O(n), amortized O(1) per write) and leaves the old one to whoever still holds its versions. A
 * held version therefore costs a bounded multiple of the map (its lineage, and for a fork the
 * lineages it overlays, at most three deep), never O(changes since).
 *
 * Internal: nothing here is exported from the package.
 */

/** The value of an undo record for a key that did not exist in that version. */
const ABSENT: unique symbol = Symbol('absent');
type Slot<V> = V | typeof ABSENT;

/** Undo-chain steps a read may walk before it compresses the path. */
const COMPRESS_AFTER = 16;
/** Undo records a lineage may make beyond twice its size before the next batch starts a new one. */
const REBASE_SLACK = 1024;
/** Forks stacked on forks before an edit copies instead. */
const MAX_FORK_DEPTH = 3;

/** The mutable state shared by one lineage of versions. */
class Lineage<V> {
  /**
   * The newest version's entries. In a fork, only the keys it changed, {@link ABSENT} for a key it
   * deleted; every other key reads through to `parent`.
   */
  readonly map: Map<string, Slot<V>>;
  /** The (older) version a fork overlays, or `null`. */
  readonly parent: VersionNode<V> | null;
  readonly depth: number;
  /** Undo records made in this lineage so far. */
  records = 0;
  constructor(map: Map<string, Slot<V>>, parent: VersionNode<V> | null = null) {
    this.map = map;
    this.parent = parent;
    this.depth = parent === null ? 0 : parent.lineage_.depth + 1;
  }
  /** The newest version's value of `key`. */
  get(key: string): V | undefined {
    const slot = this.map.get(key);
    if (slot !== undefined) return slot === ABSENT ? undefined : slot;
    return this.parent === null ? undefined : versionedGet(handle(this.parent), key);
  }
}

/**
 * One version of a map: an opaque handle. Not frozen (its links are rewritten as newer versions are
 * made and paths are compressed), but what it contains never changes.
 */
class VersionNode<V> {
  /** Keys changed after this version → their value in it; `null` while this is the newest. */
  undo_: Map<string, Slot<V>> | null = null;
  /** The next newer version; `null` while this is the newest. */
  next_: VersionNode<V> | null = null;
  /** False while a writer is still filling `undo_` (compression must not skip past this node). */
  sealed_ = false;
  /** Materialized contents, built on first iteration. */
  keys_: readonly string[] | undefined = undefined;
  values_: readonly V[] | undefined = undefined;
  constructor(
    readonly lineage_: Lineage<V>,
    public size_: number,
  ) {}
}

/** An immutable string-keyed map (a version); see the module comment. */
export interface VersionedMap<V> {
  /** @internal phantom for variance */
  readonly _v?: V;
}

const node = <V>(map: VersionedMap<V>): VersionNode<V> => map as unknown as VersionNode<V>;
const handle = <V>(version: VersionNode<V>): VersionedMap<V> => version as unknown as VersionedMap<V>;

/** A new, empty map (its own lineage). */
export function emptyVersionedMap<V>(): VersionedMap<V> {
  return handle(new VersionNode<V>(new Lineage(new Map()), 0));
}

/**
 * A new map (its own lineage) holding the entries of `entries`, which it takes over: the caller must
 * never touch that `Map` again. O(1).
 */
export function adoptVersionedMap<V>(entries: Map<string, V>): VersionedMap<V> {
  return handle(new VersionNode<V>(new Lineage<V>(entries), entries.size));
}

/** Number of entries. */
export function versionedSize(map: VersionedMap<unknown>): number {
  return node(map).size_;
}

/** The value under `key`, or `undefined`. */
export function versionedGet<V>(map: VersionedMap<V>, key: string): V | undefined {
  const start = node(map);
  let current = start;
  let steps = 0;
  while (current.next_ !== null) {
    const slot = current.undo_!.get(key);
    if (slot !== undefined) return slot === ABSENT ? undefined : slot;
    current = current.next_;
    steps++;
  }
  if (steps > COMPRESS_AFTER) compress(start);
  return current.lineage_.get(key);
}

/**
 * Makes `version` point past every sealed node after it, absorbing their undo records (the earliest
 * record of a key wins, as a read would find it). Records equal to what the newer node holds are
 * dropped, so the node keeps only its real difference.
 */
function compress<V>(version: VersionNode<V>): void {
  const undo = version.undo_;
  let next = version.next_;
  if (undo === null || next === null || !version.sealed_) return;
  const touched: string[] = [];
  while (next.next_ !== null && next.sealed_) {
    for (const [key, slot] of next.undo_!) {
      if (!undo.has(key)) undo.set(key, slot);
      touched.push(key);
    }
    next = next.next_;
  }
  if (next === version.next_) return;
  version.next_ = next;
  if (next.next_ === null) {
    // Pointing at the newest node: a record of a key changed since that now holds this version's
    // value again says nothing, so drop it (keeps a held version's records to its real difference).
    const lineage = version.lineage_;
    for (const key of touched) {
      const slot = undo.get(key);
      if (slot !== undefined && (slot === ABSENT ? undefined : slot) === lineage.get(key)) undo.delete(key);
    }
  }
}

/** The keys and values of a version, in one consistent order; built once per version. */
export function versionedContents<V>(map: VersionedMap<V>): { readonly keys: readonly string[]; readonly values: readonly V[] } {
  const version = node(map);
  if (version.keys_ === undefined || version.values_ === undefined) {
    const keys: string[] = [];
    const values: V[] = [];
    // Overlay = what this version holds for every key changed after it (earliest record wins).
    const overlay = new Map<string, Slot<V>>();
    let current = version;
    while (current.next_ !== null) {
      for (const [key, slot] of current.undo_!) if (!overlay.has(key)) overlay.set(key, slot);
      current = current.next_;
    }
    const lineage = current.lineage_;
    // Keys the newest version's view passes to `visit`; tracked only when there is an overlay.
    const seen = overlay.size > 0 ? new Set<string>() : null;
    const visit = (key: string, value: Slot<V>): void => {
      let slot = value;
      if (seen !== null) {
        seen.add(key);
        if (overlay.has(key)) slot = overlay.get(key)!;
      }
      if (slot !== ABSENT) {
        keys.push(key);
        values.push(slot);
      }
    };
    if (lineage.parent !== null) {
      // A fork: the parent's entries as the fork changed them, then the keys only the fork has.
      const parent = versionedContents(handle(lineage.parent));
      for (let i = 0; i < parent.keys.length; i++) {
        const key = parent.keys[i]!;
        const own = lineage.map.get(key);
        visit(key, own === undefined ? parent.values[i]! : own);
      }
      for (const [key, value] of lineage.map) if (versionedGet(handle(lineage.parent), key) === undefined) visit(key, value);
    } else {
      for (const [key, value] of lineage.map) visit(key, value);
    }
    // Keys this version had that the newest version's view does not mention at all.
    if (seen !== null) {
      for (const [key, slot] of overlay) {
        if (slot !== ABSENT && !seen.has(key)) {
          keys.push(key);
          values.push(slot);
        }
      }
    }
    version.keys_ = Object.freeze(keys);
    version.values_ = Object.freeze(values);
  }
  return { keys: version.keys_, values: version.values_! };
}

/**
 * Batched writes. `set`/`delete` return the previous value; `commit()` returns the new version, or
 * the original one when nothing changed. An editor must not be used after `commit()`.
 */
export interface VersionedMapEditor<V> {
  get(key: string): V | undefined;
  /**
   * Stores `value` under `key`; returns the value it replaced. `previous`, when given, must be what
   * `get(key)` returns now (a caller that has just read it saves the second lookup).
   */
  set(key: string, value: V, previous?: V): V | undefined;
  delete(key: string): V | undefined;
  readonly size: number;
  commit(): VersionedMap<V>;
}

/** A version with the contents of `version` that is the newest of a new lineage (O(n)). */
function copyOf<V>(version: VersionNode<V>): VersionNode<V> {
  let map: Map<string, V>;
  if (version.next_ === null && version.lineage_.parent === null) {
    map = new Map(version.lineage_.map as Map<string, V>);
  } else {
    const { keys, values } = versionedContents(handle(version));
    map = new Map();
    for (let i = 0; i < keys.length; i++) map.set(keys[i]!, values[i]!);
  }
  return new VersionNode(new Lineage<V>(map), map.size);
}

/** A new, empty-overlay lineage whose newest version reads as `version` (O(1)). */
function forkOf<V>(version: VersionNode<V>): VersionNode<V> {
  return new VersionNode(new Lineage<V>(new Map(), version), version.size_);
}

/** Starts a batch of writes on `map`. Writing to a version that is not the newest copies it first. */
export function editVersionedMap<V>(map: VersionedMap<V>): VersionedMapEditor<V> {
  const base = node(map);
  // The node the writes extend (base, or a copy of it) and, once writing, the new newest node.
  let from = base;
  let undo: Map<string, Slot<V>> | null = null;
  let head: VersionNode<V> | null = null;

  const begin = (): Map<string, Slot<V>> => {
    const lineage = from.lineage_;
    if (from.next_ !== null) {
      // Not the newest (a batch was applied to it already): fork, or copy when forks pile up.
      from = lineage.depth < MAX_FORK_DEPTH ? forkOf(from) : copyOf(from);
    } else if (lineage.records > 2 * from.size_ + REBASE_SLACK || (lineage.parent !== null && lineage.map.size > lineage.parent.size_ / 2 + REBASE_SLACK)) {
      // Many undo records kept alive, or a fork that has replaced much of what it overlays: rebase.
      from = copyOf(from);
    }
    undo = new Map();
    head = new VersionNode(from.lineage_, from.size_);
    // Link before the first write, so a read of `from` during the batch already sees the records.
    from.undo_ = undo;
    from.next_ = head;
    return from.lineage_.map;
  };
  const current = (key: string): V | undefined => (head !== null ? from.lineage_.get(key) : versionedGet(handle(from), key));

  return {
    get: current,
    set(key, value, previous = current(key)) {
      if (previous === value) return previous;
      const entries = head === null ? begin() : from.lineage_.map;
      if (!undo!.has(key)) {
        undo!.set(key, previous === undefined ? ABSENT : previous);
        from.lineage_.records++;
      }
      entries.set(key, value);
      if (previous === undefined) head!.size_++;
      return previous;
    },
    delete(key) {
      const previous = current(key);
      if (previous === undefined) return undefined;
      const entries = head === null ? begin() : from.lineage_.map;
      if (!undo!.has(key)) {
        undo!.set(key, previous);
        from.lineage_.records++;
      }
      if (from.lineage_.parent === null) entries.delete(key);
      else entries.set(key, ABSENT);
      head!.size_--;
      return previous;
    },
    get size() {
      return head !== null ? head.size_ : from.size_;
    },
    commit() {
      if (head === null) return handle(base);
      from.sealed_ = true;
      return handle(head);
    },
  };
}
