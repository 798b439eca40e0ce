import type { IncomingMessage, ServerResponse } from 'node:http';
import { drained } from './drained.js';
import { coreVersions, apiGroup, groupList, resourceList, versionInfo } from './discovery.js';
import { failureStatus, forbiddenStatus, matchesFilter, unauthorizedStatus, type DelayRule, type FailureRule, type ForbidRule } from './faultRules.js';
import { TestApiServerError } from './testApiServerError.js';
import { badRequest, kubeStatus, pathNotFound, type KubeStatus } from './kubeStatus.js';
import { serveList } from './listHandler.js';
import { parseListOptions } from './listOptions.js';
import { negotiate } from './negotiate.js';
import { applyObject } from './applyPatch.js';
import { createObject, deleteObject, getObject, patchObject, replaceObject } from './objectHandlers.js';
import type { MutableRequestLogEntry } from './requestLogEntry.js';
import { routeResource, type ResourceRoute, type Route } from './route.js';
import type { ServerContext } from './serverContext.js';
import { jsonOf, metadataJsonOf, type StoredObject } from './storedObject.js';
import { tableOf } from './table.js';
import { serveWatch } from './watchHandler.js';

/** Mutable fault state the control API edits and requests consume. @internal */
export interface FaultState {
  token: string | undefined;
  readonly userName: string;
  failures: { rule: FailureRule; left: number }[];
  delays: { rule: DelayRule; left: number }[];
  forbids: ForbidRule[];
}

const maxBodyBytes = 3 * 1024 * 1024;

/** Serves one HTTP request: discovery, resources, with the faults applied first. @internal */
export async function handleRequest(ctx: ServerContext, faults: FaultState, entry: MutableRequestLogEntry, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const route = routeOf(ctx, req.method ?? 'GET', url, req.headers.host ?? '127.0.0.1');
  if (route.kind === 'resource') {
    entry.verb = route.verb;
    entry.resource = route.collection.id;
    entry.namespace = route.namespace;
    entry.name = route.name;
  }

  const delay = take(faults.delays, (rule) => matchesFilter(rule, entry));
  // Unref'd: the open request keeps the process alive, a closed server does not wait for it.
  if (delay) {
    entry.delayedMs = delay.ms;
    await new Promise((resolve) => setTimeout(resolve, delay.ms).unref());
  }
  if (res.destroyed) return;

  const fault = injectedFault(faults, entry, route, req.headers.authorization);
  if (fault) {
    entry.injected = fault.injected;
    return sendStatus(res, fault.status, fault.headers);
  }

  switch (route.kind) {
    case 'discovery':
      return sendJson(res, 200, JSON.stringify(route.body));
    case 'openapi':
      return sendOpenApi(res, req.headers.accept);
    case 'notFound':
      return sendStatus(res, pathNotFound());
    case 'pageNotFound':
      return sendJson(res, 404, '404 page not found\n', 'text/plain; charset=utf-8');
    case 'methodNotAllowed':
      return sendStatus(res, kubeStatus(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}));
    case 'resource':
      try {
        await serveResource(ctx, route, url, req, res);
      } catch (error) {
        if (error instanceof TestApiServerError) return sendStatus(res, error.status);
        throw error;
      }
  }
}

function routeOf(ctx: ServerContext, method: string, url: URL, host: string): Route {
  const segments = url.pathname.split('/').filter((s) => s !== '').map(decodeURIComponent);
  const collections = [...ctx.store.collections()];
  const discovery = (body: unknown): Route => (body === undefined ? { kind: 'notFound' } : method === 'GET' ? { kind: 'discovery', body } : { kind: 'methodNotAllowed' });
  const [root, a, b] = segments;
  if (root === 'version' && segments.length === 1) return discovery(versionInfo());
  if ((root === 'healthz' || root === 'readyz' || root === 'livez') && segments.length === 1) return discovery('ok');
  if (root === 'openapi' && a === 'v2' && segments.length === 2) return { kind: 'openapi' };
  if (root === 'api') {
    if (segments.length === 1) return discovery(coreVersions(host));
    if (a === 'v1' && segments.length === 2) return discovery(resourceList(collections, '', 'v1'));
    if (a === 'v1') return routeResource(ctx.store, method, segments.slice(2), '', 'v1', url.searchParams);
  }
  if (root === 'apis') {
    if (segments.length === 1) return discovery(groupList(collections));
    // A group or group version nothing serves (a CRD's, once deleted) is not the API's: the mux answers.
    if (a !== undefined && segments.length === 2) return apiGroup(collections, a) === undefined ? { kind: 'pageNotFound' } : discovery(apiGroup(collections, a));
    if (a !== undefined && b !== undefined && segments.length === 3) return resourceList(collections, a, b) === undefined ? { kind: 'pageNotFound' } : discovery(resourceList(collections, a, b));
    if (a !== undefined && b !== undefined) {
      if (!collections.some((c) => c.resource.group === a && c.resource.version === b)) return { kind: 'pageNotFound' };
      return routeResource(ctx.store, method, segments.slice(3), a, b, url.searchParams);
    }
  }
  // Under /api and /version a web service of the real server claims the path and answers a Status;
  // any other path (`/nope`) falls through to its mux, which answers `404 page not found` as text.
  return root === undefined || root === 'api' || root === 'version' ? { kind: 'notFound' } : { kind: 'pageNotFound' };
}

async function serveResource(ctx: ServerContext, route: ResourceRoute, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { collection, namespace, name } = route;
  const target = { collection, namespace, name, subresource: route.subresource };
  const accept = req.headers.accept;
  const list = route.verb === 'list' || route.verb === 'deletecollection';
  const representation = negotiate(accept, list);
  if (representation === undefined) {
    return sendStatus(res, kubeStatus(406, 'NotAcceptable', `only the following media types are accepted: application/json, application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json;as=Table;g=meta.k8s.io;v=v1`, {}));
  }
  const metadataOnly = representation === 'metadata';
  const one = (stored: StoredObject, status = 200): void => {
    if (representation === 'table') return sendJson(res, status, JSON.stringify(tableOf(collection.resource.kind, [stored], String(stored.rv), undefined, url.searchParams.get('includeObject'), true)), tableType);
    sendJson(res, status, metadataOnly ? metadataJsonOf(stored) : jsonOf(stored), metadataOnly ? metadataType : undefined);
  };
  switch (route.verb) {
    case 'list': {
      const options = parseListOptions(listQuery(ctx, url.searchParams), collection);
      const result = serveList(ctx, collection, namespace, options, metadataOnly, representation === 'table' ? url.searchParams.get('includeObject') : undefined);
      return sendStream(res, result.parts, representation === 'table' ? tableType : metadataOnly ? metadataListType : undefined);
    }
    case 'watch': {
      const options = parseListOptions(listQuery(ctx, url.searchParams), collection, name);
      return serveWatch(ctx, res, collection, namespace, options, metadataOnly, representation === 'table' ? url.searchParams.get('includeObject') ?? 'Metadata' : undefined);
    }
    case 'get':
      return one(getObject(target));
    case 'create': {
      const body = await readJson(req);
      const rv = (body as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
      // As the real server words it (an internal error, not a 400); the control API ignores it instead.
      if (rv !== undefined && rv !== '') return sendStatus(res, kubeStatus(500, '', 'resourceVersion should not be set on objects to be created'));
      return one(createObject(ctx.store, target, body), 201);
    }
    case 'update':
      return one(replaceObject(ctx.store, target, await readJson(req)));
    case 'patch': {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
      if (type === 'application/apply-patch+yaml') return one(applyObject(ctx.store, target, await readJson(req, false, true), url.searchParams));
      return one(patchObject(ctx.store, target, req.headers['content-type'], await readJson(req, false, true)));
    }
    case 'delete':
      return one(deleteObject(ctx.store, target, await readJson(req, true)));
    case 'deletecollection': {
      const options = parseListOptions(url.searchParams, collection);
      const doomed = [...ctx.store.objectsAt(collection, ctx.store.currentRV, namespace, undefined)].filter((s) => options.labels(s.object.metadata?.labels) && options.fields(s.object));
      const deleted = doomed.map((s) => deleteObject(ctx.store, { ...target, namespace: s.namespace, name: s.object.metadata?.name }, undefined));
      const items = deleted.map((s) => '{' + jsonOf(s).slice(collection.typePrefixLength)).join(',');
      return sendJson(res, 200, `{"kind":"${collection.resource.kind}List","apiVersion":"${collection.apiVersion}","metadata":{"resourceVersion":"${ctx.store.currentRV}"},"items":[${items}]}`);
    }
  }
}

/**
 * `/openapi/v2` with no definitions: kubectl downloads it to validate manifests and skips types it
 * has no schema for. Served as protobuf (a gnostic Document with only `swagger: "2.0"`) when asked,
 * which is how kubectl asks.
 */
function sendOpenApi(res: ServerResponse, accept: string | undefined): void {
  if (accept?.includes('application/com.github.proto-openapi.spec.v2')) {
    const body = Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]);
    // The real server answers with ".v1.0" (Go's mime parser rejects the "@v1.0" clients ask for).
    res.writeHead(200, { 'Content-Type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'Content-Length': body.length });
    res.end(body);
    return;
  }
  sendJson(res, 200, JSON.stringify({ swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.34.0' }, paths: {}, definitions: {} }));
}

const metadataType = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const metadataListType = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const tableType = 'application/json;as=Table;g=meta.k8s.io;v=v1';

/**
 * The fault a request meets, in the order the real failures would: an injected failure (`failNext`,
 * consumed), then a missing or wrong bearer token (401), then a `forbid` rule (403). `undefined`:
 * none, serve it. Delays are applied before, by the caller.
 */
function injectedFault(
  faults: FaultState,
  entry: MutableRequestLogEntry,
  route: Route,
  authorization: string | undefined,
): { readonly injected: 'fail' | 'unauthorized' | 'forbidden'; readonly status: KubeStatus; readonly headers?: Record<string, string> } | undefined {
  const resourceRoute = route.kind === 'resource' ? route : undefined;
  const forbidden = (): KubeStatus =>
    resourceRoute
      ? forbiddenStatus(faults.userName, entry, resourceRoute.collection.resource.group, resourceRoute.collection.resource.plural, resourceRoute.subresource)
      : kubeStatus(403, 'Forbidden', 'forbidden');
  const failure = take(faults.failures, (rule) => matchesFilter(rule, entry));
  if (failure) {
    const headers: Record<string, string> = {};
    if (failure.status === 429 || (failure.status === 503 && failure.retryAfterSeconds !== undefined)) headers['Retry-After'] = String(failure.retryAfterSeconds ?? 1);
    return { injected: 'fail', status: failureStatus(failure, entry.verb, entry.query['continue'] !== undefined, forbidden), headers };
  }
  if (faults.token !== undefined && authorization !== `Bearer ${faults.token}`) return { injected: 'unauthorized', status: unauthorizedStatus };
  if (resourceRoute && faults.forbids.some((rule) => forbids(rule, resourceRoute))) return { injected: 'forbidden', status: forbidden() };
  return undefined;
}

function forbids(rule: ForbidRule, route: ResourceRoute): boolean {
  if (rule.verbs !== undefined && !rule.verbs.includes(route.verb)) return false;
  if (rule.resource !== undefined && rule.resource !== route.collection.id) return false;
  return rule.namespace === undefined || rule.namespace === route.namespace;
}

function take<R extends { count?: number }>(rules: { rule: R; left: number }[], matches: (rule: R) => boolean): R | undefined {
  const index = rules.findIndex((r) => matches(r.rule));
  if (index < 0) return undefined;
  const found = rules[index]!;
  found.left--;
  if (found.left <= 0) rules.splice(index, 1);
  return found.rule;
}

/**
 * Reads a request body as JSON. `patch` bodies are checked against their patch type by the patch
 * handlers; any other body must be `application/json` (or say nothing of its type).
 */
async function readJson(req: IncomingMessage, optional = false, patch = false): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new TestApiServerError(kubeStatus(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${maxBodyBytes}`));
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') {
    if (optional) return undefined;
    throw new TestApiServerError(badRequest('the request body is empty: expected a JSON object'));
  }
  // A body in a media type this server does not read (kubectl sends built-in types as protobuf):
  // 415, as kube-apiserver answers one it cannot decode, on which client-go retries as JSON.
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!patch && mediaType !== '' && mediaType !== 'application/json') {
    throw new TestApiServerError(kubeStatus(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json'));
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new TestApiServerError(badRequest(`the request body is not valid JSON: ${(error as Error).message}`));
  }
}

/** Sends a JSON body with a status. @internal */
export function sendJson(res: ServerResponse, status: number, body: string, contentType = 'application/json', headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-cache, private', ...headers });
  res.end(body);
}

/**
 * Sends a 200 body piece by piece as `parts` yields them (chunked, no Content-Length, as the
 * apiserver streams a list it encodes), waiting for the client to drain each piece it cannot take
 * at once; stops when the client goes away. @internal
 */
export async function sendStream(res: ServerResponse, parts: Iterable<string>, contentType = 'application/json'): Promise<void> {
  res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
  for (const part of parts) {
    if (res.destroyed) return;
    if (!res.write(part)) await drained(res);
  }
  if (!res.destroyed) res.end();
}

/** Sends a Status as the body of its `code`. @internal */
export function sendStatus(res: ServerResponse, status: KubeStatus, headers: Record<string, string> = {}): void {
  sendJson(res, status.code, JSON.stringify(status), 'application/json', headers);
}

/** The query a LIST or WATCH is served by: without `shardSelector` when the gate is off (the apiserver then never reads it). */
function listQuery(ctx: ServerContext, query: URLSearchParams): URLSearchParams {
  if (ctx.shardedListAndWatch || !query.has('shardSelector')) return query;
  const without = new URLSearchParams(query);
  without.delete('shardSelector');
  return without;
}
