import { asyncScheduler, Observable, Subscription } from 'rxjs';
import type { Observer } from 'rxjs';
import { createBackoff } from '../internal/backoff.js';
import { isExpired, isPermanent, isRetriableWatchError, isTooLargeResourceVersion, retryAfterMs } from '../internal/classifyError.js';
import { validateReflectorConfig } from '../internal/validateReflectorConfig.js';
import { metaNamespaceKey } from '../store/keyFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import { resourceVersionOf } from '../store/resourceVersionOf.js';
import type { ListerWatcher, ListRequest, ListResponse, WatchMessage, WatchRequest } from './listerWatcher.js';
import type { ListWatchStatus, RelistReason } from './listWatchStatus.js';
import type { RawEvent } from './rawEvent.js';
import type { ReflectorConfig } from './reflectorConfig.js';
import { TransportError } from './transportError.js';
import { VeryShortWatchError } from './veryShortWatchError.js';
import { WatchStalledError } from './watchStalledError.js';

const initialEventsEnd = 'k8s.io/initial-events-end';

/**
 * The client-go Reflector as a cold Observable over a {@link ListerWatcher}: list (paginated), then
 * watch from the list's resourceVersion, forever, following rules R1–R11 of the design.
 *
 * Every list attempt starts with `LIST_START` (also the retry after a 410, and a streaming list), so
 * downstream drops what it buffered. Transient faults never end the stream: they are reported on
 * `onStatus` and retried with backoff. Unsubscribing (or aborting `signal`) aborts the in-flight
 * request and clears every timer.
 *
 * ```text
 * list:   --p1--p2|                       (pages; 410 on a continue page → one full list)
 * watch:           -O-a--b--|  -O-c--     (clean close → re-watch from the last RV, no relist)
 * result: S-P---P-D---a--b-------c--      (S LIST_START, P LIST_PAGE, D LIST_DONE)
 * ```
 *
 * ## Example
 * ```ts
 * import { reflector } from 'rx-informer';
 * reflector(myListerWatcher, { onStatus: (s) => console.log(s.type) }).subscribe((e) => console.log(e.type));
 * // Logs: LISTING, LIST_START, LIST_PAGE, LISTING, LIST_DONE, WATCHING, ADDED, …
 * ```
 *
 * @param listerWatcher The I/O seam: one list page, one watch.
 * @param config Page size, streaming list, transform, backoff, watchdog, status callback, scheduler, signal.
 * @returns A cold Observable of {@link RawEvent}s that errors only on a `transform`/`onStatus` throw or,
 * with `fatalErrors: 'permanent'`, on 403/404; it completes when `signal` aborts.
 * @see {@link listWatch} for the HTTP version.
 */
export function reflector<T = KubeObject>(
  listerWatcher: ListerWatcher<T>,
  config: ReflectorConfig<T> = {},
): Observable<RawEvent<T>> {
  validateReflectorConfig(config);
  return new Observable<RawEvent<T>>((subscriber) => {
    const scheduler = config.scheduler ?? asyncScheduler;
    const now = (): number => scheduler.now();
    const backoff = createBackoff(config.backoff, now);
    const pageSize = config.pageSize ?? 500;
    const idleTimeout = config.idleTimeout ?? 150_000;
    const { transform, onStatus } = config;

    let lastSyncRV = '';
    let rvUnavailable = false;
    let paginatedResult = false;
    let request: Subscription | undefined;
    let timer: Subscription | undefined;
    let watchdog: Subscription | undefined;
    let lastActivity = 0;

    const emit = (event: RawEvent<T>): void => subscriber.next(event);
    const status = (value: ListWatchStatus): void => onStatus?.(value);
    const guard = (fn: () => void): void => {
      try {
        fn();
      } catch (error) {
        subscriber.error(error);
      }
    };
    const xform = (object: T): T => (transform ? transform(object) : object);
    const timeoutSeconds = (): number => config.timeoutSeconds ?? Math.floor(300 + Math.random() * 300);

    /** Runs `source` as THE in-flight request (aborting any previous one), with the idle watchdog. */
    function start<X>(source: Observable<X>, observer: Observer<X>, verb: string): void {
      request?.unsubscribe();
      watchdog?.unsubscribe();
      request = watchdog = undefined;
      if (subscriber.closed) return;
      const holder = new Subscription();
      request = holder;
      const live = (): boolean => request === holder && !subscriber.closed;
      const end = (): void => {
        request = undefined;
        watchdog?.unsubscribe();
        watchdog = undefined;
      };
      lastActivity = now();
      const check = (): void => {
        if (request !== holder) return;
        const idle = now() - lastActivity;
        if (idle < idleTimeout) {
          watchdog = scheduler.schedule(check, idleTimeout - idle);
          return;
        }
        end();
        holder.unsubscribe();
        guard(() => observer.error(new WatchStalledError(verb, idle)));
      };
      watchdog = scheduler.schedule(check, idleTimeout);
      holder.add(
        source.subscribe({
          next: (value) => {
            if (!live()) return;
            lastActivity = now();
            try {
              observer.next(value); // no closure per event: this is the hot path
            } catch (error) {
              subscriber.error(error);
            }
          },
          error: (error: unknown) => {
            if (!live()) return;
            end();
            guard(() => observer.error(error));
          },
          complete: () => {
            if (!live()) return;
            end();
            guard(() => observer.complete());
          },
        }),
      );
    }

    /** Waits a backoff delay, reporting it, then runs `then`. */
    function backoffThen(cause: Error, next: 'relist' | 'rewatch', then: () => void): void {
      if (subscriber.closed) return;
      const step = isPermanent(cause) ? backoff.slow() : backoff.next(retryAfterMs(cause));
      status({ type: 'BACKING_OFF', attempt: step.attempt, delay: step.delay, cause, next });
      timer?.unsubscribe();
      timer = scheduler.schedule(() => {
        timer = undefined;
        guard(then);
      }, step.delay);
    }

    function reportError(error: unknown): Error {
      const err = error instanceof Error ? error : new Error(String(error));
      status({ type: 'ERROR', error: err, permanent: isPermanent(err) });
      return err;
    }

    /** End of a ListAndWatch cycle with an error (R8): backoff, then relist. */
    function cycleFailed(error: unknown, reason: RelistReason): void {
      const err = reportError(error);
      if (isPermanent(err) && config.fatalErrors === 'permanent') {
        subscriber.error(err);
        return;
      }
      backoffThen(err, 'relist', () => relist(reason, err));
    }

    function relist(reason: RelistReason, cause?: Error): void {
      status(cause ? { type: 'RELISTING', reason, cause } : { type: 'RELISTING', reason });
      cycle();
    }

    function cycle(): void {
      if (config.streamingList) openWatch(true);
      else list();
    }

    /** R1/R2: the list RV and whether to page. */
    function list(): void {
      const rv = rvUnavailable ? '' : lastSyncRV === '' ? '0' : lastSyncRV;
      const paged = config.pageSize !== undefined || paginatedResult || rv === '' || rv === '0';
      listFrom(paged ? { resourceVersion: rv, limit: pageSize } : { resourceVersion: rv }, false);
    }

    function listFrom(first: ListRequest, isFullRetry: boolean): void {
      const rv = first.resourceVersion ?? '';
      let page = 0;
      let itemsSoFar = 0;
      let listRV = '';
      emit({ type: 'LIST_START' });
      status({ type: 'LISTING', resourceVersion: rv, streaming: false, page, itemsSoFar });

      const fetchPage = (req: ListRequest): void => {
        let response: ListResponse<T> | undefined;
        start(
          listerWatcher.list(req),
          {
            next: (value) => {
              response = value;
            },
            error: (error: unknown) => failed(error, req.continue !== undefined),
            complete: () => {
              if (!response) {
                failed(new TransportError('list', 'the response ended without a list'), false);
                return;
              }
              page++;
              itemsSoFar += response.items.length;
              if (page === 1) listRV = response.resourceVersion;
              const items = transform ? response.items.map(transform) : response.items;
              const remaining = response.remainingItemCount;
              emit(
                remaining === undefined
                  ? { type: 'LIST_PAGE', items, page, itemsSoFar }
                  : { type: 'LIST_PAGE', items, page, itemsSoFar, remainingItemCount: remaining },
              );
              status(
                remaining === undefined
                  ? { type: 'LISTING', resourceVersion: rv, streaming: false, page, itemsSoFar }
                  : { type: 'LISTING', resourceVersion: rv, streaming: false, page, itemsSoFar, remainingItemCount: remaining },
              );
              if (response.continue) {
                fetchPage(req.limit === undefined ? { continue: response.continue } : { limit: req.limit, continue: response.continue });
              } else {
                done();
              }
            },
          },
          'list',
        );
      };

      const done = (): void => {
        if (rv === '0' && page > 1) paginatedResult = true;
        rvUnavailable = false;
        lastSyncRV = listRV;
        emit({ type: 'LIST_DONE', resourceVersion: listRV });
        openWatch(false);
      };

      const failed = (error: unknown, onContinuePage: boolean): void => {
        if (onContinuePage && !isFullRetry && isExpired(error)) {
          // R3: the continue token expired: one full, unpaginated list at the original RV.
          relistNow('expiredContinue', error, () => listFrom({ resourceVersion: rv }, true));
          return;
        }
        const expired = isExpired(error);
        if ((expired || isTooLargeResourceVersion(error)) && rv !== '') {
          // R3: the RV is unavailable: relist at once with RV "" (quorum read), no backoff.
          rvUnavailable = true;
          relistNow(expired ? 'expired' : 'tooLargeResourceVersion', error, list);
          return;
        }
        cycleFailed(error, 'listError');
      };

      fetchPage(first);
    }

    function relistNow(reason: RelistReason, error: unknown, then: () => void): void {
      const cause = reportError(error);
      status({ type: 'RELISTING', reason, cause });
      then();
    }

    /** R5–R9 (and R11 when `streaming`): one watch request and what follows its end. */
    function openWatch(streaming: boolean): void {
      const requestRV = streaming && rvUnavailable ? '' : lastSyncRV;
      const started = now();
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
            timeoutSeconds: timeoutSeconds(),
          }
        : { resourceVersion: requestRV, allowWatchBookmarks: true, timeoutSeconds: timeoutSeconds() };

      if (streaming) {
        emit({ type: 'LIST_START' });
        status({ type: 'LISTING', resourceVersion: requestRV, streaming: true, page: 0, itemsSoFar: 0 });
      }

      const onInitial = (message: WatchMessage<T>): void => {
        const map = temp as Map<string, T>;
        if (message.type === 'BOOKMARK') {
          if (message.object.metadata?.annotations?.[initialEventsEnd] !== 'true') return;
          const rv = message.object.metadata?.resourceVersion ?? '';
          const values = [...map.values()];
          temp = undefined;
          let page = 0;
          for (let i = 0; i < values.length; i += pageSize) {
            page++;
            const items = values.slice(i, i + pageSize);
            emit({ type: 'LIST_PAGE', items, page, itemsSoFar: i + items.length });
          }
          status({ type: 'LISTING', resourceVersion: requestRV, streaming: true, page, itemsSoFar: values.length });
          initial = false;
          propagate = true;
          rvUnavailable = false;
          lastSyncRV = currentRV = rv;
          emit({ type: 'LIST_DONE', resourceVersion: rv });
          status({ type: 'WATCHING', resourceVersion: rv });
          return;
        }
        if (message.type !== 'ADDED' && message.type !== 'MODIFIED' && message.type !== 'DELETED') return;
        let key: string;
        try {
          key = metaNamespaceKey(message.object as KubeObject);
        } catch (error) {
          relistNow('streamingFallback', error, list);
          return;
        }
        if (message.type === 'DELETED') map.delete(key);
        else map.set(key, xform(message.object));
      };

      const onEvent = (message: WatchMessage<T>): void => {
        switch (message.type) {
          case 'OPEN':
            opened = true;
            if (!initial) status({ type: 'WATCHING', resourceVersion: currentRV });
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
          lastSyncRV = rv;
          emit(meta?.annotations?.[initialEventsEnd] === 'true'
            ? { type: 'BOOKMARK', resourceVersion: rv, initialEventsEnd: true }
            : { type: 'BOOKMARK', resourceVersion: rv });
          return;
        }
        if (message.type !== 'ADDED') besidesAdded = true;
        const rv = resourceVersionOf(message.object);
        const object = xform(message.object);
        emit(object === message.object ? message : { type: message.type, object });
        if ((propagate || besidesAdded) && rv !== undefined) lastSyncRV = rv;
      };

      const ended = (error: unknown): void => {
        const closed =
          error === undefined ||
          error instanceof WatchStalledError ||
          (error instanceof TransportError && opened && error.code !== 'ECONNREFUSED');
        const duration = now() - started;
        // A stalled watch was cut by the watchdog, not by the server: never "very short".
        const veryShort = duration < 1000 && events === 0 && !(error instanceof WatchStalledError);
        if (initial) {
          if (closed && !veryShort) {
            // R11: the stream stopped before the bookmark: a fresh attempt, fresh buffer.
            if (error !== undefined) reportError(error);
            relist('streamingRetry');
          } else if (!closed && isRetriableWatchError(error)) {
            backoffThen(reportError(error), 'relist', () => relist('streamingRetry'));
          } else if ((isExpired(error) || isTooLargeResourceVersion(error)) && requestRV !== '') {
            rvUnavailable = true;
            relistNow('streamingRetry', error, () => openWatch(true));
          } else {
            relistNow('streamingFallback', error ?? new VeryShortWatchError(duration), list);
          }
          return;
        }
        if (closed) {
          if (error !== undefined) reportError(error);
          if (veryShort) cycleFailed(new VeryShortWatchError(duration), 'veryShortWatch');
          else openWatch(false); // R7
          return;
        }
        if (isRetriableWatchError(error)) {
          backoffThen(reportError(error), 'rewatch', () => openWatch(false)); // R9
          return;
        }
        cycleFailed(error, isExpired(error) ? 'expired' : 'watchError'); // R8
      };

      start(listerWatcher.watch(req), { next: onEvent, error: ended, complete: () => ended(undefined) }, 'watch');
    }

    const signal = config.signal;
    const onAbort = (): void => subscriber.complete();
    if (signal?.aborted) {
      subscriber.complete();
      return undefined;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    guard(cycle);
    return () => {
      signal?.removeEventListener('abort', onAbort);
      request?.unsubscribe();
      timer?.unsubscribe();
      watchdog?.unsubscribe();
      request = timer = watchdog = undefined;
    };
  });
}
