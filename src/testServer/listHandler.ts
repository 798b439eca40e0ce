import { decodeContinue, encodeContinue } from './continueToken.js';
import { TestApiServerError } from './testApiServerError.js';
import { continueTooOldMessage, kubeStatus, tooLargeResourceVersion, tooOldResourceVersion } from './kubeStatus.js';
import type { ListOptions } from './listOptions.js';
import type { Collection } from './objectStore.js';
import type { ServerContext } from './serverContext.js';
import { tableOf } from './table.js';
import { itemJsonOf, metadataJsonOf, type StoredObject } from './storedObject.js';

/**
 * A list response, serialised as it is sent: `parts` yields the body piece by piece (the head with
 * `metadata`, then the items a few dozen kilobytes at a time, then the end), each item's JSON made
 * when its piece is asked for. The items are chosen when the list is served, so the body is the
 * list at its resourceVersion however long the client takes to read it. @internal
 */
export interface ListResult {
  readonly parts: Iterable<string>;
  readonly itemCount: number;
}

/** About how many bytes of items go into one piece of a streamed list body. */
const pieceBytes = 64 * 1024;

/**
 * Serves a LIST: items in key order (`namespace/name`), paginated with `limit`/`continue`, at the
 * resourceVersion the request asks for, filtered by selectors. Items have no kind/apiVersion.
 *
 * `tableIncludeObject` (when not undefined) asks for a Table as `kubectl get` does.
 *
 * @throws {TestApiServerError} 410 for a compacted exact RV or continue token, 504 for an RV from the future.
 * @internal
 */
export function serveList(
  ctx: ServerContext,
  collection: Collection,
  namespace: string | undefined,
  options: ListOptions,
  metadataOnly: boolean,
  tableIncludeObject?: string | null,
): ListResult {
  const { store } = ctx;
  let listRV = store.currentRV;
  let start: string | undefined;
  let limit = options.limit;
  const rv = options.resourceVersion;
  if (options.continueToken !== undefined) {
    const position = decodeContinue(options.continueToken);
    if (position.rv < store.log.floor && position.rv !== store.currentRV) throw new TestApiServerError(kubeStatus(410, 'Expired', continueTooOldMessage));
    if (position.rv > store.currentRV) throw new TestApiServerError(tooLargeResourceVersion(String(position.rv), String(store.currentRV)));
    listRV = position.rv;
    start = position.start;
  } else if (rv !== undefined && rv !== '') {
    const requested = Number(rv);
    if (requested > store.currentRV) throw new TestApiServerError(tooLargeResourceVersion(rv, String(store.currentRV)));
    if (rv === '0' && ctx.ignoreLimitForResourceVersionZero) limit = undefined;
    // As the API concepts table: an RV other than 0 with a limit and no match means Exact.
    const exact = options.resourceVersionMatch === 'Exact' || (options.resourceVersionMatch === undefined && limit !== undefined && rv !== '0');
    if (exact) {
      if (requested < store.log.floor) throw new TestApiServerError(tooOldResourceVersion(rv, String(store.log.floor + 1)));
      listRV = requested;
    }
  }

  const items: StoredObject[] = [];
  let more = false;
  let lastKey: string | undefined;
  for (const stored of store.objectsAt(collection, listRV, namespace, start)) {
    if (options.hasSelector && !(options.labels(stored.object.metadata?.labels) && options.fields(stored.object))) continue;
    // As kube-apiserver 1.36: a shard selector filters, but remainingItemCount is still given (for all objects).
    if (options.shards !== undefined && !options.shards.matches(stored.object)) continue;
    if (limit !== undefined && items.length === limit) {
      more = true;
      break;
    }
    items.push(stored);
    lastKey = stored.key;
  }

  const meta: Record<string, unknown> = { resourceVersion: String(listRV) };
  if (more && lastKey !== undefined) {
    meta['continue'] = encodeContinue(listRV, lastKey);
    if (!options.hasSelector) meta['remainingItemCount'] = remaining(ctx, collection, namespace, listRV, lastKey);
  }
  if (options.shards !== undefined) meta['shardInfo'] = { selector: options.shards.echo };
  if (tableIncludeObject !== undefined) {
    return { parts: [JSON.stringify(tableOf(collection.resource.kind, items, String(listRV), meta['continue'] as string | undefined, tableIncludeObject, true))], itemCount: items.length };
  }
  const kind = metadataOnly ? 'PartialObjectMetadataList' : `${collection.resource.kind}List`;
  const apiVersion = metadataOnly ? 'meta.k8s.io/v1' : collection.apiVersion;
  const head = `{"kind":"${kind}","apiVersion":"${apiVersion}","metadata":${JSON.stringify(meta)},"items":[`;
  const itemJson = (stored: StoredObject): string => (metadataOnly ? metadataJsonOf(stored) : itemJsonOf(stored, collection.typePrefixLength));
  return { parts: listBody(head, items, itemJson), itemCount: items.length };
}

/** Like the apiserver's encoder writing into the response: the head first, items as they are serialised. */
function* listBody(head: string, items: readonly StoredObject[], itemJson: (stored: StoredObject) => string): Generator<string> {
  let piece = head;
  for (let i = 0; i < items.length; i++) {
    piece += i === 0 ? itemJson(items[i]!) : `,${itemJson(items[i]!)}`;
    if (piece.length >= pieceBytes) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]}`;
}

function remaining(ctx: ServerContext, collection: Collection, namespace: string | undefined, listRV: number, lastKey: string): number {
  const after = `${lastKey}\u0000`;
  if (listRV === ctx.store.currentRV) {
    const total = collection.keys.countFrom(after);
    // Keys of later namespaces sort after this one's; "/" + 1 is "0".
    return namespace === undefined ? total : total - collection.keys.countFrom(`${namespace}0`);
  }
  let count = 0;
  for (const _ of ctx.store.objectsAt(collection, listRV, namespace, after)) count++;
  return count;
}
