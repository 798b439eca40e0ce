import { from, switchMap, tap, type Observable } from 'rxjs';
import { httpGet } from '../../client/transport/httpGet.js';
import type { HttpTransport } from '../../client/transport/httpTransport.js';
import type { ListWatchResource } from '../../client/listWatchResource.js';
import { defaultMaxBodyBytes, type BodyLimit } from '../../client/transport/readJson.js';
import { resolveByDiscovery, resolveStatically, type ResolvedResource } from '../../client/resolveResource.js';
import type { KubeObject } from '../../store/kubeObject.js';
import type { ListerWatcher, ListRequest, ListResponse, WatchMessage, WatchRequest } from '../listerWatcher.js';
import type { ListWatchConfig } from '../listWatchConfig.js';
import { checkShardSelector, guardShardSelector } from './guardShardSelector.js';
import { argumentError, describe, optionChecks } from '../../options/optionChecks.js';
import { wallClock } from '../wallClock.js';
import { listPages } from './listPages.js';
import { acceptOf, watchPath } from './listWatchRequests.js';
import { readList } from './readList.js';
import { readWatch } from './readWatch.js';
import { toListResponse } from './toListResponse.js';

/** What shapes a transport ListerWatcher's requests and bounds what it reads. */
export type TransportListerWatcherConfig<T> = Pick<ListWatchConfig<T>, 'labelSelector' | 'fieldSelector' | 'shardSelector' | 'metadataOnly' | 'maxLineBytes' | 'maxListBytes' | 'scheduler'>;

/** @internal What a caller learns about the collection as requests answer (the informer factory uses it to recognise one collection named two ways). */
export interface CollectionHooks {
  /** Discovery resolved an `{ apiVersion, kind }`: its group, version and plural. */
  readonly onResolved?: (resource: { readonly group: string; readonly version: string; readonly plural: string }) => void;
  /** A list response named the collection's kind (`<Kind>List`), with its apiVersion. */
  readonly onKind?: (apiVersion: string, kind: string) => void;
}

/**
 * @internal The {@link ListerWatcher} of a resource over any {@link HttpTransport}: LIST pages
 * (parsed as they arrive, the next one prefetched) and WATCH streams (cut into lines, parsed once),
 * requests built from one config (selectors, metadata-only `Accept`). The Node transport of a
 * KubeConfig ({@link httpListerWatcher}) and the fetch transport ({@link fetchListWatch}) both
 * run this, so the protocol rules are written once. `factory` names the caller in option errors.
 */
export function transportListerWatcher<T = KubeObject>(
  transport: HttpTransport,
  resource: ListWatchResource,
  config: TransportListerWatcherConfig<T>,
  hooks: CollectionHooks = {},
  factory = 'listWatch',
): ListerWatcher<T> {
  validateResource(resource);
  const check = optionChecks(factory, config);
  for (const [name, example] of [['labelSelector', 'app=web,tier!=db'], ['fieldSelector', 'metadata.name=x']] as const) {
    const selector: unknown = config[name];
    if (selector !== undefined && typeof selector !== 'string') check.fail(`${name} must be a string, like ${JSON.stringify(example)}, got ${describe(selector)}`);
  }
  const maxLineBytes = check.positiveInteger('maxLineBytes', config.maxLineBytes) ?? 16 * 1024 * 1024;
  const maxListBytes = check.positiveInteger('maxListBytes', config.maxListBytes) ?? defaultMaxBodyBytes;
  const shards = config.shardSelector === undefined ? undefined : checkShardSelector(config.shardSelector);
  const listLimit: BodyLimit = { bytes: maxListBytes, option: 'maxListBytes' };
  const scheduler = config.scheduler;
  const now = scheduler === undefined ? wallClock : () => scheduler.now();
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
      : resolveByDiscovery(transport, resource as ListWatchResource & { apiVersion: string; kind: string }).pipe(
          tap((r) => {
            resolved = r;
            hooks.onResolved?.(r);
          }),
        );
  const page = listPages<T>(
    (target, path, peekHead) =>
      httpGet<ListResponse<T>>(transport, path, acceptOf(config, 'list'), { verb: 'list', resource: target.name, namespace: target.namespace }, (response, subscriber) =>
        readList(response, subscriber, learnKind, 'list', peekHead, listLimit),
      ),
    config,
  );

  const listerWatcher: ListerWatcher<T> = {
    closeIdleConnections: () => transport.closeIdleConnections?.(),
    list: (request: ListRequest) => resolve().pipe(switchMap((target) => page(target, request))),
    watch: (request: WatchRequest) =>
      resolve().pipe(
        switchMap((target) => {
          const where = { verb: 'watch', resource: target.name, namespace: target.namespace };
          return httpGet<WatchMessage<T>>(transport, watchPath(target, config, request), acceptOf(config, 'watch'), where, (response, subscriber) =>
            readWatch(response, subscriber, maxLineBytes, where, () => expectedKind, now),
          );
        }),
      ),
  };
  return shards === undefined ? listerWatcher : guardShardSelector(listerWatcher, shards);
}

function validateResource(resource: ListWatchResource): void {
  if (resource === null || typeof resource !== 'object') throw argumentError('listWatch', 'resource must be an object');
  if ('plural' in resource) {
    if (typeof resource.plural !== 'string' || resource.plural === '' || typeof resource.version !== 'string' || resource.version === '') {
      throw argumentError('listWatch', 'resource needs a version and a plural, e.g. { version: "v1", plural: "configmaps" }');
    }
  } else if (typeof resource.apiVersion !== 'string' || resource.apiVersion === '' || typeof resource.kind !== 'string' || resource.kind === '') {
    throw argumentError('listWatch', 'resource needs { version, plural } or { apiVersion, kind }');
  }
}
