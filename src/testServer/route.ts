import type { Collection, ObjectStore } from './objectStore.js';

/** The verbs of the Kubernetes API, as RBAC names them (`list` vs `watch` split by the query). */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** A request to a resource path, decoded. @internal */
export interface ResourceRoute {
  readonly kind: 'resource';
  readonly verb: Verb;
  readonly collection: Collection;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
}

/** A request to a discovery path. @internal */
export interface DiscoveryRoute {
  readonly kind: 'discovery';
  readonly body: unknown;
}

/** What a path + method is: a resource request, a discovery document, or nothing (404/405). @internal */
export type Route =
  | ResourceRoute
  | DiscoveryRoute
  | { readonly kind: 'openapi' }
  | { readonly kind: 'notFound' }
  /** A path no API claims (`/nope`, a group version nothing serves): the real server's mux answers `404 page not found` as text. */
  | { readonly kind: 'pageNotFound' }
  | { readonly kind: 'methodNotAllowed' };

/**
 * Decodes `/api/v1/...` and `/apis/<group>/<version>/...` paths:
 * `[namespaces/<ns>/]<plural>[/<name>[/<subresource>]]`. `namespaces/<name>` alone is a Namespace.
 *
 * @internal
 */
export function routeResource(store: ObjectStore, method: string, segments: readonly string[], group: string, version: string, query: URLSearchParams): Route {
  const find = (plural: string | undefined): Collection | undefined => {
    if (plural === undefined) return undefined;
    for (const c of store.collections()) if (c.resource.group === group && c.resource.version === version && c.resource.plural === plural) return c;
    return undefined;
  };
  let namespace: string | undefined;
  let rest = segments;
  if (segments[0] === 'namespaces' && segments.length >= 3 && find(segments[2])?.resource.namespaced) {
    namespace = segments[1];
    rest = segments.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest;
  const collection = find(plural);
  if (!collection || extra.length > 0 || (subresource !== undefined && subresource !== 'status')) return { kind: 'notFound' };
  if (namespace !== undefined && !collection.resource.namespaced) return { kind: 'notFound' };
  const watch = query.get('watch') === 'true' || query.get('watch') === '1';
  let verb: Verb | undefined;
  if (name === undefined) {
    if (method === 'GET') verb = watch ? 'watch' : 'list';
    else if (method === 'POST') verb = collection.resource.namespaced && namespace === undefined ? undefined : 'create';
    else if (method === 'DELETE') verb = 'deletecollection';
  } else {
    if (method === 'GET') verb = watch ? 'watch' : 'get';
    else if (method === 'PUT') verb = 'update';
    else if (method === 'PATCH') verb = 'patch';
    else if (method === 'DELETE' && subresource === undefined) verb = 'delete';
  }
  if (verb === undefined) return { kind: 'methodNotAllowed' };
  return { kind: 'resource', verb, collection, namespace, name, subresource };
}
