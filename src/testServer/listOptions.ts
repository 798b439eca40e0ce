import { parseFieldSelector, type FieldMatcher } from './fieldSelector.js';
import { TestApiServerError } from './testApiServerError.js';
import { badRequest, kubeStatus } from './kubeStatus.js';
import { parseLabelSelector, SelectorSyntaxError, type SelectorMatcher } from './labelSelector.js';
import type { Collection } from './objectStore.js';
import { parseShardFilter, type ShardFilter } from './shardFilter.js';

/** The query of a LIST or WATCH, parsed and validated as the real server does. @internal */
export interface ListOptions {
  readonly watch: boolean;
  readonly resourceVersion: string | undefined;
  readonly resourceVersionMatch: 'Exact' | 'NotOlderThan' | undefined;
  readonly limit: number | undefined;
  readonly continueToken: string | undefined;
  readonly labels: SelectorMatcher;
  readonly fields: FieldMatcher;
  readonly hasSelector: boolean;
  /** `shardSelector` (KEP-5866), when given. */
  readonly shards: ShardFilter | undefined;
  readonly allowWatchBookmarks: boolean;
  readonly sendInitialEvents: boolean;
  /** `sendInitialEvents=false` was given: a watch from "" / "0" then starts without the synthetic ADDED events. */
  readonly initialEventsDeclined: boolean;
  readonly timeoutSeconds: number | undefined;
}

/**
 * Parses `query` for `collection`.
 *
 * @throws {TestApiServerError} 400 for malformed values or selectors, 422 for combinations the real
 *   server forbids (e.g. `sendInitialEvents` without `resourceVersionMatch=NotOlderThan`).
 */
export function parseListOptions(query: URLSearchParams, collection: Collection, nameFromPath?: string): ListOptions {
  const watchParam = query.get('watch');
  const watch = watchParam === 'true' || watchParam === '1';
  const rv = query.get('resourceVersion') ?? undefined;
  const matchParam = query.get('resourceVersionMatch') || undefined;
  if (matchParam !== undefined && matchParam !== 'Exact' && matchParam !== 'NotOlderThan') {
    throw invalid(`resourceVersionMatch: Unsupported value: "${matchParam}": supported values: "Exact", "NotOlderThan"`);
  }
  if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv)) throw new TestApiServerError(badRequest(`invalid resource version: ${rv}`));
  const limit = parseInteger(query.get('limit'), 'limit');
  const timeoutSeconds = parseInteger(query.get('timeoutSeconds'), 'timeoutSeconds');
  const continueToken = query.get('continue') || undefined;
  const sendInitialEvents = query.get('sendInitialEvents') === 'true';
  const allowWatchBookmarks = query.get('allowWatchBookmarks') === 'true';
  const initialEventsGiven = query.has('sendInitialEvents');
  if (matchParam !== undefined && continueToken !== undefined) throw invalid('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided');
  if (!watch) {
    // As apimachinery's ValidateListOptions.
    if (matchParam !== undefined && (rv === undefined || rv === '')) throw invalid('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (matchParam === 'Exact' && rv === '0') throw invalid('resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
    if (initialEventsGiven) throw invalid('sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list');
    if (continueToken !== undefined && rv !== undefined && rv !== '' && rv !== '0') throw new TestApiServerError(badRequest('specifying resource version is not allowed when using continue'));
  } else {
    // As apimachinery's validateWatchOptions (WatchList enabled).
    if (initialEventsGiven && matchParam !== 'NotOlderThan') throw invalid('resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    if (matchParam !== undefined && !initialEventsGiven) throw invalid('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
    if (matchParam === 'Exact') throw invalid('resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"');
    if (sendInitialEvents && !allowWatchBookmarks) throw invalid('allowWatchBookmarks: Required value: sendInitialEvents requires setting allowWatchBookmarks to true');
  }
  let labels: SelectorMatcher;
  let fields: FieldMatcher;
  const labelSelector = query.get('labelSelector') ?? '';
  let fieldSelector = query.get('fieldSelector') ?? '';
  if (nameFromPath !== undefined) fieldSelector = fieldSelector ? `${fieldSelector},metadata.name=${nameFromPath}` : `metadata.name=${nameFromPath}`;
  try {
    labels = parseLabelSelector(labelSelector);
    fields = parseFieldSelector(fieldSelector, collection.selectableFields);
  } catch (error) {
    if (error instanceof SelectorSyntaxError) throw new TestApiServerError(badRequest(error.message));
    throw error;
  }
  const shards = parseShardFilter(query);
  return {
    watch,
    resourceVersion: rv,
    resourceVersionMatch: matchParam,
    limit: limit !== undefined && limit > 0 ? limit : undefined,
    continueToken,
    labels,
    fields,
    hasSelector: labelSelector.trim() !== '' || fieldSelector.trim() !== '',
    shards,
    allowWatchBookmarks,
    sendInitialEvents,
    initialEventsDeclined: initialEventsGiven && !sendInitialEvents,
    timeoutSeconds,
  };
}

function parseInteger(value: string | null, name: string): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw new TestApiServerError(badRequest(`invalid value for ${name}: "${value}": must be an integer`));
  return Number.parseInt(value, 10);
}

function invalid(message: string): TestApiServerError {
  return new TestApiServerError(kubeStatus(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${message}`, { kind: 'ListOptions', group: 'meta.k8s.io' }));
}
