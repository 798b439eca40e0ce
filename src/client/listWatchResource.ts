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
  readonly group?: string;
  readonly version: string;
  readonly plural: string;
  readonly namespace?: string;
}

/** A resource named by `apiVersion` and `kind`, as in an object's manifest. @inline */
export interface ApiVersionKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
}
