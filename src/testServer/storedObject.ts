import type { KubeObject, ObjectMeta } from '../store/kubeObject.js';

/**
 * A JSON object as the server keeps it: `kind` and `apiVersion` first, then `metadata`, then the
 * rest. Metadata may hold any field the API has (the informer's {@link ObjectMeta} names only
 * what it reads).
 */
export type JsonObject = Omit<KubeObject, 'metadata'> & {
  /** The object's metadata, with any field the API has. */
  readonly metadata?: ObjectMeta & { readonly [field: string]: unknown };
} & Record<string, unknown>;

/** A JSON merge patch (RFC 7386): any JSON object; `null` removes a field. */
export type MergePatch = Record<string, unknown>;

/**
 * One version of one object in the test server, with its serialisation cached so that a change
 * broadcast to many watchers, or listed many times, is stringified once.
 *
 * @internal
 */
export interface StoredObject {
  readonly key: string;
  readonly namespace: string | undefined;
  readonly rv: number;
  readonly object: JsonObject;
  /** Cached `JSON.stringify(object)`; fill through {@link jsonOf}. */
  json: string | undefined;
  /** Cached PartialObjectMetadata JSON; fill through {@link metadataJsonOf}. */
  metadataJson: string | undefined;
}

/** `JSON.stringify(stored.object)`, computed once. @internal */
export function jsonOf(stored: StoredObject): string {
  return (stored.json ??= JSON.stringify(stored.object));
}

/** The object as a `meta.k8s.io/v1` PartialObjectMetadata, serialised once. @internal */
export function metadataJsonOf(stored: StoredObject): string {
  return (stored.metadataJson ??= JSON.stringify({
    kind: 'PartialObjectMetadata',
    apiVersion: 'meta.k8s.io/v1',
    metadata: stored.object.metadata ?? {},
  }));
}

/**
 * The object's JSON without `kind` and `apiVersion`, as list items are sent by the real server.
 * Relies on those two being the first members (the server builds objects that way).
 *
 * @internal
 */
export function itemJsonOf(stored: StoredObject, typePrefixLength: number): string {
  return '{' + jsonOf(stored).slice(typePrefixLength);
}
