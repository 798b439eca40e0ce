import type { IncomingMessage } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { finalize, from, Observable, ReplaySubject, Subscription, switchMap, tap, type Subscriber } from 'rxjs';
import { httpGet } from '../../client/httpGet.js';
import { createLineReader } from './lineReader.js';
import { defaultMaxBodyBytes, type BodyLimit } from '../../client/readJson.js';
import { readList } from './readList.js';
import { checkKubeConfig, createRequestContext } from '../../client/requestContext.js';
import { resolveByDiscovery, resolveStatically, type ResolvedResource } from '../../client/resolveResource.js';
import type { KubeObject } from '../../store/kubeObject.js';
import { KubeApiError, malformedLineError, TransportError, type KubeStatus } from '../../errors.js';
import type { ListerWatcher, ListRequest, ListResponse, WatchMessage, WatchRequest } from '../listerWatcher.js';
import type { ListWatchConfig } from '../listWatchConfig.js';
import type { ListWatchResource } from '../../client/listWatchResource.js';
import { wallClock } from '../wallClock.js';
import { optionChecks } from '../../options/optionChecks.js';

const acceptJson = 'application/json';
const acceptMetadataList = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const acceptMetadata = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const OPEN: WatchMessage<never> = { type: 'OPEN' };
const PROGRESS: WatchMessage<never> = { type: 'PROGRESS' };

/**
 * The HTTP {@link ListerWatcher} of a resource: LIST and WATCH requests built from one config
 * (selectors, metadata-only `Accept`), authenticated and TLS-configured from the KubeConfig.
 *
 * List items come back as plain JSON with `kind`/`apiVersion` filled in from the list. Watch
 * streams are split into lines without buffering more than `maxLineBytes`; each line is decoded
 * and parsed once and emitted as parsed (`{type, object}`), an `ERROR` event becomes a
 * {@link KubeApiError}. A 401 makes the next request reload credentials from the KubeConfig.
 *
 * @param kubeConfig A @kubernetes/client-node `KubeConfig` (only its current context is used).
 * @param resource The collection; `{ apiVersion, kind }` of a CRD is resolved by discovery on first use.
 * @param config Selectors, `metadataOnly`, `maxLineBytes`, `maxListBytes`.
 * @see {@link listWatch}, which runs {@link reflector} over this.
 */
export function httpListerWatcher<T = KubeObject>(
  kubeConfig: KubeConfig,
  resource: ListWatchResource,
  config: Pick<ListWatchConfig<T>, 'labelSelector' | 'fieldSelector' | 'metadataOnly' | 'maxLineBytes' | 'maxListBytes' | 'scheduler'> = {},
): ListerWatcher<T> {
  return createHttpListerWatcher(kubeConfig, resource, config, {});
}

/** @internal What a caller learns about the collection as requests answer (the informer factory uses it to recognise one collection named two ways). */
export interface CollectionHooks {
  /** Discovery resolved an `{ apiVersion, kind }`: its group, version and plural. */
  readonly onResolved?: (resource: { readonly group: string; readonly version: string; readonly plural: string }) => void;
  /** A list response named the collection's kind (`<Kind>List`), with its apiVersion. */
  readonly onKind?: (apiVersion: string, kind: string) => void;
}

/** @internal {@link httpListerWatcher} with {@link CollectionHooks}. */
export function createHttpListerWatcher<T = KubeObject>(
  kubeConfig: KubeConfig,
  resource: ListWatchResource,
  config: Pick<ListWatchConfig<T>, 'labelSelector' | 'fieldSelector' | 'metadataOnly' | 'maxLineBytes' | 'maxListBytes' | 'scheduler'>,
  hooks: CollectionHooks,
): ListerWatcher<T> {
  checkKubeConfig(kubeConfig);
  validateResource(resource);
  const check = optionChecks('listWatch', config);
  const maxLineBytes = check.positiveInteger('maxLineBytes', config.maxLineBytes) ?? 16 * 1024 * 1024;
  const maxListBytes = check.positiveInteger('maxListBytes', config.maxListBytes) ?? defaultMaxBodyBytes;
  const listLimit: BodyLimit = { bytes: maxListBytes, option: 'maxListBytes' };
  const scheduler = config.scheduler;
  const now = scheduler === undefined ? wallClock : () => scheduler.now();
  const context = createRequestContext(kubeConfig);
  // R6: watch objects of another kind are dropped. Known up front for { apiVersion, kind } and
  // metadata-only; otherwise learned from the list response.
  let expectedKind: string | undefined = config.metadataOnly ? 'PartialObjectMetadata' : 'kind' in resource ? resource.kind : undefined;
  let kindTold = false;
  const learnKind = (body: unknown): ListResponse<T> => {
    const { kind, apiVersion } = (body ?? {}) as { kind?: unknown; apiVersion?: unknown };
    if (typeof kind === 'string' && kind.endsWith('List') && kind !== 'PartialObjectMetadataList') {
      if (expectedKind === undefined) expectedKind = kind.slice(0, -4);
      if (!kindTold && typeof apiVersion === 'string') {
        kindTold = true;
        hooks.onKind?.(apiVersion, kind.slice(0, -4));
      }
    }
    return toListResponse<T>(body);
  };
  let resolved: ResolvedResource | undefined = resolveStatically(resource);
  const resolve = (): Observable<ResolvedResource> =>
    resolved
      ? from([resolved])
      : resolveByDiscovery(context, resource as ListWatchResource & { apiVersion: string; kind: string }).pipe(
          tap((r) => {
            resolved = r;
            hooks.onResolved?.(r);
          }),
        );

  const selectors = (query: URLSearchParams): void => {
    if (config.labelSelector) query.set('labelSelector', config.labelSelector);
    if (config.fieldSelector) query.set('fieldSelector', config.fieldSelector);
  };

  const listPath = (target: ResolvedResource, request: ListRequest): string => {
    const query = new URLSearchParams();
    selectors(query);
    if (request.resourceVersion) query.set('resourceVersion', request.resourceVersion);
    if (request.resourceVersionMatch) query.set('resourceVersionMatch', request.resourceVersionMatch);
    if (request.limit !== undefined) query.set('limit', String(request.limit));
    if (request.continue) query.set('continue', request.continue);
    const qs = query.toString();
    return qs ? `${target.path}?${qs}` : target.path;
  };
  const getList = (target: ResolvedResource, path: string, peekHead?: (head: unknown) => void): Observable<ListResponse<T>> =>
    httpGet<ListResponse<T>>(
      context,
      path,
      config.metadataOnly ? acceptMetadataList : acceptJson,
      { verb: 'list', resource: target.name, namespace: target.namespace },
      (response, subscriber) => readList(response, subscriber, learnKind, 'list', peekHead, listLimit),
    );

  // Paging is serial (each page names the next), so the server used to sit idle while a page was
  // received and parsed, and the client while the next one was built. Now, as soon as a page's head
  // shows its continue token, the next page is requested (and it, in turn, requests the one after
  // it); the reflector's next list() call, always for exactly that page, adopts the request in
  // flight. A prefetch not adopted when the page that started it is torn down (an error, a relist,
  // unsubscribing) is aborted, with any prefetch it started.
  interface Pending {
    readonly response: ReplaySubject<ListResponse<T>>;
    request: Subscription;
    /** The path of the page this one's head prefetched, if any. */
    next?: string;
  }
  const prefetched = new Map<string, Pending>();
  const dropNext = (owner: { next?: string }): void => {
    const path = owner.next;
    const left = path === undefined ? undefined : prefetched.get(path);
    if (left === undefined) return;
    prefetched.delete(path!);
    left.request.unsubscribe();
    dropNext(left);
  };
  // A page's request is torn down as it completes, before the reflector (in the same call stack,
  // once the surrounding switchMap completes) asks for the next page: decide a microtask later.
  const dropNextLater = (owner: { next?: string }): void => {
    if (owner.next !== undefined) queueMicrotask(() => dropNext(owner));
  };
  const fetchPage = (target: ResolvedResource, path: string, limit: number | undefined, owner: { next?: string }): Observable<ListResponse<T>> =>
    getList(
      target,
      path,
      limit === undefined
        ? undefined
        : (head) => {
            const token = (head as { metadata?: { continue?: unknown } } | null)?.metadata?.continue;
            if (typeof token !== 'string' || token === '') return;
            const next = listPath(target, { limit, continue: token });
            if (prefetched.has(next)) return;
            owner.next = next;
            const pending: Pending = { response: new ReplaySubject<ListResponse<T>>(1), request: Subscription.EMPTY };
            prefetched.set(next, pending);
            pending.request = fetchPage(target, next, limit, pending).subscribe(pending.response);
          },
    );

  return {
    closeIdleConnections: () => context.closeIdleConnections(),
    list: (request: ListRequest) =>
      resolve().pipe(
        switchMap((target) => {
          const path = listPath(target, request);
          const ready = prefetched.get(path);
          if (ready !== undefined) {
            prefetched.delete(path);
            return new Observable<ListResponse<T>>((subscriber) => {
              const inner = ready.response.subscribe(subscriber);
              return () => {
                inner.unsubscribe();
                ready.request.unsubscribe();
                dropNextLater(ready);
              };
            });
          }
          const owner: { next?: string } = {};
          return fetchPage(target, path, request.limit, owner).pipe(finalize(() => dropNextLater(owner)));
        }),
      ),
    watch: (request: WatchRequest) =>
      resolve().pipe(
        switchMap((target) => {
          const query = new URLSearchParams({ watch: 'true' });
          selectors(query);
          if (request.resourceVersion) query.set('resourceVersion', request.resourceVersion);
          if (request.resourceVersionMatch) query.set('resourceVersionMatch', request.resourceVersionMatch);
          if (request.sendInitialEvents) query.set('sendInitialEvents', 'true');
          query.set('allowWatchBookmarks', 'true');
          query.set('timeoutSeconds', String(request.timeoutSeconds));
          const where = { verb: 'watch', resource: target.name, namespace: target.namespace };
          return httpGet<WatchMessage<T>>(
            context,
            `${target.path}?${query.toString()}`,
            config.metadataOnly ? acceptMetadata : acceptJson,
            where,
            (response, subscriber) => readWatch(response, subscriber, maxLineBytes, where, expectedKind, now),
          );
        }),
      ),
  };
}

function toListResponse<T>(body: unknown): ListResponse<T> {
  const list = body as {
    kind?: unknown;
    apiVersion?: unknown;
    items?: unknown;
    metadata?: { resourceVersion?: unknown; continue?: unknown; remainingItemCount?: unknown };
  } | null;
  if (list === null || typeof list !== 'object' || !Array.isArray(list.items)) {
    throw new TypeError('not a Kubernetes list');
  }
  const items = list.items as Array<Record<string, unknown>>;
  const listKind = typeof list.kind === 'string' && list.kind.endsWith('List') ? list.kind.slice(0, -4) : undefined;
  const apiVersion = typeof list.apiVersion === 'string' ? list.apiVersion : undefined;
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    if (item['kind'] === undefined && listKind) item['kind'] = listKind;
    if (item['apiVersion'] === undefined && apiVersion) item['apiVersion'] = apiVersion;
  }
  const meta = list.metadata ?? {};
  const response: { -readonly [K in keyof ListResponse<T>]: ListResponse<T>[K] } = {
    items: items as unknown as T[],
    resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '',
  };
  if (typeof meta.continue === 'string' && meta.continue !== '') response.continue = meta.continue;
  if (typeof meta.remainingItemCount === 'number') response.remainingItemCount = meta.remainingItemCount;
  return response;
}

function readWatch<T>(
  response: IncomingMessage,
  subscriber: Subscriber<WatchMessage<T>>,
  maxLineBytes: number,
  where: { verb: string; resource: string; namespace: string | undefined },
  expectedKind: string | undefined,
  now: () => number,
): void {
  subscriber.next(OPEN);
  // When the chunk being cut into lines arrived: every event in it arrived then (read once a chunk).
  let arrivedAt = 0;
  const reader = createLineReader(maxLineBytes, (line) => {
    let event: { type?: unknown; object?: unknown };
    try {
      event = JSON.parse(line) as typeof event;
    } catch (error) {
      throw malformedLineError(line, error);
    }
    const type = event?.type;
    if (event === null || typeof event !== 'object' || event.object === null || typeof event.object !== 'object') {
      throw malformedLineError(line);
    }
    if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED' || type === 'BOOKMARK') {
      const kind = (event.object as { kind?: unknown }).kind;
      if (expectedKind !== undefined && type !== 'BOOKMARK' && typeof kind === 'string' && kind !== expectedKind) return;
      if (type !== 'BOOKMARK') (event as { receivedAt?: number }).receivedAt = arrivedAt;
      subscriber.next(event as WatchMessage<T>);
    } else if (type === 'ERROR') {
      const status = event.object as KubeStatus;
      throw new KubeApiError({ ...where, code: typeof status.code === 'number' ? status.code : 500, status });
    } else {
      throw malformedLineError(line);
    }
  });
  const onData = (chunk: Buffer): void => {
    if (subscriber.closed) return;
    arrivedAt = now();
    try {
      if (!reader.push(chunk)) subscriber.next(PROGRESS);
    } catch (error) {
      response.off('data', onData);
      response.destroy();
      subscriber.error(error);
    }
  };
  response.on('data', onData);
  response.on('end', () => {
    // A body that ends inside a line was cut short: say so (the watch resumes from the last RV).
    const held = reader.pending();
    if (held > 0 && !subscriber.closed) {
      subscriber.error(new TransportError(where.verb, `the stream ended inside an event line (${held} bytes dropped)`, { code: 'ECONNRESET' }));
    } else subscriber.complete();
  });
  response.on('close', () => {
    if (!response.complete && !subscriber.closed) {
      subscriber.error(new TransportError(where.verb, 'the connection closed mid-stream', { code: 'ECONNRESET' }));
    }
  });
}

function validateResource(resource: ListWatchResource): void {
  if (resource === null || typeof resource !== 'object') throw new TypeError('[informer] resource must be an object');
  if ('plural' in resource) {
    if (typeof resource.plural !== 'string' || resource.plural === '' || typeof resource.version !== 'string' || resource.version === '') {
      throw new TypeError('[informer] resource needs a version and a plural, e.g. { version: "v1", plural: "configmaps" }');
    }
  } else if (typeof resource.apiVersion !== 'string' || resource.apiVersion === '' || typeof resource.kind !== 'string' || resource.kind === '') {
    throw new TypeError('[informer] resource needs { version, plural } or { apiVersion, kind }');
  }
}
