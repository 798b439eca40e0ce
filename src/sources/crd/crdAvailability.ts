/**
 * Whether a CustomResourceDefinition serves a version of its resource: what an informer following
 * the CRD reads from each version of it. Pure.
 */

/** The fields of a CustomResourceDefinition (`apiextensions.k8s.io/v1`) that say whether it serves a version. */
export interface CrdObject {
  readonly metadata?: { readonly name?: string; readonly deletionTimestamp?: string };
  readonly spec?: {
    readonly group?: string;
    readonly names?: { readonly plural?: string; readonly kind?: string };
    readonly versions?: ReadonlyArray<{ readonly name?: string; readonly served?: boolean }>;
  };
  readonly status?: { readonly conditions?: ReadonlyArray<{ readonly type?: string; readonly status?: string }> };
}

/**
 * Where a CRD stands for one version: `ready` (it exists, is `Established`, is not being deleted and
 * serves the version, under `plural`), or why not.
 */
export type CrdAvailability =
  | { readonly state: 'ready'; readonly name: string; readonly plural: string; readonly served: readonly string[] }
  | { readonly state: 'notFound'; readonly name?: undefined; readonly served: readonly string[] }
  | { readonly state: 'notEstablished' | 'terminating' | 'versionNotServed'; readonly name: string; readonly served: readonly string[] };

/**
 * Where `crd` (`undefined`: there is none) stands for `version`. A CRD being deleted counts as
 * `terminating` even while it still serves its objects (their deletion is in progress).
 */
export function crdAvailability(crd: CrdObject | undefined, version: string): CrdAvailability {
  if (crd === undefined) return { state: 'notFound', served: [] };
  const name = crd.metadata?.name ?? '';
  const served = (crd.spec?.versions ?? []).filter((v) => v.served === true && typeof v.name === 'string').map((v) => v.name!);
  if (crd.metadata?.deletionTimestamp !== undefined) return { state: 'terminating', name, served };
  if (!(crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True')) return { state: 'notEstablished', name, served };
  const plural = crd.spec?.names?.plural;
  if (!served.includes(version) || typeof plural !== 'string' || plural === '') return { state: 'versionNotServed', name, served };
  return { state: 'ready', name, plural, served };
}
