import { randomUUID } from 'node:crypto';
import { createChangeLog, type ChangeEntry, type ChangeLog } from './changeLog.js';
import { TestApiServerError } from './testApiServerError.js';
import { kubeStatus } from './kubeStatus.js';
import { apiVersionOf, type ResourceType } from './resourceType.js';
import { createSortedKeyList, type SortedKeyList } from './sortedKeyList.js';
import { jsonOf, type JsonObject, type StoredObject } from './storedObject.js';

/** Something that wants to hear about every change of a collection (an open watch). @internal */
export type ChangeListener = (entry: ChangeEntry) => void;

/** The objects of one resource type, in a map and a sorted key index. @internal */
export interface Collection {
  readonly id: string;
  readonly resource: ResourceType;
  readonly apiVersion: string;
  /** Length of `{"kind":"…","apiVersion":"…",` at the start of every stored object's JSON. */
  readonly typePrefixLength: number;
  readonly selectableFields: ReadonlySet<string>;
  readonly objects: Map<string, StoredObject>;
  readonly keys: SortedKeyList;
  readonly listeners: Set<ChangeListener>;
}

/** How a write is published. @internal */
export interface WriteOptions {
  /** `false` changes state and logs the change without telling open watches (FakeControllerSource's *DropWatch). */
  readonly broadcast?: boolean;
}

/** State of the whole test server: collections, the global resourceVersion and the change log. @internal */
export interface ObjectStore {
  readonly currentRV: number;
  readonly log: ChangeLog;
  collection(id: string): Collection | undefined;
  addCollection(resource: ResourceType): Collection;
  /** Stops serving a collection (its objects go with it; delete them first to tell watches). */
  removeCollection(id: string): void;
  /**
   * Runs `hook` with the stored object before any object of `collection` is removed, so that what
   * it writes (a terminating CRD, the deletion of its objects) comes before the DELETED event.
   */
  beforeRemove(collection: Collection, hook: (stored: StoredObject) => void): void;
  collections(): IterableIterator<Collection>;
  create(collection: Collection, object: JsonObject, options?: WriteOptions): StoredObject;
  update(collection: Collection, key: string, object: JsonObject, options?: WriteOptions): StoredObject;
  remove(collection: Collection, key: string, options?: WriteOptions): StoredObject;
  seed(collection: Collection, objects: readonly JsonObject[]): void;
  /** Objects of `collection` as they were at `rv` (>= log floor), in key order, from `start` (inclusive). */
  objectsAt(collection: Collection, rv: number, namespace: string | undefined, start: string | undefined): IterableIterator<StoredObject>;
}

/** Collection id: `plural` for the core group, `plural.group` otherwise (as `kubectl get` names them). @internal */
export function collectionId(resource: Pick<ResourceType, 'group' | 'plural'>): string {
  return resource.group === '' ? resource.plural : `${resource.plural}.${resource.group}`;
}

/** Creates the server state, starting at resourceVersion `initialRV`, with a change log of `logSize` entries. @internal */
export function createObjectStore(initialRV: number, logSize: number): ObjectStore {
  let rv = initialRV;
  const log = createChangeLog(logSize, initialRV);
  const collections = new Map<string, Collection>();
  const removeHooks = new Map<Collection, (stored: StoredObject) => void>();

  const record = (collection: Collection, type: ChangeEntry['type'], object: StoredObject, previous: StoredObject | undefined, options?: WriteOptions): void => {
    const entry: ChangeEntry = { rv: object.rv, type, collection: collection.id, object, previous };
    log.append(entry);
    if (options?.broadcast === false) return;
    for (const listener of collection.listeners) listener(entry);
  };

  const store: ObjectStore = {
    get currentRV() {
      return rv;
    },
    log,
    collection: (id) => collections.get(id),
    collections: () => collections.values(),
    removeCollection: (id) => void collections.delete(id),
    beforeRemove: (collection, hook) => void removeHooks.set(collection, hook),
    addCollection(resource) {
      const id = collectionId(resource);
      const existing = collections.get(id);
      if (existing) return existing;
      const apiVersion = apiVersionOf(resource);
      const collection: Collection = {
        id,
        resource,
        apiVersion,
        typePrefixLength: JSON.stringify({ kind: resource.kind, apiVersion }).length,
        selectableFields: new Set(['metadata.name', 'metadata.namespace', ...(resource.selectableFields ?? [])]),
        objects: new Map(),
        keys: createSortedKeyList(),
        listeners: new Set(),
      };
      collections.set(id, collection);
      return collection;
    },
    create(collection, object, options) {
      const meta = object.metadata ?? {};
      const key = keyIn(collection, meta.namespace, meta.name);
      if (collection.objects.has(key)) {
        throw new TestApiServerError(kubeStatus(409, 'AlreadyExists', `${collection.id} "${meta.name}" already exists`, detailsOf(collection, meta.name)));
      }
      const stored = stamp(collection, key, object, ++rv, undefined);
      collection.objects.set(key, stored);
      collection.keys.insert(key);
      record(collection, 'ADDED', stored, undefined, options);
      return stored;
    },
    update(collection, key, object, options) {
      const previous = collection.objects.get(key);
      if (!previous) throw notFound(collection, object.metadata?.name);
      // An update that changes nothing is not written: no new resourceVersion, no event.
      const same = stamp(collection, key, object, previous.rv, previous);
      if (jsonOf(same) === jsonOf(previous)) return previous;
      const stored = withResourceVersion(same, ++rv);
      collection.objects.set(key, stored);
      record(collection, 'MODIFIED', stored, previous, options);
      return stored;
    },
    remove(collection, key, options) {
      const hook = removeHooks.get(collection);
      const before = collection.objects.get(key);
      if (hook !== undefined && before !== undefined) hook(before);
      const previous = collection.objects.get(key);
      if (!previous) throw notFound(collection, key.slice(key.indexOf('/') + 1));
      const final = withResourceVersion(previous, ++rv);
      collection.objects.delete(key);
      collection.keys.delete(key);
      record(collection, 'DELETED', final, previous, options);
      return final;
    },
    seed(collection, objects) {
      for (const object of objects) {
        const meta = object.metadata ?? {};
        const key = keyIn(collection, meta.namespace, meta.name);
        const previous = collection.objects.get(key);
        const stored = stamp(collection, key, object, ++rv, previous);
        collection.objects.set(key, stored);
        if (!previous) collection.keys.insert(key);
      }
      // Nothing was logged: watches from before the seed must relist, as after a compaction.
      log.compact(rv);
    },
    *objectsAt(collection, atRV, namespace, start) {
      const prefix = namespace === undefined ? undefined : `${namespace}/`;
      const from = start ?? prefix;
      const inRange = (key: string): boolean => prefix === undefined || key.startsWith(prefix);
      if (atRV >= rv) {
        for (const key of collection.keys.keysFrom(from)) {
          if (!inRange(key)) return;
          yield collection.objects.get(key)!;
        }
        return;
      }
      // Undo the changes made after atRV: the first change of each key after atRV holds its state at atRV.
      const past = new Map<string, StoredObject | null>();
      for (const entry of log.since(atRV)) {
        if (entry.collection !== collection.id) continue;
        const key = entry.object.key;
        if (!past.has(key)) past.set(key, entry.previous ?? null);
      }
      const gone = [...past]
        .filter(([key, value]) => value !== null && !collection.objects.has(key) && (from === undefined || key >= from) && inRange(key))
        .map(([key]) => key)
        .sort();
      let g = 0;
      for (const key of collection.keys.keysFrom(from)) {
        if (!inRange(key)) break;
        while (g < gone.length && gone[g]! < key) yield past.get(gone[g++]!)!;
        const then = past.get(key);
        if (then === undefined) yield collection.objects.get(key)!;
        else if (then !== null) yield then;
      }
      while (g < gone.length) yield past.get(gone[g++]!)!;
    },
  };
  return store;
}

/** The store key of `name` in `namespace` for this collection; validates scope. @internal */
export function keyIn(collection: Collection, namespace: string | undefined, name: string | undefined): string {
  if (typeof name !== 'string' || name === '') {
    throw new TestApiServerError(
      kubeStatus(422, 'Invalid', `${collection.resource.kind} "" is invalid: metadata.name: Required value: name or generateName is required`, {
        kind: collection.resource.kind,
        causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }],
      }),
    );
  }
  if (!collection.resource.namespaced) return name;
  if (typeof namespace !== 'string' || namespace === '') throw new TestApiServerError(kubeStatus(400, 'BadRequest', 'the server could not find the requested resource: namespace is required'));
  return `${namespace}/${name}`;
}

/** `details` naming an object of this collection, as the real server fills them. @internal */
export function detailsOf(collection: Collection, name: string | undefined): { name?: string; group?: string; kind: string } {
  return {
    ...(name !== undefined ? { name } : {}),
    ...(collection.resource.group !== '' ? { group: collection.resource.group } : {}),
    kind: collection.resource.plural,
  };
}

/** 404 `NotFound` for an object of this collection. @internal */
export function notFound(collection: Collection, name: string | undefined): TestApiServerError {
  return new TestApiServerError(kubeStatus(404, 'NotFound', `${collection.id} "${name ?? ''}" not found`, detailsOf(collection, name)));
}

function timestamp(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * Builds the stored version of `object`: `kind`/`apiVersion` first, server-owned metadata set
 * (resourceVersion, uid, creationTimestamp, generation bumped when `spec` changed).
 */
function stamp(collection: Collection, key: string, object: JsonObject, rv: number, previous: StoredObject | undefined): StoredObject {
  const { kind: _kind, apiVersion: _apiVersion, metadata = {}, ...rest } = object;
  const before = previous?.object.metadata;
  const specChanged = previous === undefined || JSON.stringify(previous.object['spec']) !== JSON.stringify(rest['spec']);
  const generation = previous === undefined ? 1 : (before?.generation ?? 1) + (specChanged ? 1 : 0);
  const meta: Record<string, unknown> = { ...metadata };
  delete meta['resourceVersion'];
  const namespace = collection.resource.namespaced ? (metadata.namespace as string) : undefined;
  if (namespace === undefined) delete meta['namespace'];
  const stampedMeta = {
    ...meta,
    ...(namespace !== undefined ? { namespace } : {}),
    // Like the real server: uid and creationTimestamp are the server's, whatever the client sent.
    uid: before?.uid ?? randomUUID(),
    resourceVersion: String(rv),
    generation,
    creationTimestamp: (before?.['creationTimestamp'] as string | undefined) ?? timestamp(),
  };
  const stored: JsonObject = { kind: collection.resource.kind, apiVersion: collection.apiVersion, metadata: stampedMeta, ...rest };
  return { key, namespace, rv, object: stored, json: undefined, metadataJson: undefined };
}

function withResourceVersion(stored: StoredObject, rv: number): StoredObject {
  const object = { ...stored.object, metadata: { ...stored.object.metadata, resourceVersion: String(rv) } };
  return { key: stored.key, namespace: stored.namespace, rv, object, json: undefined, metadataJson: undefined };
}
