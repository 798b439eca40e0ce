import type { Frozen } from './frozen.js';
/**
 * Computes the index values of an object (client-go's `IndexFunc`): for example its node name, its
 * owner UIDs, or the value of one label. Return `[]` to leave the object out of the index. Must be
 * pure; a throw is reported and the object is left out of that index, the store keeps working.
 * It is given the object as the cache holds it, deep-frozen ({@link Frozen}).
 */
export type IndexFunc<T> = (object: Frozen<T>) => readonly string[];

/** Named index functions. Names are the ones passed to `byIndex`, `indexKeys` and `indexValues`. */
export type Indexers<T> = Readonly<Record<string, IndexFunc<T>>>;



/** Indexes objects by `metadata.namespace` (cluster-scoped objects are left out). */
export function byNamespace(object: {
  /** The object's metadata; only its namespace is read. */
  readonly metadata?: {
    /** The namespace indexed; absent or `""` for a cluster-scoped object. */
    readonly namespace?: string;
  };
}): readonly string[] {
  const namespace = object.metadata?.namespace;
  return namespace ? [namespace] : [];
}

/** Builds an index function on the value of one label. */
export function byLabel(label: string): IndexFunc<{ readonly metadata?: { readonly labels?: Readonly<Record<string, string>> } }> {
  return (object) => {
    const labels = object.metadata?.labels;
    return labels !== undefined && Object.hasOwn(labels, label) ? [labels[label]!] : [];
  };
}

