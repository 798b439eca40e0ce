import { metaNamespaceKey } from '../../store/keyFunc.js';
import type { KubeObject } from '../../store/kubeObject.js';
import { resourceVersionOf } from '../../store/resourceVersionOf.js';
import type { WatchMessage, WatchRequest } from '../listerWatcher.js';
import { TransportError, veryShortWatchError } from '../../errors.js';
import { isExpired, isRetriableWatchError, isTooLargeResourceVersion } from './classifyError.js';
import type { ReflectorRuntime } from './reflectorRuntime.js';

const initialEventsEnd = 'k8s.io/initial-events-end';

/** R5–R9 (and R11 when `streaming`): one watch request and what follows its end. */
export function watchPhase<T>(rt: ReflectorRuntime<T>, streaming: boolean): void {
  const requestRV = streaming && rt.rvUnavailable ? '' : rt.lastSyncRV;
  const started = rt.now();
  let initial = streaming;
  let temp: Map<string, T> | undefined = streaming ? new Map() : undefined;
  let propagate = !(requestRV === '' || requestRV === '0');
  let besidesAdded = false;
  let events = 0;
  let opened = false;
  let currentRV = requestRV;

  const req: WatchRequest = streaming
    ? {
        resourceVersion: requestRV,
        resourceVersionMatch: 'NotOlderThan',
        sendInitialEvents: true,
        allowWatchBookmarks: true,
        timeoutSeconds: rt.timeoutSeconds(),
      }
    : { resourceVersion: requestRV, allowWatchBookmarks: true, timeoutSeconds: rt.timeoutSeconds() };

  if (streaming) {
    rt.emit({ type: 'LIST_START' });
    rt.status({ type: 'LISTING', resourceVersion: requestRV, streaming: true, page: 0, itemsSoFar: 0 });
  }

  const onInitial = (message: WatchMessage<T>): void => {
    const map = temp as Map<string, T>;
    if (message.type === 'BOOKMARK') {
      if (message.object.metadata?.annotations?.[initialEventsEnd] !== 'true') return;
      const rv = message.object.metadata?.resourceVersion ?? '';
      const values = [...map.values()];
      temp = undefined;
      let page = 0;
      for (let i = 0; i < values.length; i += rt.pageSize) {
        page++;
        const items = values.slice(i, i + rt.pageSize);
        rt.emit({ type: 'LIST_PAGE', items, page, itemsSoFar: i + items.length });
      }
      rt.status({ type: 'LISTING', resourceVersion: requestRV, streaming: true, page, itemsSoFar: values.length });
      initial = false;
      propagate = true;
      rt.rvUnavailable = false;
      rt.lastSyncRV = currentRV = rv;
      rt.emit({ type: 'LIST_DONE', resourceVersion: rv });
      rt.status({ type: 'WATCHING', resourceVersion: rv });
      return;
    }
    if (message.type !== 'ADDED' && message.type !== 'MODIFIED' && message.type !== 'DELETED') return;
    let key: string;
    try {
      key = metaNamespaceKey(message.object as KubeObject);
    } catch (error) {
      rt.relistNow('streamingFallback', error, rt.list);
      return;
    }
    if (message.type === 'DELETED') map.delete(key);
    else map.set(key, rt.transform(message.object));
  };

  const onEvent = (message: WatchMessage<T>): void => {
    switch (message.type) {
      case 'OPEN':
        opened = true;
        if (!initial) rt.status({ type: 'WATCHING', resourceVersion: currentRV });
        return;
      case 'PROGRESS':
        return;
    }
    events++;
    if (initial) {
      onInitial(message);
      return;
    }
    if (message.type === 'BOOKMARK') {
      const meta = message.object.metadata;
      const rv = meta?.resourceVersion;
      besidesAdded = true;
      if (rv === undefined) return;
      rt.lastSyncRV = rv;
      rt.emit(meta?.annotations?.[initialEventsEnd] === 'true'
        ? { type: 'BOOKMARK', resourceVersion: rv, initialEventsEnd: true }
        : { type: 'BOOKMARK', resourceVersion: rv });
      return;
    }
    if (message.type !== 'ADDED') besidesAdded = true;
    const rv = resourceVersionOf(message.object);
    const object = rt.transform(message.object);
    rt.emit(object === message.object ? message : { type: message.type, object });
    if ((propagate || besidesAdded) && rv !== undefined) rt.lastSyncRV = rv;
  };

  const ended = (error: unknown): void => {
    const stalled = error instanceof TransportError && error.reason === 'stalled';
    const closed =
      error === undefined ||
      stalled ||
      (error instanceof TransportError && error.reason === 'network' && opened && error.code !== 'ECONNREFUSED');
    const duration = rt.now() - started;
    // A stalled watch was cut by the watchdog, not by the server: never "very short".
    const veryShort = duration < 1000 && events === 0 && !stalled;
    if (initial) {
      if (closed && !veryShort) {
        // R11: the stream stopped before the bookmark: a fresh attempt, fresh buffer.
        if (error !== undefined) rt.reportError(error);
        rt.relist('streamingRetry');
      } else if (!closed && isRetriableWatchError(error)) {
        rt.backoffThen(rt.reportError(error), 'relist', () => rt.relist('streamingRetry'));
      } else if ((isExpired(error) || isTooLargeResourceVersion(error)) && requestRV !== '') {
        rt.rvUnavailable = true;
        rt.relistNow('streamingRetry', error, () => watchPhase(rt, true));
      } else {
        rt.relistNow('streamingFallback', error ?? veryShortWatchError(duration), rt.list);
      }
      return;
    }
    if (closed) {
      if (error !== undefined) rt.reportError(error);
      if (veryShort) rt.cycleFailed(veryShortWatchError(duration), 'veryShortWatch');
      else watchPhase(rt, false); // R7
      return;
    }
    if (isRetriableWatchError(error)) {
      rt.backoffThen(rt.reportError(error), 'rewatch', () => watchPhase(rt, false)); // R9
      return;
    }
    rt.cycleFailed(error, isExpired(error) ? 'expired' : 'watchError'); // R8
  };

  rt.start(rt.listerWatcher.watch(req), { next: onEvent, error: ended, complete: () => ended(undefined) }, 'watch');
}

