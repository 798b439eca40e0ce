/**
 * Computes the index values of an object (client-go's `IndexFunc`): for example its node name, its
 * owner UIDs, or the value of one label. Return `[]` to leave the object out of the index. Must be
 * pure; a throw is reported and the object is left out of that index, the store keeps working.
 */
export type IndexFunc<T> = (object: T) => readonly string[];

/** Named index functions. Names are the ones passed to `byIndex`, `indexKeys` and `indexValues`. */
export type Indexers<T> = Readonly<Record<string, IndexFunc<T>>>;

/** An index function threw, or returned something other than an array of strings. */
export class IndexFuncError extends Error {
  override readonly name = 'IndexFuncError';
  constructor(
    readonly indexName: string,
    readonly key: string,
    options: { cause: unknown },
  ) {
    super(`[informer] index function "${indexName}" failed for ${key}: ${messageOf(options.cause)}; the object is left out of that index`, options);
  }
}

/** Thrown by snapshot index queries for an index that was not configured. */
export class UnknownIndexError extends Error {
  override readonly name = 'UnknownIndexError';
  constructor(
    readonly indexName: string,
    known: readonly string[],
  ) {
    super(`[informer] index "${indexName}" does not exist${known.length ? ` (known: ${known.join(', ')})` : ' (no indexers configured)'}`);
  }
}

/** Indexes objects by `metadata.namespace` (cluster-scoped objects are left out). */
export function byNamespace(object: { readonly metadata?: { readonly namespace?: string } }): readonly string[] {
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
