import type { KubeConfigLike } from './kubeConfigLike.js';
import { catchError, defer, finalize, forkJoin, map, of, switchMap, throwError, type Observable } from 'rxjs';
import { KubeApiError } from '../errors.js';
import { httpGet } from './transport/httpGet.js';
import { readJson } from './transport/readJson.js';
import type { HttpTransport } from './transport/httpTransport.js';
import { kubeConfigTransport } from './transport/kubeConfigTransport.js';
import { argumentError } from '../options/optionChecks.js';

/** A resource as API discovery describes it: enough to list, watch and show it. */
export interface DiscoveredResource {
  /** `""` for the core group. */
  readonly group: string;
  /** The API version within the group, e.g. `v1`. */
  readonly version: string;
  /** The plural resource name in the URL path, e.g. `deployments`. */
  readonly plural: string;
  /** The kind of its objects, e.g. `Deployment`. */
  readonly kind: string;
  /** Its objects live in namespaces (`false`: cluster-scoped). */
  readonly namespaced: boolean;
}

/** One entry of a group version's discovery document (`APIResourceList.resources`). */
interface ApiResource {
  readonly name?: string;
  readonly singularName?: string;
  readonly shortNames?: readonly string[];
  readonly kind?: string;
  readonly namespaced?: boolean;
}

/**
 * Finds a resource the way `kubectl get <resource>` does: by plural (`pods`), singular (`pod`),
 * short name (`po`) or kind (`Pod`), each optionally qualified by group (`deployments.apps`,
 * `widgets.example.com`) or by version and group (`deployments.v1.apps`), through the API server's
 * discovery documents (`/api/v1`, `/apis`, `/apis/<group>/<version>`). The core group wins a tie, as
 * with kubectl. Subresources (`pods/status`) are not resources.
 *
 * Cold: each subscription asks the server once and unsubscribing aborts it. It makes one attempt:
 * retrying an unreachable server is the caller's choice.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { firstValueFrom } from 'rxjs';
 * import { discoverResource, listWatch } from 'rx-informer';
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const { group, version, plural } = await firstValueFrom(discoverResource(kubeConfig, 'deploy'));
 * // group 'apps', version 'v1', plural 'deployments'
 * const deployments = listWatch(kubeConfig, { group, version, plural });
 * ```
 *
 * @param kubeConfig the cluster to ask (client-node's `KubeConfig`).
 * @param resource the resource as a kubectl user types it.
 * @returns a cold Observable of the one resource found; it errors with a {@link KubeApiError} (code
 * 404, "the server doesn't have a resource type …", `resource` the text asked for) when there is
 * none, with the server's own {@link KubeApiError} when discovery is refused (a 404 whose
 * `resource` is `/api/v1` or `/apis`, documents every Kubernetes API server serves, means the
 * server is not one), and with a {@link TransportError} when the server cannot be reached.
 */
export function discoverResource(kubeConfig: KubeConfigLike, resource: string): Observable<DiscoveredResource> {
  const transport = kubeConfigTransport(kubeConfig);
  if (typeof resource !== 'string' || resource.trim() === '') throw argumentError('discoverResource', 'resource must be a non-empty string');
  return defer(() => {
    return search(transport, splitResourceText(resource)).pipe(
      switchMap((found) => (found !== undefined ? of(found) : throwError(() => notFound(resource, `the server doesn't have a resource type ${JSON.stringify(resource)}`)))),
      finalize(() => transport.closeIdleConnections?.()),
    );
  });
}

/**
 * @internal The resource of `kind` in `apiVersion` (what a `{ apiVersion, kind }` resolves to): an
 * exact match of the kind in that group version's discovery document.
 */
export function discoverKind(transport: HttpTransport, apiVersion: string, kind: string): Observable<DiscoveredResource> {
  const [group, version] = splitApiVersion(apiVersion);
  return resourcesOf(transport, group, version).pipe(
    map((resources) => {
      const found = resources?.find((r) => r.kind === kind);
      // A group version the server serves, in a group without a dot: no CRD can add the kind later.
      if (found === undefined) throw notFound(`${kind} in ${apiVersion}`, `the server has no resource of kind ${kind} in ${apiVersion}`, resources !== undefined && !group.includes('.'));
      return describe(found, group, version);
    }),
  );
}

/**
 * @internal Whether `group`/`version`'s discovery document lists a resource of that plural (or, with
 * no plural, of `kind`): how a resource served without a CRD (an aggregated API's, such as
 * `metrics.k8s.io`) is told from a custom resource whose CRD is missing. False when the server has
 * no such group version.
 */
export function discoveryServes(transport: HttpTransport, group: string, version: string, name: { readonly plural?: string; readonly kind?: string }): Observable<boolean> {
  return resourcesOf(transport, group, version).pipe(map((resources) => resources?.some((r) => (name.plural !== undefined ? r.name === name.plural : r.kind === name.kind)) ?? false));
}

/** @internal `deployments.v1.apps` → name, version, group; `pods` → name only. */
export function splitResourceText(text: string): { name: string; version?: string; group?: string } {
  const trimmed = text.trim();
  const dot = trimmed.indexOf('.');
  if (dot < 0) return { name: trimmed };
  const name = trimmed.slice(0, dot);
  const rest = trimmed.slice(dot + 1);
  const versioned = /^(v\d+(?:(?:alpha|beta)\d+)?)\.(.+)$/.exec(rest);
  return versioned ? { name, version: versioned[1]!, group: versioned[2]! } : { name, group: rest };
}

/** @internal Splits `apps/v1` → `['apps', 'v1']`, `v1` → `['', 'v1']`. */
export function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

function search(transport: HttpTransport, wanted: { name: string; version?: string; group?: string }): Observable<DiscoveredResource | undefined> {
  const { name, group, version } = wanted;
  const core = group === undefined || group === '' || group === 'core';
  // Every Kubernetes API server serves /api/v1 and /apis: a 404 for either is an error, not "no such resource".
  const inCore = core ? resourcesOf(transport, '', version ?? 'v1', version === undefined).pipe(map((list) => match(list, name, '', version ?? 'v1'))) : of(undefined);
  // A bare name falls through to the other groups; an explicit core group does not.
  return inCore.pipe(switchMap((found) => (found !== undefined || (core && group !== undefined) ? of(found) : inGroups(transport, name, group, version))));
}

function inGroups(transport: HttpTransport, name: string, group: string | undefined, version: string | undefined): Observable<DiscoveredResource | undefined> {
  type GroupList = { groups?: Array<{ name?: string; preferredVersion?: { version?: string }; versions?: Array<{ version?: string }> }> };
  return getJson(transport, '/apis', true).pipe(
    switchMap((doc) => {
      const candidates = ((doc as GroupList | undefined)?.groups ?? []).filter((g) => g.name && (group === undefined || g.name === group));
      const lookups = candidates.map((g) => {
        const v = version ?? g.preferredVersion?.version ?? g.versions?.[0]?.version;
        if (!v || (version !== undefined && !g.versions?.some((x) => x.version === version))) return of(undefined);
        return resourcesOf(transport, g.name!, v).pipe(map((list) => match(list, name, g.name!, v)));
      });
      return lookups.length === 0 ? of(undefined) : forkJoin(lookups).pipe(map((found) => found.find((r) => r !== undefined)));
    }),
  );
}

/** The resources (not subresources) of a group version, or `undefined` when the server has no such group version (unless `required`). */
function resourcesOf(transport: HttpTransport, group: string, version: string, required = false): Observable<ApiResource[] | undefined> {
  return getJson(transport, group === '' ? `/api/${version}` : `/apis/${group}/${version}`, required).pipe(
    map((doc) => {
      if (doc === undefined) return undefined;
      const resources = (doc as { resources?: ApiResource[] } | null)?.resources ?? [];
      return resources.filter((r) => typeof r.name === 'string' && r.name !== '' && !r.name.includes('/') && typeof r.kind === 'string');
    }),
  );
}

function match(resources: ApiResource[] | undefined, name: string, group: string, version: string): DiscoveredResource | undefined {
  if (resources === undefined) return undefined;
  const lower = name.toLowerCase();
  const tests: Array<(r: ApiResource) => boolean> = [
    (r) => r.name === lower,
    (r) => r.singularName === lower || (!r.singularName && r.kind!.toLowerCase() === lower),
    (r) => r.shortNames?.includes(lower) ?? false,
    (r) => r.kind!.toLowerCase() === lower,
  ];
  for (const test of tests) {
    const found = resources.find(test);
    if (found) return describe(found, group, version);
  }
  return undefined;
}

function describe(r: ApiResource, group: string, version: string): DiscoveredResource {
  return { group, version, plural: r.name!, kind: r.kind!, namespaced: r.namespaced ?? true };
}

/** A discovery document, or `undefined` when the server has no such path (404) and it is not `required`. */
function getJson(transport: HttpTransport, path: string, required = false): Observable<unknown> {
  return httpGet<unknown>(transport, path, 'application/json', { verb: 'discover', resource: path }, (response, subscriber) => readJson(response, subscriber, undefined, 'discover')).pipe(
    catchError((error: unknown) => (!required && error instanceof KubeApiError && error.code === 404 ? of(undefined) : throwError(() => error))),
  );
}

function notFound(resource: string, message: string, cannotSucceed = false): KubeApiError {
  return new KubeApiError({ verb: 'discover', resource, code: 404, status: { kind: 'Status', reason: 'NotFound', message }, cannotSucceed });
}
