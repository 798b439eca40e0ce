import type { Collection, ObjectStore } from './objectStore.js';
import { collectionId } from './objectStore.js';
import type { PrinterColumn, ResourceType } from './resourceType.js';
import type { JsonObject, StoredObject } from './storedObject.js';

/** The finalizer the API server puts on a CRD being deleted until its objects are gone. */
const cleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

/**
 * What the API server's CRD controllers do, for the test server (as seen on kube-apiserver v1.36.3):
 *
 * - A CRD created through the API (or the control API) is served at once, and a moment later its
 *   `status` says `NamesAccepted` and `Established` (a MODIFIED event on a CRD watch).
 * - A CRD deleted is first marked terminating (`deletionTimestamp`, the
 *   `customresourcecleanup.apiextensions.k8s.io` finalizer and a `Terminating` condition: a
 *   MODIFIED event); then every object of its resource is deleted (its watches see a DELETED event
 *   each), those watches end, and the resource is no longer served: its paths answer `404 page not
 *   found` and discovery leaves it out. The CRD's own DELETED event comes last.
 *
 * A CRD is served in one version here: its storage version when that is served, else its first
 * served one. Changes of a CRD after its creation (its served versions, say) are not followed.
 *
 * @internal
 */
export function followCustomResourceDefinitions(store: ObjectStore, crds: Collection, closeWatches: (collectionId: string) => void): void {
  crds.listeners.add((entry) => {
    if (entry.type !== 'ADDED') return;
    const resource = resourceTypeOf(entry.object.object);
    if (resource === undefined || store.collection(collectionId(resource)) !== undefined) return;
    store.addCollection(resource);
    if (!established(entry.object.object)) setImmediate(() => establish(store, crds, entry.object));
  });
  store.beforeRemove(crds, (stored) => {
    const resource = resourceTypeOf(stored.object);
    const collection = resource === undefined ? undefined : store.collection(collectionId(resource));
    if (collection === undefined) return;
    store.update(crds, stored.key, terminating(stored.object));
    for (const key of [...collection.keys.keysFrom(undefined)]) store.remove(collection, key);
    closeWatches(collection.id);
    store.removeCollection(collection.id);
  });
}

/** The resource a CRD serves, or `undefined` when its spec does not say (no group, names or served version). @internal */
export function resourceTypeOf(crd: JsonObject): ResourceType | undefined {
  const spec = crd['spec'] as CrdSpec | undefined;
  const served = (spec?.versions ?? []).filter((v) => v.served === true && typeof v.name === 'string');
  const version = served.find((v) => v.storage === true) ?? served[0];
  const names = spec?.names;
  if (version === undefined || typeof spec?.group !== 'string' || typeof names?.plural !== 'string' || typeof names.kind !== 'string') return undefined;
  return {
    group: spec.group,
    version: version.name!,
    plural: names.plural,
    kind: names.kind,
    namespaced: spec.scope !== 'Cluster',
    ...(names.singular ? { singular: names.singular } : {}),
    ...(names.shortNames ? { shortNames: names.shortNames } : {}),
    ...(version.additionalPrinterColumns ? { printerColumns: version.additionalPrinterColumns } : {}),
    ...(version.subresources?.status ? { statusSubresource: true } : {}),
  };
}

interface CrdSpec {
  readonly group?: string;
  readonly scope?: string;
  readonly names?: { readonly plural?: string; readonly singular?: string; readonly kind?: string; readonly shortNames?: readonly string[] };
  readonly versions?: ReadonlyArray<{
    readonly name?: string;
    readonly served?: boolean;
    readonly storage?: boolean;
    readonly additionalPrinterColumns?: readonly PrinterColumn[];
    readonly subresources?: { readonly status?: unknown };
  }>;
}

type Condition = { readonly type?: string; readonly status?: string };

function conditionsOf(crd: JsonObject): readonly Condition[] {
  return ((crd['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? []).filter((c) => typeof c === 'object' && c !== null);
}

function established(crd: JsonObject): boolean {
  return conditionsOf(crd).some((c) => c.type === 'Established' && c.status === 'True');
}

/** Sets `NamesAccepted` and `Established` on the CRD as created, if it is still the one stored. */
function establish(store: ObjectStore, crds: Collection, created: StoredObject): void {
  const current = crds.objects.get(created.key);
  if (current === undefined || current.object.metadata?.uid !== created.object.metadata?.uid || established(current.object)) return;
  const spec = current.object['spec'] as CrdSpec;
  const status = {
    acceptedNames: spec.names,
    storedVersions: (spec.versions ?? []).filter((v) => v.storage === true).map((v) => v.name),
    conditions: [
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ],
  };
  store.update(crds, created.key, { ...current.object, status });
}

/** The CRD as the API server marks it when a delete starts its cleanup. */
function terminating(crd: JsonObject): JsonObject {
  const meta = crd.metadata ?? {};
  const status = (crd['status'] as Record<string, unknown> | undefined) ?? {};
  const conditions = [
    ...conditionsOf(crd).filter((c) => c.type !== 'Terminating'),
    { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' },
  ];
  return {
    ...crd,
    metadata: { ...meta, deletionTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), finalizers: [cleanupFinalizer] },
    status: { ...status, conditions },
  };
}
