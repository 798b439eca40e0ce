/**
 * The part of `metav1.ObjectMeta` the informer reads.
 *
 * Objects are plain JSON as the API server sends them: no class instances, no `Date`s. Every field
 * the informer does not read is carried along untouched.
 */
export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  /** Opaque: compared only for equality, never ordered. */
  readonly resourceVersion?: string;
  readonly uid?: string;
  readonly generation?: number;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
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
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMeta;
}
