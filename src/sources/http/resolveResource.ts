import { map, type Observable } from 'rxjs';
import { KubeApiError } from '../../errors.js';
import type { ListWatchResource } from '../listWatchResource.js';
import { builtinPlurals } from './builtinPlurals.js';
import { httpGet } from './httpGet.js';
import { readJson } from './readJson.js';
import type { RequestContext } from './requestContext.js';

/** A resource with its collection path (`/api/v1/namespaces/x/configmaps`) and a display name for errors. */
export interface ResolvedResource {
  readonly path: string;
  /** `configmaps`, or `widgets.example.com` outside the core group. */
  readonly name: string;
  readonly namespace: string | undefined;
}

/** Splits `apps/v1` → `['apps', 'v1']`, `v1` → `['', 'v1']`. */
export function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/** The collection path (`/api/v1/namespaces/x/configmaps`, `/apis/g/v/plural`) and display name of a resource. */
export function collectionPath(group: string, version: string, plural: string, namespace: string | undefined): ResolvedResource {
  const root = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return { path: `${root}${ns}/${plural}`, name: group === '' ? plural : `${plural}.${group}`, namespace: namespace || undefined };
}

/** Without I/O when possible (group/version/plural, or a built-in kind); `undefined` when discovery is needed. */
export function resolveStatically(resource: ListWatchResource): ResolvedResource | undefined {
  if ('plural' in resource) return collectionPath(resource.group ?? '', resource.version, resource.plural, resource.namespace);
  const [group, version] = splitApiVersion(resource.apiVersion);
  const plural = builtinPlurals.get(`${group}/${resource.kind}`);
  return plural === undefined ? undefined : collectionPath(group, version, plural, resource.namespace);
}

/** Finds the plural of `kind` in the group version's discovery document (for CRDs). Cold; unsubscribing aborts it. */
export function discover(context: RequestContext, resource: ListWatchResource & { apiVersion: string; kind: string }): Observable<ResolvedResource> {
  const [group, version] = splitApiVersion(resource.apiVersion);
  const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const target = { verb: 'discover', resource: `${resource.kind} in ${resource.apiVersion}` };
  return httpGet<unknown>(context, path, 'application/json', target, (response, subscriber) => readJson(response, subscriber)).pipe(
    map((list) => {
      const resources = (list as { resources?: Array<{ name?: string; kind?: string }> } | null)?.resources ?? [];
      const found = resources.find((r) => r.kind === resource.kind && typeof r.name === 'string' && !r.name.includes('/'));
      if (!found?.name) {
        throw new KubeApiError({ ...target, code: 404, status: { message: `the server has no resource of kind ${resource.kind} in ${resource.apiVersion}` } });
      }
      return collectionPath(group, version, found.name, resource.namespace);
    }),
  );
}
