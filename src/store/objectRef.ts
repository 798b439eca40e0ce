import type { KubeObject } from './kubeObject.js';
import { objectKey } from './keyFunc.js';
import { argumentError } from '../options/optionChecks.js';

/**
 * Names an object: its namespace and name, and its kind where several kinds flow (kube-rs's
 * `ObjectRef`, controller-runtime's `Request` plus the kind). The controller's keys are these, not
 * bare strings.
 */
export interface ObjectRef {
  /** The object's `metadata.name`. */
  readonly name: string;
  /** Absent for cluster-scoped objects. */
  readonly namespace?: string | undefined;
  /** Set when the kind matters: writes, and refs mapped from an `ownerReference`. */
  readonly kind?: string | undefined;
  /** `group/version` (or `v1`), with `kind`. */
  readonly apiVersion?: string | undefined;
}

/** An {@link ObjectRef} that says what kind of object it is: what a write or a get needs. */
export interface TypedObjectRef extends ObjectRef {
  /** The object's kind, e.g. `ConfigMap`. */
  readonly kind: string;
  /** The object's `group/version` (`v1` for the core group), e.g. `apps/v1`. */
  readonly apiVersion: string;
}

/**
 * The {@link ObjectRef} of an object: namespace and name, plus kind and apiVersion when it has them.
 *
 * @throws {TypeError} when the object has no `metadata.name`.
 */
export function objectRef(object: KubeObject): ObjectRef {
  const name = object?.metadata?.name;
  if (typeof name !== 'string' || name === '') throw argumentError('objectRef', 'the object has no metadata.name');
  const namespace = object.metadata?.namespace;
  return {
    name,
    ...(namespace ? { namespace } : {}),
    ...(object.kind ? { kind: object.kind } : {}),
    ...(object.apiVersion ? { apiVersion: object.apiVersion } : {}),
  };
}

/** @internal The cache key (`namespace/name` or `name`) an {@link ObjectRef} names. */
export function refCacheKey(ref: ObjectRef): string {
  return objectKey(ref.namespace, ref.name);
}

/** @internal `ns/name`, or `name` for a cluster-scoped object, as a {@link ObjectRef}. */
export function refOfCacheKey(key: string): ObjectRef {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** @internal One string per distinct object a ref names: apiVersion, kind, namespace and name. */
export function refIdentity(ref: ObjectRef): string {
  return `${ref.apiVersion ?? ''}/${ref.kind ?? ''}/${ref.namespace ?? ''}/${ref.name}`;
}

/** @internal `refs` with each object once, in the order of its first mention (the same array when nothing repeats). */
export function distinctRefs(refs: readonly ObjectRef[]): readonly ObjectRef[] {
  if (refs.length < 2) return refs;
  const seen = new Set<string>();
  const out = refs.filter((ref) => {
    const id = refIdentity(ref);
    return seen.has(id) ? false : (seen.add(id), true);
  });
  return out.length === refs.length ? refs : out;
}

/** @internal The group of an `apiVersion` (`apps/v1` → `apps`, `v1` → `""`). */
export function groupOf(apiVersion: string | undefined): string {
  if (apiVersion === undefined) return '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
