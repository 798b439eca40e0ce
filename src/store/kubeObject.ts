/**
 * The part of `metav1.ObjectMeta` the informer reads.
 *
 * Objects are plain JSON as the API server sends them: no class instances, no `Date`s. Every field
 * the informer does not read is carried along untouched.
 */
export interface ObjectMeta {
  /** The object's name, unique per kind within its namespace (or the cluster, if cluster-scoped). */
  readonly name?: string;
  /** The object's namespace; absent for a cluster-scoped object. */
  readonly namespace?: string;
  /** Opaque: compared only for equality, never ordered. */
  readonly resourceVersion?: string;
  /** Unique over the cluster's lifetime: a recreated object of the same name has another. */
  readonly uid?: string;
  /** Bumped by the server on changes to the spec (not to status or metadata) of kinds that keep it. */
  readonly generation?: number;
  /** Key/value pairs that label selectors match. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Key/value pairs for tools and people; not selectable. */
  readonly annotations?: Readonly<Record<string, string>>;
  /** Names of the finalizers that must be removed before a deleted object goes away. */
  readonly finalizers?: readonly string[];
  /** RFC 3339 text (typed `unknown` so client-node's `Date`-typed models still fit; {@link Json} says `string`). */
  readonly creationTimestamp?: unknown;
  /** RFC 3339 text on the wire; set while finalizers hold a deleted object. */
  readonly deletionTimestamp?: unknown;
}

/**
 * Any Kubernetes object: `apiVersion`, `kind` and `metadata`, plus whatever else the resource has.
 *
 * Type parameters of the informer default to this; pass your own to get typed objects. For
 * client-node's models, pass them through {@link Json} (`Json<V1Pod>`): the models type
 * timestamps as `Date`, while the objects here are JSON and hold strings.
 */
export interface KubeObject {
  /** `group/version` of the object's kind (`v1` for the core group); list items often lack it. */
  readonly apiVersion?: string;
  /** The object's kind, e.g. `Pod`; list items often lack it. */
  readonly kind?: string;
  /** Name, namespace, labels, resourceVersion and the rest of the object's metadata. */
  readonly metadata?: ObjectMeta;
}
