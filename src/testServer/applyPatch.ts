import { TestApiServerError } from './testApiServerError.js';
import { badRequest, kubeStatus } from './kubeStatus.js';
import { createObject, getObject, writeObject, type ObjectTarget } from './objectHandlers.js';
import { keyIn, type Collection, type ObjectStore } from './objectStore.js';
import type { JsonObject, StoredObject } from './storedObject.js';

/** Fields each apply manager owns, per object: pointers like `/data/a`, `/metadata/ownerReferences/uid=…`. */
const owners = new WeakMap<Collection, Map<string, Map<string, Set<string>>>>();

type Json = unknown;

/**
 * A server-side apply (`PATCH` with `application/apply-patch+yaml`, a JSON body), simplified: each
 * field manager owns the fields it applied; applying again sets them, and removes those it applied
 * before and now leaves out (unless another manager owns them too); a field another apply manager
 * owns with a different value is a 409 `Conflict` with `FieldManagerConflict` causes, as the real
 * server words it, unless `force=true` takes it over. Objects merge field by field, lists are
 * atomic except `metadata.ownerReferences` (by uid); a missing object is created.
 *
 * Fidelity: only apply managers own fields here. The real server also records owners for other
 * writes (PUT, patches, `kubectl edit`) and a conflict with them; this one does not.
 *
 * @internal
 */
export function applyObject(store: ObjectStore, target: ObjectTarget, body: unknown, query: URLSearchParams): StoredObject {
  const manager = query.get('fieldManager');
  if (manager === null || manager === '') {
    throw new TestApiServerError(
      kubeStatus(422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch', {
        group: 'meta.k8s.io',
        kind: 'PatchOptions',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }],
      }),
    );
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new TestApiServerError(badRequest('the apply body must be a JSON object'));
  const applied = body as JsonObject;
  if (applied.metadata?.name !== undefined && applied.metadata.name !== target.name) {
    throw new TestApiServerError(badRequest(`the name of the object (${applied.metadata.name}) does not match the name on the URL (${target.name})`));
  }
  const force = query.get('force') === 'true';
  const { collection } = target;
  const key = keyIn(collection, target.namespace, target.name);
  let byObject = owners.get(collection);
  if (byObject === undefined) owners.set(collection, (byObject = new Map()));
  const exists = collection.objects.has(key);
  if (!exists) byObject.delete(key); // ownership of a deleted object is gone with it
  const managers = byObject.get(key) ?? new Map<string, Set<string>>();
  const scope = (path: string): boolean => {
    if (target.subresource === 'status') return path.startsWith('/status');
    return !(collection.resource.statusSubresource && path.startsWith('/status'));
  };
  const leaves = new Map([...leavesOf(applied)].filter(([path]) => scope(path)));

  if (!exists) {
    const created = createObject(store, target, { ...applied, metadata: { ...applied.metadata, name: target.name } });
    managers.set(manager, new Set(leaves.keys()));
    byObject.set(key, managers);
    return created;
  }

  const current = getObject(target);
  const conflicts: { manager: string; path: string }[] = [];
  for (const [path, value] of leaves) {
    for (const [other, paths] of managers) {
      if (other === manager || !paths.has(path)) continue;
      if (JSON.stringify(valueAt(current.object, path)) === JSON.stringify(value)) continue;
      if (force) paths.delete(path);
      else conflicts.push({ manager: other, path });
    }
  }
  if (conflicts.length > 0) {
    const fields = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with "${c.manager}"`, field: fieldName(c.path) }));
    const list = conflicts.map((c) => `conflict with "${c.manager}": ${fieldName(c.path)}`).join('\n- ');
    throw new TestApiServerError(kubeStatus(409, 'Conflict', `Apply failed with ${conflicts.length} conflict${conflicts.length > 1 ? 's' : ''}: ${conflicts.length > 1 ? `\n- ${list}` : list}`, { causes: fields }));
  }
  let next: Json = structuredClone(current.object);
  const before = managers.get(manager) ?? new Set<string>();
  for (const path of before) {
    if (leaves.has(path) || [...managers].some(([other, paths]) => other !== manager && paths.has(path))) continue;
    next = removeAt(next, path);
  }
  for (const [path, value] of leaves) next = setAt(next, path, value);
  managers.set(manager, new Set(leaves.keys()));
  byObject.set(key, managers);
  return writeObject(store, target, current, next as JsonObject);
}

/** The leaf fields of an applied object, identity fields left out. */
function leavesOf(object: JsonObject): Map<string, Json> {
  const out = new Map<string, Json>();
  const walk = (value: Json, path: string): void => {
    if (path === '/metadata/ownerReferences' && Array.isArray(value)) {
      for (const ref of value as { uid?: unknown }[]) if (typeof ref?.uid === 'string') out.set(`${path}/uid=${ref.uid}`, ref);
      return;
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value)) walk(v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      return;
    }
    out.set(path, value);
  };
  for (const [k, v] of Object.entries(object)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    if (k === 'metadata' && v !== null && typeof v === 'object') {
      for (const [mk, mv] of Object.entries(v)) {
        if (['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields'].includes(mk)) continue;
        walk(mv, `/metadata/${mk}`);
      }
      continue;
    }
    walk(v, `/${k}`);
  }
  return out;
}

const tokens = (path: string): string[] => path.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

function valueAt(root: Json, path: string): Json {
  let current = root;
  for (const token of tokens(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current) && token.startsWith('uid=')) current = (current as { uid?: string }[]).find((r) => r?.uid === token.slice(4));
    else current = (current as Record<string, Json>)[token];
  }
  return current;
}

function setAt(root: Json, path: string, value: Json): Json {
  const parts = tokens(path);
  const base = (root ?? {}) as Record<string, Json>;
  let container: Record<string, Json> = base;
  for (const [i, token] of parts.entries()) {
    const last = i === parts.length - 1;
    if (token.startsWith('uid=') && Array.isArray(container)) {
      const list = container as unknown as { uid?: string }[];
      const at = list.findIndex((r) => r?.uid === token.slice(4));
      if (at >= 0) list[at] = value as { uid?: string };
      else list.push(value as { uid?: string });
      return base;
    }
    if (last) container[token] = structuredClone(value);
    else {
      const nextIsList = parts[i + 1]!.startsWith('uid=');
      if (container[token] === null || typeof container[token] !== 'object') container[token] = nextIsList ? [] : {};
      container = container[token] as Record<string, Json>;
    }
  }
  return base;
}

function removeAt(root: Json, path: string): Json {
  const parts = tokens(path);
  let container = root as Record<string, Json> | undefined;
  for (const token of parts.slice(0, -1)) {
    container = container?.[token] as Record<string, Json> | undefined;
    if (container === null || typeof container !== 'object') return root;
  }
  const last = parts[parts.length - 1]!;
  if (Array.isArray(container) && last.startsWith('uid=')) {
    const at = (container as { uid?: string }[]).findIndex((r) => r?.uid === last.slice(4));
    if (at >= 0) container.splice(at, 1);
  } else if (container !== undefined) delete container[last];
  return root;
}

/** `.data.a`, as the real server names a field in a conflict. */
function fieldName(path: string): string {
  return tokens(path)
    .map((t) => (t.startsWith('uid=') ? `[uid="${t.slice(4)}"]` : `.${t}`))
    .join('');
}
