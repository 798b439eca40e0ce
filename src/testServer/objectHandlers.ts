import { randomInt } from 'node:crypto';
import { TestApiServerError } from './testApiServerError.js';
import { badRequest, kubeStatus } from './kubeStatus.js';
import { applyJsonPatch, JsonPatchError } from './jsonPatch.js';
import { mergePatch } from './mergePatch.js';
import { detailsOf, keyIn, notFound, type Collection, type ObjectStore } from './objectStore.js';
import type { JsonObject, StoredObject } from './storedObject.js';

/** What a write request names: the collection, the namespace and name from the URL, a subresource. @internal */
export interface ObjectTarget {
  readonly collection: Collection;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
}

/** Options of a write made through the control API rather than HTTP. @internal */
export interface WriteControl {
  readonly broadcast?: boolean;
}

/** GET of one object. @internal */
export function getObject(target: ObjectTarget): StoredObject {
  const stored = target.collection.objects.get(keyIn(target.collection, target.namespace, target.name));
  if (!stored) throw notFound(target.collection, target.name);
  return stored;
}

/**
 * POST: validates the body against the URL, fills `generateName`, stores it (201).
 *
 * @throws {TestApiServerError} 400 on a kind/namespace mismatch, 409 AlreadyExists, 422 without a name.
 */
export function createObject(store: ObjectStore, target: ObjectTarget, body: unknown, control?: WriteControl): StoredObject {
  const { collection } = target;
  const object = asObject(body, collection);
  const meta: Record<string, unknown> = { ...(object.metadata ?? {}) };
  if (collection.resource.namespaced) {
    if (meta['namespace'] !== undefined && meta['namespace'] !== '' && target.namespace !== undefined && meta['namespace'] !== target.namespace) {
      throw new TestApiServerError(badRequest('the namespace of the provided object does not match the namespace sent on the request'));
    }
    meta['namespace'] = target.namespace ?? meta['namespace'];
  }
  if ((meta['name'] === undefined || meta['name'] === '') && typeof meta['generateName'] === 'string' && meta['generateName'] !== '') {
    meta['name'] = `${meta['generateName']}${randomSuffix()}`;
  }
  // Nobody sets these by writing them: DELETE does.
  delete meta['deletionTimestamp'];
  delete meta['deletionGracePeriodSeconds'];
  const { status: _status, ...withoutStatus } = object;
  return store.create(collection, { ...(collection.resource.statusSubresource ? withoutStatus : object), metadata: meta }, control);
}

/**
 * PUT: replaces the object (or, for the `status` subresource, only its `status`). A
 * `metadata.resourceVersion` that is not the current one is a 409 Conflict; an unchanged object
 * is not written again (no new resourceVersion, no event).
 */
export function replaceObject(store: ObjectStore, target: ObjectTarget, body: unknown, control?: WriteControl): StoredObject {
  const current = getObject(target);
  const object = asObject(body, target.collection);
  const name = object.metadata?.name;
  if (name !== undefined && name !== target.name) throw new TestApiServerError(badRequest(`the name of the object (${name}) does not match the name on the URL (${target.name})`));
  const rv = object.metadata?.resourceVersion;
  if (rv !== undefined && rv !== '' && rv !== current.object.metadata?.resourceVersion) throw conflict(target);
  const next: JsonObject =
    target.subresource === 'status'
      ? { ...current.object, status: object['status'] }
      : keepStatus(target, current, { ...object, metadata: { ...object.metadata, name: target.name, namespace: current.namespace } });
  return write(store, target, current, next, control);
}

/**
 * PATCH: JSON patch, merge patch and strategic merge patch (applied as a merge patch). A
 * resourceVersion in the patch (or the patched object) must be the current one (409 otherwise).
 *
 * @throws {TestApiServerError} 415 for apply patches here (the HTTP route serves them through `applyObject`) and unknown types.
 */
export function patchObject(store: ObjectStore, target: ObjectTarget, contentType: string | undefined, body: unknown, control?: WriteControl): StoredObject {
  const type = (contentType ?? '').split(';')[0]!.trim();
  if (!['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'].includes(type)) throw unsupportedPatch();
  const current = getObject(target);
  let patched: JsonObject;
  if (type === 'application/json-patch+json') {
    try {
      patched = applyJsonPatch(current.object, body) as JsonObject;
    } catch (error) {
      // The real server's words for any patch that does not apply, a failed `test` included (no causes).
      if (error instanceof JsonPatchError) throw new TestApiServerError(kubeStatus(422, 'Invalid', 'the server rejected our request due to an error in our request', {}));
      throw error;
    }
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) throw new TestApiServerError(kubeStatus(422, 'Invalid', 'the patched object is not a JSON object'));
    const rv = patched.metadata?.resourceVersion;
    if (rv !== undefined && rv !== current.object.metadata?.resourceVersion) throw conflict(target);
    if (target.subresource === 'status') patched = { ...current.object, status: patched['status'] };
  } else if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json') {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new TestApiServerError(badRequest('the patch must be a JSON object'));
    const patch = body as JsonObject;
    const rv = patch.metadata?.resourceVersion;
    if (rv !== undefined && rv !== current.object.metadata?.resourceVersion) throw conflict(target);
    patched = mergePatch(current.object, target.subresource === 'status' ? { status: patch['status'] } : patch) as JsonObject;
  } else {
    throw unsupportedPatch();
  }
  if (patched.metadata?.name !== target.name) throw new TestApiServerError(badRequest(`the name of the object (${String(patched.metadata?.name)}) does not match the name on the URL (${target.name})`));
  const next: JsonObject = { ...patched, metadata: { ...patched.metadata, namespace: current.namespace } };
  return write(store, target, current, target.subresource === 'status' ? next : keepStatus(target, current, next), control);
}

/**
 * DELETE: removes the object and returns its final state (new resourceVersion). With finalizers
 * it only sets `deletionTimestamp` (a MODIFIED); removing the last finalizer later deletes it.
 * DeleteOptions preconditions (`uid`, `resourceVersion`) are checked (409).
 */
export function deleteObject(store: ObjectStore, target: ObjectTarget, body: unknown, control?: WriteControl): StoredObject {
  const current = getObject(target);
  const preconditions = (body as { preconditions?: { uid?: string; resourceVersion?: string } } | undefined)?.preconditions;
  const meta = current.object.metadata ?? {};
  if (preconditions?.uid !== undefined && preconditions.uid !== meta.uid) {
    throw new TestApiServerError(
      kubeStatus(409, 'Conflict', `Operation cannot be fulfilled on ${target.collection.id} "${target.name}": Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${meta.uid}`, detailsOf(target.collection, target.name)),
    );
  }
  if (preconditions?.resourceVersion !== undefined && preconditions.resourceVersion !== meta.resourceVersion) throw conflict(target);
  const finalizers = meta['finalizers'];
  if (Array.isArray(finalizers) && finalizers.length > 0) {
    if (meta['deletionTimestamp'] !== undefined) return current;
    const deletionTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    return store.update(target.collection, current.key, { ...current.object, metadata: { ...meta, deletionTimestamp, deletionGracePeriodSeconds: 0 } }, control);
  }
  return store.remove(target.collection, current.key, control);
}

/** Stores `next` over `current`, with the server's rules for deletion (used by apply patches too). @internal */
export function writeObject(store: ObjectStore, target: ObjectTarget, current: StoredObject, next: JsonObject, control?: WriteControl): StoredObject {
  return write(store, target, current, keepStatusUnless(target, current, next), control);
}

function keepStatusUnless(target: ObjectTarget, current: StoredObject, next: JsonObject): JsonObject {
  return target.subresource === 'status' ? { ...current.object, status: next['status'] } : keepStatus(target, current, next);
}

function write(store: ObjectStore, target: ObjectTarget, current: StoredObject, next: JsonObject, control: WriteControl | undefined): StoredObject {
  const before = current.object.metadata ?? {};
  const meta: Record<string, unknown> = { ...(next.metadata ?? {}) };
  // deletionTimestamp is the server's: a write neither sets nor clears it; while it is set, finalizers can only go.
  delete meta['deletionTimestamp'];
  delete meta['deletionGracePeriodSeconds'];
  if (before['deletionTimestamp'] !== undefined) {
    meta['deletionTimestamp'] = before['deletionTimestamp'];
    if (before['deletionGracePeriodSeconds'] !== undefined) meta['deletionGracePeriodSeconds'] = before['deletionGracePeriodSeconds'];
    const had = new Set(finalizersOf(before));
    const added = finalizersOf(meta).filter((f) => !had.has(f));
    if (added.length > 0) {
      const message = `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`;
      throw new TestApiServerError(
        kubeStatus(422, 'Invalid', `${target.collection.resource.kind} "${target.name}" is invalid: metadata.finalizers: ${message}`, {
          name: target.name,
          kind: target.collection.resource.kind,
          causes: [{ reason: 'FieldValueForbidden', message, field: 'metadata.finalizers' }],
        }),
      );
    }
    if (finalizersOf(meta).length === 0) return store.remove(target.collection, current.key, control);
  }
  return store.update(target.collection, current.key, { ...next, metadata: meta }, control);
}

function finalizersOf(meta: Record<string, unknown>): string[] {
  const finalizers = meta['finalizers'];
  return Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
}

/** With a status subresource, a write of the object keeps the stored status, whatever it sent. */
function keepStatus(target: ObjectTarget, current: StoredObject, next: JsonObject): JsonObject {
  if (!target.collection.resource.statusSubresource) return next;
  const { status: _sent, ...rest } = next;
  return current.object['status'] === undefined ? rest : { ...rest, status: current.object['status'] };
}

function asObject(body: unknown, collection: Collection): JsonObject {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new TestApiServerError(badRequest('the request body must be a JSON object'));
  const object = body as JsonObject;
  if (object.kind !== undefined && object.kind !== collection.resource.kind) {
    throw new TestApiServerError(badRequest(`the kind in the request body (${String(object.kind)}) does not match the resource (${collection.resource.kind})`));
  }
  if (object.apiVersion !== undefined && object.apiVersion !== collection.apiVersion) {
    throw new TestApiServerError(badRequest(`the API version in the data (${String(object.apiVersion)}) does not match the expected API version (${collection.apiVersion})`));
  }
  if (object.metadata !== undefined && (object.metadata === null || typeof object.metadata !== 'object')) throw new TestApiServerError(badRequest('metadata must be a JSON object'));
  return object;
}

/** 415 for apply patches through the control API (HTTP serves them, see applyPatch.ts) and unknown patch types, before looking the object up. */
function unsupportedPatch(): TestApiServerError {
  return new TestApiServerError(
    kubeStatus(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
    ),
  );
}

function conflict(target: ObjectTarget): TestApiServerError {
  return new TestApiServerError(
    kubeStatus(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${target.collection.id} "${target.name}": the object has been modified; please apply your changes to the latest version and try again`,
      detailsOf(target.collection, target.name),
    ),
  );
}

function randomSuffix(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let s = '';
  for (let i = 0; i < 5; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}
