import { map, type Observable } from 'rxjs';
import type { ListWatchResource } from './listWatchResource.js';
import { builtinPlurals } from './builtinPlurals.js';
import { discoverKind, splitApiVersion } from './discoverResource.js';
import type { HttpTransport } from './transport/httpTransport.js';

/** A resource with its collection path (`/api/v1/namespaces/x/configmaps`) and a display name for errors. */
export interface ResolvedResource {
  /** `""` for the core group. */
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly path: string;
  /** `configmaps`, or `widgets.example.com` outside the core group. */
  readonly name: string;
  readonly namespace: string | undefined;
}

/** The collection path (`/api/v1/namespaces/x/configmaps`, `/apis/g/v/plural`) and display name of a resource. */
export function collectionPath(group: string, version: string, plural: string, namespace: string | undefined): ResolvedResource {
  const root = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return { group, version, plural, path: `${root}${ns}/${plural}`, name: resourceName(group, plural), namespace: namespace || undefined };
}

/** How a collection is named, as kubectl names it: `configmaps`, `widgets.example.com`. */
export function resourceName(group: string, plural: string): string {
  return group === '' ? plural : `${plural}.${group}`;
}

/** Without I/O when possible (group/version/plural, or a built-in kind); `undefined` when discovery is needed. */
export function resolveStatically(resource: ListWatchResource): ResolvedResource | undefined {
  if ('plural' in resource) return collectionPath(resource.group ?? '', resource.version, resource.plural, resource.namespace);
  const [group, version] = splitApiVersion(resource.apiVersion);
  const plural = builtinPlurals.get(`${group}/${resource.kind}`);
  return plural === undefined ? undefined : collectionPath(group, version, plural, resource.namespace);
}

/** The collection of a `{ apiVersion, kind }` found through discovery (for CRDs). Cold; unsubscribing aborts it. */
export function resolveByDiscovery(transport: HttpTransport, resource: ListWatchResource & { apiVersion: string; kind: string }): Observable<ResolvedResource> {
  return discoverKind(transport, resource.apiVersion, resource.kind).pipe(map((found) => collectionPath(found.group, found.version, found.plural, resource.namespace)));
}
