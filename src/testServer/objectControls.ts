import { TestApiServerError } from './testApiServerError.js';
import { createObject, deleteObject, getObject, patchObject, replaceObject } from './objectHandlers.js';
import type { Collection, ObjectStore } from './objectStore.js';
import type { JsonObject } from './storedObject.js';
import type { ControlWriteOptions, TestApiServer } from './testApiServer.js';

/** The control API's reads and writes of objects, bypassing HTTP. @internal */
export type ObjectControls = Pick<TestApiServer, 'create' | 'update' | 'patch' | 'delete' | 'get' | 'list' | 'seed' | 'compact'>;

/**
 * The object part of the control API over `store`: writes go through the same handlers as HTTP
 * requests (so they stamp the same metadata and notify the same watches); a resource that is not
 * served is a `TypeError` naming the ones that are. @internal
 */
export function objectControls(store: ObjectStore): ObjectControls {
  const collectionOf = (resource: string): Collection => {
    const collection = store.collection(resource);
    if (!collection) throw new TypeError(`[testServer] unknown resource "${resource}" (known: ${[...store.collections()].map((c) => c.id).join(', ')})`);
    return collection;
  };
  const target = (resource: string, namespace: string | undefined, name: string | undefined) => ({ collection: collectionOf(resource), namespace, name, subresource: undefined });
  return {
    create: (resource, object, options?: ControlWriteOptions) => {
      const meta = object.metadata ?? {};
      return createObject(store, target(resource, meta.namespace, meta.name), object, options).object;
    },
    update: (resource, object, options) => {
      const meta = object.metadata ?? {};
      return replaceObject(store, target(resource, meta.namespace, meta.name), object, options).object;
    },
    patch: (resource, namespace, name, patch, options) =>
      patchObject(store, target(resource, namespace, name), 'application/merge-patch+json', patch, options).object,
    delete: (resource, namespace, name, options) => deleteObject(store, target(resource, namespace, name), undefined, options).object,
    get(resource, namespace, name) {
      try {
        return getObject(target(resource, namespace, name)).object;
      } catch (error) {
        if (error instanceof TestApiServerError && error.status.code === 404) return undefined;
        throw error;
      }
    },
    list: (resource, namespace) => [...store.objectsAt(collectionOf(resource), store.currentRV, namespace, undefined)].map((s) => s.object),
    // Any object is a JSON record; seeding skips the checks a write makes, as documented.
    seed: (resource, objects) => store.seed(collectionOf(resource), objects as readonly JsonObject[]),
    compact(resourceVersion) {
      const upTo = resourceVersion === undefined ? store.currentRV : Number(resourceVersion);
      if (!Number.isInteger(upTo) || upTo > store.currentRV) throw new TypeError(`[testServer] cannot compact to resourceVersion "${resourceVersion}" (current ${store.currentRV})`);
      store.log.compact(upTo);
    },
  };
}
