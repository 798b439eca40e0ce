/**
 * The reflector's runtime: it drives {@link reflectorStep} and does what the effects say — emit,
 * report, start the one in-flight request, run the backoff timer, fail — and feeds the ends of
 * requests and timers back as inputs. It decides nothing about what comes next.
 */
import { from, type Observer, type Subscriber, type Subscription, type TeardownLogic } from 'rxjs';
import { hookError, noResponseMessage, TransformError, TransportError } from '../../errors.js';
import type { ListerWatcher, ListRequest, ListResponse, WatchRequest } from '../listerWatcher.js';
import type { RawEvent } from '../rawEvent.js';
import type { ListWatchStatus } from './listWatchStatus.js';
import { createBackoff } from './backoff.js';
import type { ListCompleted, ResolvedReflectorConfig } from './reflectorConfig.js';
import { initialMemory, type BackOffEffect, type ReflectorEffect, type ReflectorInput, type ReflectorState } from './reflectorState.js';
import { reflectorStep } from './reflectorStep.js';
import { createRequestSlot } from './requestSlot.js';
import { createWatchObserver } from './watchObserver.js';

const start = { type: 'start' } as const;
const backoffElapsed = { type: 'backoffElapsed' } as const;

/**
 * Runs one reflector subscription until `subscriber` closes; returns its teardown (abort the
 * request, clear the timers, close idle connections).
 *
 * @param listerWatcher The I/O seam.
 * @param config The resolved config.
 * @param subscriber Receives the raw events; errored by a fatal 403/404 or a throwing `onStatus`,
 * completed when `config.signal` aborts.
 */
export function runReflector<T>(
  listerWatcher: ListerWatcher<T>,
  config: ResolvedReflectorConfig<T>,
  subscriber: Subscriber<RawEvent<T>>,
): TeardownLogic {
  const { scheduler, signal, onStatus } = config;
  if (signal?.aborted) {
    subscriber.complete();
    return undefined;
  }
  const now = (): number => scheduler.now();
  const backoff = createBackoff(config.backoff, now);
  const transform = wrapTransform(config.transform);
  const fatal = (error: unknown): void => subscriber.error(error);
  const slot = createRequestSlot(
    scheduler,
    {
      idleTimeout: config.idleTimeout,
      waitingAfter: config.waitingAfter,
      noResponseTimeout: config.noResponseTimeout,
      onWaiting: (verb, waitingMs) => report({ type: 'WAITING', verb, waitingMs, message: noResponseMessage(verb, waitingMs) }),
    },
    fatal,
  );
  let state: ReflectorState = { kind: 'idle', memory: initialMemory };
  let timer: Subscription | undefined;
  // afterList: the list that just completed (from its pages and LIST_DONE), until the hook is called;
  // the hook's Observable while the watch waits for it.
  let itemsListed = 0;
  let lists = 0;
  let completed: ListCompleted | undefined;
  let hook: Subscription | undefined;
  let stepFrom: ReflectorState['kind'] = 'idle';

  // Every status goes to onStatus, then in band, so a consumer of the stream alone sees the same sequence.
  const report = (status: ListWatchStatus): void => {
    onStatus?.(status);
    subscriber.next({ type: 'STATUS', status });
  };

  const drive = (input: ReflectorInput<T>): void => {
    stepFrom = state.kind;
    const step = reflectorStep(state, input, config);
    state = step.state;
    for (const effect of step.effects) {
      if (subscriber.closed) return;
      perform(effect);
    }
    // A list completed without a watch to start (a streaming list's watch runs on): the hook observes.
    if (completed !== undefined && !subscriber.closed) runAfterList(undefined);
  };
  const guard = (input: ReflectorInput<T>): void => {
    try {
      drive(input);
    } catch (error) {
      fatal(error);
    }
  };
  const watchObserver = createWatchObserver<T>({ subscriber, transform, input: drive, cancel: slot.cancel, now });

  const perform = (effect: ReflectorEffect<T>): void => {
    switch (effect.type) {
      case 'emit':
        if (config.afterList !== undefined) noteListProgress(effect.event);
        return subscriber.next(effect.event);
      case 'status':
        return report(effect.status);
      case 'list':
        return startList(effect.request);
      case 'watch':
        return completed === undefined ? startWatch(effect.request) : runAfterList(effect.request);
      case 'backOff':
        return startBackoff(effect);
      case 'fail':
        return subscriber.error(effect.error);
    }
  };

  const startList = (request: ListRequest): void => {
    slot.start(listerWatcher.list(request), listObserver(config.transform ? transform : undefined, drive), 'list');
  };

  const startWatch = (request: WatchRequest): void => {
    watchObserver.begin(request, state.memory.lastSyncRV);
    slot.start(listerWatcher.watch(request), watchObserver, 'watch');
  };

  const noteListProgress = (event: RawEvent<T>): void => {
    if (event.type === 'LIST_START') itemsListed = 0;
    else if (event.type === 'LIST_PAGE') itemsListed = event.itemsSoFar;
    else if (event.type === 'LIST_DONE') {
      completed = { resourceVersion: event.resourceVersion, items: itemsListed, relist: lists > 0, streaming: stepFrom === 'streaming' };
      lists++;
    }
  };

  // Calls afterList with the list that completed; `request` is the watch it may delay.
  const runAfterList = (request: WatchRequest | undefined): void => {
    const listed = completed!;
    completed = undefined;
    const failed = (cause: unknown): void => {
      report({ type: 'ERROR', error: hookError('afterList', cause), permanent: false });
    };
    let result: ReturnType<NonNullable<typeof config.afterList>>;
    try {
      result = config.afterList!(listed);
    } catch (cause) {
      failed(cause);
      result = undefined;
    }
    if (result === undefined || result === null) {
      if (request !== undefined && !subscriber.closed) startWatch(request);
      return;
    }
    let done = false;
    const settle = (): void => {
      if (done) return;
      done = true;
      hook = undefined;
      if (request !== undefined && !subscriber.closed) startWatch(request);
    };
    try {
      const subscription = from(result).subscribe({ error: (cause: unknown) => (failed(cause), settle()), complete: settle });
      if (!done) hook = subscription;
    } catch (cause) {
      failed(cause); // not an ObservableInput
      settle();
    }
  };

  const startBackoff = (effect: BackOffEffect): void => {
    const step = effect.slow ? backoff.slow() : backoff.next(effect.retryAfterMs);
    report({ type: 'BACKING_OFF', attempt: step.attempt, delay: step.delay, cause: effect.cause, next: effect.next });
    timer?.unsubscribe();
    timer = scheduler.schedule(() => {
      timer = undefined;
      guard(backoffElapsed);
    }, step.delay);
  };

  const onAbort = (): void => subscriber.complete();
  signal?.addEventListener('abort', onAbort, { once: true });
  guard(start);
  return () => {
    signal?.removeEventListener('abort', onAbort);
    slot.cancel();
    timer?.unsubscribe();
    timer = undefined;
    hook?.unsubscribe();
    hook = undefined;
    listerWatcher.closeIdleConnections?.();
  };
}

/**
 * The observer of one LIST page request: transforms each response's items as it arrives and feeds
 * the page's parts (every response but the last) as `pagePart` when the next one arrives, and the
 * last as `page` when the request completes — or `listFailed` for an error, a missing response or
 * a throwing transform (which, thrown from `next`, also aborts the request).
 */
function listObserver<T>(transform: ((object: T) => T) | undefined, input: (input: ReflectorInput<T>) => void): Observer<ListResponse<T>> {
  let response: ListResponse<T> | undefined;
  const transformed = (value: ListResponse<T>): ListResponse<T> => (transform ? { ...value, items: value.items.map(transform) } : value);
  return {
    next: (value) => {
      const before = response;
      response = transformed(value);
      if (before !== undefined) input({ type: 'pagePart', response: before });
    },
    error: (error: unknown) => input({ type: 'listFailed', error }),
    complete: () => {
      if (!response) return input({ type: 'listFailed', error: new TransportError('list', 'the response ended without a list') });
      input({ type: 'page', response });
    },
  };
}

/** `transform` with a throw turned into a {@link TransformError}; the identity when there is none. */
function wrapTransform<T>(transform: ((object: T) => T) | undefined): (object: T) => T {
  if (!transform) return (object) => object;
  return (object) => {
    try {
      return transform(object);
    } catch (cause) {
      throw new TransformError({ cause });
    }
  };
}
