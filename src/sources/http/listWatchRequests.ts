import type { ResolvedResource } from '../../client/resolveResource.js';
import type { ListRequest, WatchRequest } from '../listerWatcher.js';
import type { ListWatchConfig } from '../listWatchConfig.js';

/** What shapes a collection's LIST and WATCH requests besides the request itself. */
export type RequestShape = Pick<ListWatchConfig<unknown>, 'labelSelector' | 'fieldSelector' | 'metadataOnly'>;

const acceptJson = 'application/json';
const acceptMetadataList = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const acceptMetadata = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/** The `Accept` header of a LIST (`list`) or WATCH (`watch`): JSON, or `PartialObjectMetadata(List)` when metadata only. */
export function acceptOf(shape: RequestShape, verb: 'list' | 'watch'): string {
  if (!shape.metadataOnly) return acceptJson;
  return verb === 'list' ? acceptMetadataList : acceptMetadata;
}

function selectors(shape: RequestShape, query: URLSearchParams): void {
  if (shape.labelSelector) query.set('labelSelector', shape.labelSelector);
  if (shape.fieldSelector) query.set('fieldSelector', shape.fieldSelector);
}

/** The path and query of one LIST page: selectors, resourceVersion (and its match), limit, continue. Pure. */
export function listPath(target: ResolvedResource, shape: RequestShape, request: ListRequest): string {
  const query = new URLSearchParams();
  selectors(shape, query);
  if (request.resourceVersion) query.set('resourceVersion', request.resourceVersion);
  if (request.resourceVersionMatch) query.set('resourceVersionMatch', request.resourceVersionMatch);
  if (request.limit !== undefined) query.set('limit', String(request.limit));
  if (request.continue) query.set('continue', request.continue);
  const qs = query.toString();
  return qs ? `${target.path}?${qs}` : target.path;
}

/** The path and query of a WATCH: selectors, resourceVersion (and its match), streaming list, bookmarks, the server-side timeout. Pure. */
export function watchPath(target: ResolvedResource, shape: RequestShape, request: WatchRequest): string {
  const query = new URLSearchParams({ watch: 'true' });
  selectors(shape, query);
  if (request.resourceVersion) query.set('resourceVersion', request.resourceVersion);
  if (request.resourceVersionMatch) query.set('resourceVersionMatch', request.resourceVersionMatch);
  if (request.sendInitialEvents) query.set('sendInitialEvents', 'true');
  query.set('allowWatchBookmarks', 'true');
  query.set('timeoutSeconds', String(request.timeoutSeconds));
  return `${target.path}?${query.toString()}`;
}
