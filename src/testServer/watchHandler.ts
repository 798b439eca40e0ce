import type { ServerResponse } from 'node:http';
import type { ChangeEntry } from './changeLog.js';
import { createLineWriter } from './lineWriter.js';
import type { ListOptions } from './listOptions.js';
import { tooLargeResourceVersion, tooOldResourceVersion, type KubeStatus } from './kubeStatus.js';
import type { Collection } from './objectStore.js';
import type { StoredObject } from './storedObject.js';
import type { OpenWatch, ServerContext } from './serverContext.js';
import { watchEncoding } from './watchEncoding.js';
import { watchStart } from './watchStart.js';

/**
 * Serves a WATCH: a 200 chunked stream of `{"type":…,"object":…}` lines. Replays the change log
 * after `resourceVersion` (or sends the current objects as ADDED for "" / "0" / sendInitialEvents),
 * then live changes; bookmarks on the cadence and before the timeout; in-stream ERROR 410 for a
 * compacted resourceVersion. Selectors filter, turning updates that enter or leave the selection
 * into ADDED / DELETED like the real server.
 *
 * Where the watch starts is {@link watchStart} and how it writes objects {@link watchEncoding};
 * what stays here is one watch's own state (its writer, timers, listener, `finished`) and the few
 * lines each part of it needs, which is why the function stays over 80 lines.
 *
 * @internal
 */
export function serveWatch(
  ctx: ServerContext,
  res: ServerResponse,
  collection: Collection,
  namespace: string | undefined,
  options: ListOptions,
  metadataOnly: boolean,
  tableIncludeObject?: string,
): void {
  const { store, timing } = ctx;
  const { contentType, objectJson, bookmarkJson } = watchEncoding(collection, metadataOnly, tableIncludeObject);
  res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  const writer = createLineWriter(res, () => ctx.splitBytes());
  const timers: NodeJS.Timeout[] = [];
  let finished = false;

  const matches = (stored: StoredObject | undefined): boolean =>
    stored !== undefined &&
    (namespace === undefined || stored.namespace === namespace) &&
    options.labels(stored.object.metadata?.labels) &&
    options.fields(stored.object);
  const sendEvent = (type: string, json: string): void => writer.send(`{"type":"${type}","object":${json}}\n`);
  const bookmark = (): void => {
    if (options.allowWatchBookmarks && !finished) sendEvent('BOOKMARK', bookmarkJson(store.currentRV, false));
  };

  const onChange = (entry: ChangeEntry): void => {
    if (namespace !== undefined && entry.object.namespace !== namespace) return;
    const now = entry.type !== 'DELETED' && matches(entry.object);
    const before = matches(entry.previous);
    if (now && before) sendEvent('MODIFIED', objectJson(entry.object));
    else if (now) sendEvent('ADDED', objectJson(entry.object));
    else if (before) sendEvent('DELETED', objectJson(entry.type === 'DELETED' ? entry.object : movedOut(entry)));
  };

  const finish = (): void => {
    if (finished) return;
    finished = true;
    for (const timer of timers) clearTimeout(timer);
    collection.listeners.delete(onChange);
    ctx.openWatches.delete(handle);
    ctx.watchesChanged();
  };
  const handle: OpenWatch = {
    collection: collection.id,
    close() {
      finish();
      writer.end();
    },
    breakMidLine(reset) {
      const line = `{"type":"BOOKMARK","object":${bookmarkJson(store.currentRV, false)}}\n`;
      finish();
      writer.breakOff(line.slice(0, line.length >> 1), reset);
    },
    writeRaw(text) {
      writer.send(text);
    },
    fail(status) {
      sendEvent('ERROR', JSON.stringify(status));
      handle.close();
    },
  };
  const fail = (status: KubeStatus): void => handle.fail(status);
  ctx.openWatches.add(handle);
  ctx.watchesChanged();
  res.on('close', finish);

  const goLive = (): void => {
    if (finished) return;
    collection.listeners.add(onChange);
    // timeoutSeconds=0 (or absent) means the server's default, as in the real server.
    const timeoutMs = (options.timeoutSeconds || timing.defaultWatchTimeoutSeconds) * 1000;
    timers.push(setTimeout(() => handle.close(), timeoutMs));
    if (options.allowWatchBookmarks) {
      timers.push(setInterval(bookmark, timing.bookmarkIntervalMs));
      if (timeoutMs > timing.bookmarkLeadMs) timers.push(setTimeout(bookmark, timeoutMs - timing.bookmarkLeadMs));
    }
  };
  // The objects are chosen now; their lines are made as the client reads them (tables at once: only
  // the first one carries the columns, and a live event must not take them).
  const sendCurrent = (): void => {
    const current: StoredObject[] = [];
    for (const stored of store.objectsAt(collection, store.currentRV, namespace, undefined)) if (matches(stored)) current.push(stored);
    const line = (stored: StoredObject): string => `{"type":"ADDED","object":${objectJson(stored)}}\n`;
    writer.sendAll(tableIncludeObject === undefined ? lazyMap(current, line) : current.map(line));
  };
  const start = (waited: boolean): void => {
    const decided = watchStart(options, store.currentRV, store.log.floor, waited);
    switch (decided.type) {
      case 'wait':
        // The real server waits a little for the RV to arrive, then fails the watch in-stream.
        timers.push(setTimeout(() => finished || start(true), timing.tooLargeResourceVersionWaitMs));
        return;
      case 'tooLarge':
        return fail(tooLargeResourceVersion(options.resourceVersion!, String(store.currentRV)));
      case 'tooOld':
        return fail(tooOldResourceVersion(options.resourceVersion!, String(store.log.floor + 1)));
      case 'initialEvents':
        sendCurrent();
        sendEvent('BOOKMARK', bookmarkJson(store.currentRV, true));
        return goLive();
      case 'current':
        if (decided.sendCurrent) sendCurrent();
        return goLive();
      case 'replay':
        for (const entry of store.log.since(decided.from)) if (entry.collection === collection.id) onChange(entry);
        return goLive();
    }
  };
  start(false);
}

function* lazyMap<A, B>(items: readonly A[], f: (item: A) => B): Generator<B> {
  for (const item of items) yield f(item);
}

/** A DELETED for an object that left the selection carries its previous state at the new RV (as the cacher does). */
function movedOut(entry: ChangeEntry): StoredObject {
  const previous = entry.previous!;
  const object = { ...previous.object, metadata: { ...previous.object.metadata, resourceVersion: String(entry.rv) } };
  return { key: previous.key, namespace: previous.namespace, rv: entry.rv, object, json: undefined, metadataJson: undefined };
}
