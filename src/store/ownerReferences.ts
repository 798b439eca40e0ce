import type { Frozen } from './frozen.js';
import { ControllerError } from '../errors.js';
import type { IndexFunc } from './indexFunc.js';
import type { KubeObject } from './kubeObject.js';
import type { Snapshot } from './snapshot.js';
import { groupOf, type ObjectRef } from './objectRef.js';
import { argumentError } from '../options/optionChecks.js';

/** One entry of `metadata.ownerReferences`. */
export interface OwnerReference {
  /** The owner's `group/version`, e.g. `apps/v1`. */
  readonly apiVersion: string;
  /** The owner's kind, e.g. `ReplicaSet`. */
  readonly kind: string;
  /** The owner's `metadata.name` (in the object's own namespace; owners are never in another). */
  readonly name: string;
  /** The owner's `metadata.uid`: a reference to a deleted and recreated owner of the same name does not match. */
  readonly uid: string;
  /** At most one reference of an object has it: the object's managing controller. */
  readonly controller?: boolean;
  /** Foreground deletion of the owner waits for this object. */
  readonly blockOwnerDeletion?: boolean;
}

/** The `ownerReferences` of an object (the informer's `ObjectMeta` does not name them). */
export function ownerReferencesOf(object: KubeObject | undefined): readonly OwnerReference[] {
  const refs = (object?.metadata as { ownerReferences?: unknown } | undefined)?.ownerReferences;
  return Array.isArray(refs) ? (refs as OwnerReference[]) : [];
}

/** The reference with `controller: true`, if any (client-go's `metav1.GetControllerOf`). */
export function controllerOf(object: KubeObject | undefined): OwnerReference | undefined {
  return ownerReferencesOf(object).find((ref) => ref.controller === true);
}

/**
 * The owner reference that makes `owner` the controller of an object: `controller: true` and
 * `blockOwnerDeletion: true`, as controller-runtime's `SetControllerReference` writes it.
 *
 * @throws {TypeError} when the owner lacks `apiVersion`, `kind`, `metadata.name` or `metadata.uid`
 * (an object from the cache has them all).
 */
export function controllerReference(owner: KubeObject): OwnerReference {
  const { apiVersion, kind } = owner ?? {};
  const name = owner?.metadata?.name;
  const uid = owner?.metadata?.uid;
  const missing = Object.entries({ apiVersion, kind, 'metadata.name': name, 'metadata.uid': uid })
    .filter(([, v]) => typeof v !== 'string' || v === '')
    .map(([k]) => k);
  if (missing.length > 0) throw argumentError('controllerReference', `the owner needs ${missing.join(', ')}`);
  return { apiVersion: apiVersion!, kind: kind!, name: name!, uid: uid!, controller: true, blockOwnerDeletion: true };
}

/**
 * `object` with `owner` as its controller: the reference is added, or left as it is when it is
 * there already (then `object` itself comes back). Owners in another namespace are refused, as the
 * API server would ignore them.
 *
 * @throws {ControllerError} `alreadyOwned` when another object is the controller.
 * @throws {TypeError} for an owner in another namespace, or one without uid.
 */
export function setControllerReference<T extends KubeObject>(object: T, owner: KubeObject): T {
  const ref = controllerReference(owner);
  const ownerNamespace = owner.metadata?.namespace;
  if (ownerNamespace && object.metadata?.namespace && ownerNamespace !== object.metadata.namespace) {
    throw argumentError('setControllerReference', `${owner.kind} ${ownerNamespace}/${ref.name} cannot own an object in namespace ${object.metadata.namespace}`);
  }
  const current = controllerOf(object);
  if (current !== undefined) {
    if (current.uid === ref.uid) return object;
    throw new ControllerError('alreadyOwned', `${describe(object)} is already controlled by ${current.kind} ${current.name} (uid ${current.uid}), and an object has one controller: not taking it over`);
  }
  const others = ownerReferencesOf(object).filter((r) => r.uid !== ref.uid);
  return { ...object, metadata: { ...object.metadata, ownerReferences: [...others, ref] } };
}

/**
 * An index function for child informers: the uid of each object's controller (`controller: true`
 * owner reference). With it, `snapshot.byIndex('owner', parent.metadata.uid)` gives the children of
 * a parent without a scan.
 */
export const byControllerOwner: IndexFunc<KubeObject> = (object) => {
  const uid = controllerOf(object)?.uid;
  return typeof uid === 'string' && uid !== '' ? [uid] : [];
};

/** Which owner references map a child to its owners: only the controller (the default), or any. */
export type OwnerMatch = 'controller' | 'any';

/**
 * @internal The refs of the owners of `child` that are of `ownerType` (group and kind compared,
 * the version ignored, as controller-runtime does): namespace from the child unless the owner is
 * cluster-scoped.
 */
export function ownerRefsOf(child: KubeObject | undefined, ownerType: { readonly apiVersion: string; readonly kind: string; readonly clusterScoped?: boolean }, match: OwnerMatch): ObjectRef[] {
  const group = groupOf(ownerType.apiVersion);
  const namespace = ownerType.clusterScoped ? undefined : child?.metadata?.namespace;
  return ownerReferencesOf(child)
    .filter((ref) => (match === 'any' || ref.controller === true) && ref.kind === ownerType.kind && groupOf(ref.apiVersion) === group && typeof ref.name === 'string')
    .map((ref) => ({ name: ref.name, ...(namespace ? { namespace } : {}), kind: ref.kind, apiVersion: ref.apiVersion }));
}

/** `ConfigMap web-app in demo`, as the controller toolkit's errors name an object. */
function describe(object: KubeObject): string {
  const { namespace, name } = object.metadata ?? {};
  return `${object.kind ?? 'object'} ${String(name)}${namespace ? ` in ${namespace}` : ''}`;
}

/**
 * The objects of `snapshot` whose controller is `owner` (matched by uid): through the index
 * `indexName` when given (an index of {@link byControllerOwner}), by a scan otherwise. This is how a
 * reconciler finds its children in the cache.
 *
 * @param snapshot a child informer's snapshot.
 * @param owner the owner (needs `metadata.uid`).
 * @param indexName the name of a {@link byControllerOwner} index of that informer, if it has one.
 * @throws {UnknownIndexError} when `indexName` is not an index of the snapshot.
 */
export function ownedBy<C extends KubeObject>(snapshot: Snapshot<C>, owner: KubeObject, indexName?: string): readonly Frozen<C>[] {
  const uid = owner?.metadata?.uid;
  if (typeof uid !== 'string' || uid === '') return [];
  if (indexName !== undefined) return snapshot.byIndex(indexName, uid);
  return snapshot.list().filter((child) => controllerOf(child)?.uid === uid);
}
