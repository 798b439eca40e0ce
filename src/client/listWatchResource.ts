/**
 * Which collection a List+Watch source reads.
 *
 * - By group/version/plural: `{ version: 'v1', plural: 'configmaps' }`,
 *   `{ group: 'apps', version: 'v1', plural: 'deployments', namespace: 'prod' }`.
 * - By apiVersion/kind: `{ apiVersion: 'v1', kind: 'ConfigMap' }` — built-in kinds from a table,
 *   anything else (CRDs) through API discovery on first subscribe.
 *
 * `namespace` absent = all namespaces (or a cluster-scoped resource).
 */
export type ListWatchResource = GroupVersionResource | ApiVersionKind;

/**
 * A resource named by group, version and plural. `group` absent or `""` = the core group.
 *
 * @inline
 */
export interface GroupVersionResource {
  /** The API group, e.g. `apps`; absent or `""` for the core group. */
  readonly group?: string;
  /** The version within the group, e.g. `v1`. */
  readonly version: string;
  /** The plural resource name in the URL, e.g. `deployments`. */
  readonly plural: string;
  /** Only this namespace; absent: all namespaces (or a cluster-scoped resource). */
  readonly namespace?: string;
}

/** A resource named by `apiVersion` and `kind`, as in an object's manifest. @inline */
export interface ApiVersionKind {
  /** `group/version` (`v1` for the core group), e.g. `apps/v1`. */
  readonly apiVersion: string;
  /** The kind, e.g. `Deployment`; found through discovery. */
  readonly kind: string;
  /** Only this namespace; absent: all namespaces (or a cluster-scoped resource). */
  readonly namespace?: string;
}
