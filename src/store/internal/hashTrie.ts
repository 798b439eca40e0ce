/**
 * A persistent hash trie: an immutable string-keyed map whose updates copy only the path to the
 * changed entry (O(log32 n)), so the cost of a change does not grow with the size of the map.
 *
 * Nodes are plain arrays, frozen once published:
 * - a bucket holds up to {@link BUCKET_SIZE} entries flat, `[key0, value0, key1, value1, …]`;
 * - a branch holds 32 slots (`null` or a child node), indexed by 5 bits of the key's hash.
 *
 * Writes go through a {@link TrieEditor}, which mutates nodes it created itself in place and copies
 * any other (frozen, published) node once, so a batch of changes copies each touched node once (the "transient" of
 * Clojure/Immutable.js). Nothing here is exported from the package.
 *
 * Why the store has two persistent maps: a snapshot's objects live in a versioned map
 * (./versionedMap.ts), which is a plain `Map` for the newest snapshot and so costs a `Map.get` to
 * read — right for the one big collection that every event writes and most reads hit. The indexes
 * are many small maps (index value → set of keys) nested two deep and rebuilt piecewise on every
 * write; a trie shares everything a batch did not touch at each level and never needs the
 * versioned map's undo records or rebasing, so it stays the simpler, cheaper fit for them.
 */

/** Entries per bucket before it splits into a branch. */
const BUCKET_SIZE = 16;
/** Hash bits consumed per level. */
const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;
/** Below this depth buckets split; at it (30 bits consumed) colliding keys share a bucket. */
const MAX_DEPTH = 6;

/** A bucket (`[k, v, k, v, …]`) or a branch (32 slots of `TrieNode | null`); see {@link isBucket}. */
type TrieNode = unknown[];

/** An immutable map from string keys to `V`. */
export interface HashTrie<V> {
  readonly size: number;
  /** @internal */
  readonly root: TrieNode | null;
  /** @internal phantom for variance */
  readonly _v?: V;
}

const EMPTY: HashTrie<never> = Object.freeze({ size: 0, root: null });

/** The empty trie (shared). */
export function emptyTrie<V>(): HashTrie<V> {
  return EMPTY;
}

/** FNV-1a over UTF-16 code units, 32-bit. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function isBucket(node: TrieNode): boolean {
  // A bucket is never empty and starts with its first key; a branch starts with a node or null.
  return typeof node[0] === 'string';
}

function slotOf(hash: number, depth: number): number {
  return (hash >>> (depth * BITS)) & MASK;
}

/** The value stored under `key`, or `undefined`. */
export function trieGet<V>(trie: HashTrie<V>, key: string): V | undefined {
  let node = trie.root;
  if (node === null) return undefined;
  const hash = hashOf(key);
  for (let depth = 0; ; depth++) {
    if (isBucket(node)) {
      for (let i = 0; i < node.length; i += 2) if (node[i] === key) return node[i + 1] as V;
      return undefined;
    }
    const child = node[slotOf(hash, depth)] as TrieNode | null | undefined;
    if (child == null) return undefined;
    node = child;
  }
}

/** Calls `visit` for every entry, in hash order; stops early when it returns `false`. */
export function trieForEach<V>(trie: HashTrie<V>, visit: (value: V, key: string) => boolean | void): void {
  if (trie.root !== null) walk(trie.root, visit as (value: unknown, key: string) => boolean | void);
}

function walk(node: TrieNode, visit: (value: unknown, key: string) => boolean | void): boolean {
  if (isBucket(node)) {
    for (let i = 0; i < node.length; i += 2) if (visit(node[i + 1], node[i] as string) === false) return false;
    return true;
  }
  for (let i = 0; i < WIDTH; i++) {
    const child = node[i] as TrieNode | null;
    if (child !== null && !walk(child, visit)) return false;
  }
  return true;
}

/**
 * Batched writes to a trie. `set`/`delete` return the previous value; `commit()` freezes the nodes
 * created by this editor and returns the new trie, or the original one when nothing changed.
 * An editor must not be used after `commit()`.
 */
export interface TrieEditor<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): V | undefined;
  delete(key: string): V | undefined;
  readonly size: number;
  commit(): HashTrie<V>;
}

/** Starts a batch of writes on `trie`. */
export function editTrie<V>(trie: HashTrie<V>): TrieEditor<V> {
  let root = trie.root;
  let size = trie.size;
  let changed = false;
  // Nodes this editor created: mutable until commit() freezes them. Published nodes are frozen,
  // so "not frozen" is exactly "ours to mutate in place".
  const created: TrieNode[] = [];

  const own = (node: TrieNode): TrieNode => {
    if (!Object.isFrozen(node)) return node;
    // Spread, not slice(): V8's slice() of a frozen array takes a slow path (~50× here).
    const copy = [...node];
    created.push(copy);
    return copy;
  };
  const fresh = (node: TrieNode): TrieNode => {
    created.push(node);
    return node;
  };

  function setIn(node: TrieNode | null, depth: number, hash: number, key: string, value: V, out: { prev?: V; found: boolean }): TrieNode {
    if (node === null) return fresh([key, value]);
    if (isBucket(node)) {
      for (let i = 0; i < node.length; i += 2) {
        if (node[i] === key) {
          out.found = true;
          out.prev = node[i + 1] as V;
          if (out.prev === value) return node;
          const copy = own(node);
          copy[i + 1] = value;
          return copy;
        }
      }
      if (node.length < BUCKET_SIZE * 2 || depth >= MAX_DEPTH) {
        const copy = own(node);
        copy.push(key, value);
        return copy;
      }
      // Split the full bucket into a branch one level down, then insert.
      let branch: TrieNode = fresh(new Array<TrieNode | null>(WIDTH).fill(null));
      for (let i = 0; i < node.length; i += 2) {
        branch = setIn(branch, depth, hashOf(node[i] as string), node[i] as string, node[i + 1] as V, { found: false });
      }
      return setIn(branch, depth, hash, key, value, out);
    }
    const slot = slotOf(hash, depth);
    const child = node[slot] as TrieNode | null;
    const next = setIn(child, depth + 1, hash, key, value, out);
    if (next === child) return node;
    const copy = own(node);
    copy[slot] = next;
    return copy;
  }

  function deleteIn(node: TrieNode, depth: number, hash: number, key: string, out: { prev?: V; found: boolean }): TrieNode | null {
    if (isBucket(node)) {
      for (let i = 0; i < node.length; i += 2) {
        if (node[i] === key) {
          out.found = true;
          out.prev = node[i + 1] as V;
          if (node.length === 2) return null;
          const copy = own(node);
          copy.splice(i, 2);
          return copy;
        }
      }
      return node;
    }
    const slot = slotOf(hash, depth);
    const child = node[slot] as TrieNode | null;
    if (child === null) return node;
    const next = deleteIn(child, depth + 1, hash, key, out);
    if (next === child) return node;
    const copy = own(node);
    copy[slot] = next;
    return copy.some((c) => c !== null) ? copy : null;
  }

  return {
    get(key) {
      return trieGet({ size, root }, key);
    },
    set(key, value) {
      const out: { prev?: V; found: boolean } = { found: false };
      const next = setIn(root, 0, hashOf(key), key, value, out);
      if (next !== root) {
        root = next;
        changed = true;
      }
      if (!out.found) size++;
      return out.prev;
    },
    delete(key) {
      if (root === null) return undefined;
      const out: { prev?: V; found: boolean } = { found: false };
      const next = deleteIn(root, 0, hashOf(key), key, out);
      if (out.found) {
        root = next;
        size--;
        changed = true;
      }
      return out.prev;
    },
    get size() {
      return size;
    },
    commit() {
      for (const node of created) Object.freeze(node);
      created.length = 0;
      if (!changed) return trie;
      return size === 0 ? EMPTY : Object.freeze({ size, root });
    },
  };
}
