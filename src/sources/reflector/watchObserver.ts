/**
 * The per-event path of a watch: every ADDED / MODIFIED / DELETED / BOOKMARK passes here, at up to
 * ~100k events/s, so it allocates nothing it does not emit and never goes through the state
 * machine. Only the rare moments — the watch opened, a streaming list's initial-events-end
 * bookmark, the watch ended — become inputs of {@link reflectorStep}.
 */
import type { Observer, Subscriber } from 'rxjs';
import { metaNamespaceKey } from '../../store/keyFunc.js';
import type { KubeObject } from '../../store/kubeObject.js';
import { resourceVersionOf } from '../../store/resourceVersionOf.js';
import type { WatchMessage, WatchRequest } from '../listerWatcher.js';
import type { RawEvent } from '../rawEvent.js';
import { propagatesFromStart } from './reflectorRequests.js';
import type { ReflectorInput } from './reflectorState.js';

const initialEventsEnd = 'k8s.io/initial-events-end';
const opened = { type: 'opened' } as const;

/** The observer of the current watch request; {@link WatchObserver.begin} resets it for the next one. */
export interface WatchObserver<T> extends Observer<WatchMessage<T>> {
  /**
   * A new watch request: counters back to zero, the RV cursor at `lastSyncRV`, and for a streaming
   * list (`sendInitialEvents`) a fresh temporary map (R11).
   */
  begin(request: WatchRequest, lastSyncRV: string): void;
}

/** What the watch path needs from the runtime. */
export interface WatchObserverContext<T> {
  readonly subscriber: Subscriber<RawEvent<T>>;
  /** `transform`, wrapped so that a throw is a {@link TransformError}; the identity when none. */
  readonly transform: (object: T) => T;
  /** Feeds an input to the state machine and performs its effects. */
  readonly input: (input: ReflectorInput<T>) => void;
  /** Aborts the current request (an object without a name during a streaming list). */
  readonly cancel: () => void;
  readonly now: () => number;
}

/**
 * R6: emit, transform, and move the last synced RV by client-go's rule (`propagateRVFromStart ||
 * eventReceivedBesidesAdded`); R11: before the initial-events-end bookmark, collect into a
 * temporary map by key instead.
 */
export function createWatchObserver<T>(context: WatchObserverContext<T>): WatchObserver<T> {
  const { subscriber, transform, input, cancel, now } = context;
  let temp: Map<string, T> | undefined; // set only before a streaming list's bookmark
  let propagate = false;
  let besidesAdded = false;
  let events = 0;
  let isOpen = false;
  let started = 0;
  let lastRV = '';

  const ended = (error: unknown): void =>
    input({ type: 'watchEnded', error, opened: isOpen, events, durationMs: now() - started, resourceVersion: lastRV });

  const initial = (map: Map<string, T>, message: WatchMessage<T>): void => {
    if (message.type === 'BOOKMARK') {
      if (message.object.metadata?.annotations?.[initialEventsEnd] !== 'true') return;
      const rv = message.object.metadata?.resourceVersion ?? '';
      const items = [...map.values()];
      temp = undefined;
      propagate = true; // the same stream goes on as a watch from the bookmark (client-go watchList)
      lastRV = rv;
      input({ type: 'initialEventsEnd', resourceVersion: rv, items });
      return;
    }
    if (message.type !== 'ADDED' && message.type !== 'MODIFIED' && message.type !== 'DELETED') return;
    let key: string;
    try {
      key = metaNamespaceKey(message.object as KubeObject);
    } catch (error) {
      cancel();
      ended(error);
      return;
    }
    if (message.type === 'DELETED') map.delete(key);
    else map.set(key, transform(message.object));
  };

  return {
    begin(request, lastSyncRV) {
      temp = request.sendInitialEvents ? new Map() : undefined;
      propagate = propagatesFromStart(request);
      besidesAdded = false;
      events = 0;
      isOpen = false;
      started = now();
      lastRV = lastSyncRV;
    },
    next(message) {
      switch (message.type) {
        case 'OPEN':
          isOpen = true;
          input(opened);
          return;
        case 'PROGRESS':
          return;
      }
      events++;
      if (temp !== undefined) return initial(temp, message);
      if (message.type === 'BOOKMARK') {
        const meta = message.object.metadata;
        const rv = meta?.resourceVersion;
        besidesAdded = true;
        if (rv === undefined) return;
        lastRV = rv;
        subscriber.next(
          meta?.annotations?.[initialEventsEnd] === 'true'
            ? { type: 'BOOKMARK', resourceVersion: rv, initialEventsEnd: true }
            : { type: 'BOOKMARK', resourceVersion: rv },
        );
        return;
      }
      if (message.type !== 'ADDED') besidesAdded = true;
      const rv = resourceVersionOf(message.object);
      const object = transform(message.object);
      subscriber.next(object === message.object ? message : message.receivedAt === undefined ? { type: message.type, object } : { type: message.type, object, receivedAt: message.receivedAt });
      if ((propagate || besidesAdded) && rv !== undefined) lastRV = rv;
    },
    error: (error: unknown) => ended(error),
    complete: () => ended(undefined),
  };
}
