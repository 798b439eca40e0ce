/**
 * The reflector's one transition: `(state, input) → { state, effects }`. Every "what next after
 * this" decision of the reflector is made here — after a page, after a failed LIST, after a watch
 * ends, after a backoff — and nowhere else. Pure: no clock, no I/O; the only outside value it
 * draws is a watch's `timeoutSeconds` from the resolved config (fixed when configured).
 */
import { TransformError, veryShortWatchError } from '../../errors.js';
import type { ListRequest, ListResponse } from '../listerWatcher.js';
import type { ListWatchStatus, RelistReason } from './listWatchStatus.js';
import {
  isCleanWatchEnd,
  isExpired,
  isFatal,
  isPermanent,
  isRetriableWatchError,
  isStalled,
  isTooLargeResourceVersion,
  retryAfterMs,
} from './classifyError.js';
import type { ResolvedReflectorConfig } from './reflectorConfig.js';
import { continueRequest, fullListRequest, listRequest, watchRequest } from './reflectorRequests.js';
import type {
  AfterBackoff,
  BackingOffState,
  ListingState,
  ReflectorEffect,
  ReflectorInput,
  ReflectorMemory,
  ReflectorState,
  ReflectorStep,
  StreamingState,
  WatchEnded,
  WatchingState,
} from './reflectorState.js';

/** The parts of the resolved config the transition reads. */
export type StepConfig = Pick<
  ResolvedReflectorConfig<unknown>,
  'pageSize' | 'pageSizeExplicit' | 'listSemantic' | 'streamingList' | 'fatalErrors' | 'timeoutSeconds'
>;

type Effects<T> = Array<ReflectorEffect<T>>;

/**
 * The transition. An input that does not belong to the state (a page while watching, say) leaves
 * the state as it is and asks for nothing; the runtime never sends one.
 *
 * @param state Where the reflector is.
 * @param input What just ended: a request or a timer (or `start`).
 * @param config The resolved config (page size, list semantic, streaming, fatal errors, timeouts).
 * @returns The next state and the effects to perform in order; at most one of them starts a
 * request or a timer, and it comes last.
 */
export function reflectorStep<T>(state: ReflectorState, input: ReflectorInput<T>, config: StepConfig): ReflectorStep<T> {
  const out: Effects<T> = [];
  return { state: next(state, input, config, out), effects: out };
}

function next<T>(state: ReflectorState, input: ReflectorInput<T>, config: StepConfig, out: Effects<T>): ReflectorState {
  switch (input.type) {
    case 'start':
      return state.kind === 'idle' ? startCycle(state.memory, config, out) : state;
    case 'page':
      return state.kind === 'listing' ? pageArrived(state, input.response, config, out) : state;
    case 'pagePart':
      return state.kind === 'listing' ? partArrived(state, input.response, out) : state;
    case 'listFailed':
      return state.kind === 'listing' ? listFailed(state, input.error, config, out) : state;
    case 'opened':
      if (state.kind === 'watching') status(out, { type: 'WATCHING', resourceVersion: state.resourceVersion });
      return state;
    case 'initialEventsEnd':
      return state.kind === 'streaming' ? initialEventsEnded(state, input.resourceVersion, input.items, config, out) : state;
    case 'watchEnded':
      if (state.kind === 'watching') return watchEnded(state, input, config, out);
      return state.kind === 'streaming' ? streamEnded(state, input, config, out) : state;
    case 'backoffElapsed':
      return state.kind === 'backingOff' ? backoffElapsed(state, config, out) : state;
  }
}

/** R4: a page is in (or its last part). Follow `continue`, or end the list and watch from its RV. */
function pageArrived<T>(s: ListingState, response: ListResponse<T>, config: StepConfig, out: Effects<T>): ReflectorState {
  const page = s.page + 1;
  const itemsSoFar = emitPage(s, response, out);
  const listRV = page === 1 ? response.resourceVersion : s.listRV; // R4: the first page's RV
  if (response.continue) {
    const request = continueRequest(s.request, response.continue);
    out.push({ type: 'list', request });
    return { ...s, request, page, itemsSoFar, listRV };
  }
  const memory: ReflectorMemory = {
    lastSyncRV: listRV,
    rvUnavailable: false,
    paginatedResult: s.memory.paginatedResult || (s.resourceVersion === '0' && page > 1),
  };
  out.push({ type: 'emit', event: { type: 'LIST_DONE', resourceVersion: listRV } });
  return startWatch(memory, config, out);
}

/** A part of the page in flight: its items go out as a `LIST_PAGE` of that page now; the page ends with its last part. */
function partArrived<T>(s: ListingState, response: ListResponse<T>, out: Effects<T>): ReflectorState {
  return { ...s, itemsSoFar: emitPage(s, response, out) };
}

/** `LIST_PAGE` and `LISTING` for the items of the page in flight (whole, or a part); returns the items so far. */
function emitPage<T>(s: ListingState, response: ListResponse<T>, out: Effects<T>): number {
  const page = s.page + 1;
  const itemsSoFar = s.itemsSoFar + response.items.length;
  const remaining = response.remainingItemCount;
  const progress = remaining === undefined ? { page, itemsSoFar } : { page, itemsSoFar, remainingItemCount: remaining };
  out.push({ type: 'emit', event: { type: 'LIST_PAGE', items: response.items, ...progress } });
  status(out, { type: 'LISTING', resourceVersion: s.resourceVersion, streaming: false, ...progress });
  return itemsSoFar;
}

/** R3, R8: a LIST page failed. */
function listFailed<T>(s: ListingState, error: unknown, config: StepConfig, out: Effects<T>): ReflectorState {
  const expired = isExpired(error);
  if (expired && s.request.continue !== undefined && !s.fullRetry) {
    // R3: the continue token expired: one full, unpaginated list at the original RV.
    relistNow(out, error, 'expiredContinue');
    return listAt(s.memory, s.resourceVersion, fullListRequest(s.resourceVersion), true, out);
  }
  if ((expired || isTooLargeResourceVersion(error)) && s.resourceVersion !== '') {
    // R3: the RV is unavailable: relist at once with RV "" (a quorum read), no backoff.
    relistNow(out, error, expired ? 'expired' : 'tooLargeResourceVersion');
    return startList({ ...s.memory, rvUnavailable: true }, config, out);
  }
  return cycleFailed(s.memory, error, 'listError', config, out);
}

/** R6–R9: a watch ended (before a streaming list's bookmark: {@link streamEnded}). */
function watchEnded<T>(s: WatchingState, input: WatchEnded, config: StepConfig, out: Effects<T>): ReflectorState {
  const memory = input.resourceVersion === s.memory.lastSyncRV ? s.memory : { ...s.memory, lastSyncRV: input.resourceVersion };
  const { error } = input;
  if (error instanceof TransformError) return cycleFailed(memory, error, 'watchError', config, out); // R8
  if (isCleanWatchEnd(error, input.opened)) {
    if (error !== undefined) reportError(out, error);
    if (isVeryShort(input)) return cycleFailed(memory, veryShortWatchError(input.durationMs), 'veryShortWatch', config, out); // R8
    return startWatch(memory, config, out); // R7
  }
  if (isRetriableWatchError(error)) return backOff(memory, reportError(out, error), { next: 'rewatch' }, out); // R9
  return cycleFailed(memory, error, isExpired(error) ? 'expired' : 'watchError', config, out); // R8
}

/** R11: a streaming list's watch ended before its initial-events-end bookmark. */
function streamEnded<T>(s: StreamingState, input: WatchEnded, config: StepConfig, out: Effects<T>): ReflectorState {
  const { error } = input;
  if (error instanceof TransformError) return cycleFailed(s.memory, error, 'watchError', config, out); // R8
  if (isCleanWatchEnd(error, input.opened) && !isVeryShort(input)) {
    // The stream stopped before the bookmark: a fresh attempt, fresh buffer.
    if (error !== undefined) reportError(out, error);
    status(out, { type: 'RELISTING', reason: 'streamingRetry' });
    return startStreaming(s.memory, config, out);
  }
  if (isRetriableWatchError(error)) {
    return backOff(s.memory, reportError(out, error), { next: 'relist', reason: 'streamingRetry' }, out);
  }
  if ((isExpired(error) || isTooLargeResourceVersion(error)) && s.resourceVersion !== '') {
    relistNow(out, error, 'streamingRetry');
    return startStreaming({ ...s.memory, rvUnavailable: true }, config, out);
  }
  relistNow(out, error ?? veryShortWatchError(input.durationMs), 'streamingFallback');
  return startList(s.memory, config, out);
}

/** R11: the initial-events-end bookmark: the buffered objects become a list at its RV; the same stream goes on. */
function initialEventsEnded<T>(s: StreamingState, resourceVersion: string, items: readonly T[], config: StepConfig, out: Effects<T>): ReflectorState {
  let page = 0;
  for (let i = 0; i < items.length; i += config.pageSize) {
    page++;
    const chunk = items.slice(i, i + config.pageSize);
    out.push({ type: 'emit', event: { type: 'LIST_PAGE', items: chunk, page, itemsSoFar: i + chunk.length } });
  }
  status(out, { type: 'LISTING', resourceVersion: s.resourceVersion, streaming: true, page, itemsSoFar: items.length });
  const memory: ReflectorMemory = { ...s.memory, rvUnavailable: false, lastSyncRV: resourceVersion };
  out.push({ type: 'emit', event: { type: 'LIST_DONE', resourceVersion } });
  status(out, { type: 'WATCHING', resourceVersion });
  return { kind: 'watching', memory, resourceVersion };
}

function backoffElapsed<T>(s: BackingOffState, config: StepConfig, out: Effects<T>): ReflectorState {
  const then = s.then;
  if (then.next === 'rewatch') return startWatch(s.memory, config, out); // R9
  status(out, then.cause ? { type: 'RELISTING', reason: then.reason, cause: then.cause } : { type: 'RELISTING', reason: then.reason });
  return startCycle(s.memory, config, out);
}

/* ------------------------------------------------------------------ the moves the branches share */

/** A new ListAndWatch cycle: a streaming list (R11) or a LIST (R1, R2). */
function startCycle<T>(memory: ReflectorMemory, config: StepConfig, out: Effects<T>): ReflectorState {
  return config.streamingList ? startStreaming(memory, config, out) : startList(memory, config, out);
}

function startList<T>(memory: ReflectorMemory, config: StepConfig, out: Effects<T>): ReflectorState {
  const request = listRequest(memory, config);
  return listAt(memory, request.resourceVersion ?? '', request, false, out);
}

/** One list attempt: `LIST_START`, `LISTING` at page 0, the first page request. */
function listAt<T>(memory: ReflectorMemory, resourceVersion: string, request: ListRequest, fullRetry: boolean, out: Effects<T>): ListingState {
  out.push({ type: 'emit', event: { type: 'LIST_START' } });
  status(out, { type: 'LISTING', resourceVersion, streaming: false, page: 0, itemsSoFar: 0 });
  out.push({ type: 'list', request });
  return { kind: 'listing', memory, resourceVersion, request, page: 0, itemsSoFar: 0, listRV: '', fullRetry };
}

function startStreaming<T>(memory: ReflectorMemory, config: StepConfig, out: Effects<T>): StreamingState {
  const request = watchRequest(memory, true, config.timeoutSeconds());
  out.push({ type: 'emit', event: { type: 'LIST_START' } });
  status(out, { type: 'LISTING', resourceVersion: request.resourceVersion, streaming: true, page: 0, itemsSoFar: 0 });
  out.push({ type: 'watch', request });
  return { kind: 'streaming', memory, resourceVersion: request.resourceVersion };
}

function startWatch<T>(memory: ReflectorMemory, config: StepConfig, out: Effects<T>): WatchingState {
  const request = watchRequest(memory, false, config.timeoutSeconds());
  out.push({ type: 'watch', request });
  return { kind: 'watching', memory, resourceVersion: request.resourceVersion };
}

/** R8: the cycle ended with an error: report it, then back off and relist — or fail on a fatal one (an invalid request; 403/404 on request). */
function cycleFailed<T>(memory: ReflectorMemory, error: unknown, reason: RelistReason, config: StepConfig, out: Effects<T>): ReflectorState {
  const cause = reportError(out, error);
  if (isFatal(cause, config.fatalErrors)) {
    status(out, { type: 'FAILED', error: cause }); // the last status: the Observable errors next
    out.push({ type: 'fail', error: cause });
    return { kind: 'failed', memory, error: cause };
  }
  return backOff(memory, cause, { next: 'relist', reason, cause }, out);
}

/** R10: wait (slow for 400/403/404/422, Retry-After when given), then `then`. */
function backOff<T>(memory: ReflectorMemory, cause: Error, then: AfterBackoff, out: Effects<T>): BackingOffState {
  out.push({ type: 'backOff', cause, next: then.next, slow: isPermanent(cause), retryAfterMs: retryAfterMs(cause) });
  return { kind: 'backingOff', memory, then };
}

/** Reports the error and a `RELISTING` with it as the cause; the caller starts the list now. */
function relistNow<T>(out: Effects<T>, error: unknown, reason: RelistReason): void {
  const cause = reportError(out, error);
  status(out, { type: 'RELISTING', reason, cause });
}

/** Reports an `ERROR` status; returns the error as an `Error`. */
function reportError<T>(out: Effects<T>, error: unknown): Error {
  const err = error instanceof Error ? error : new Error(String(error));
  status(out, { type: 'ERROR', error: err, permanent: isPermanent(err) });
  return err;
}

function status<T>(out: Effects<T>, value: ListWatchStatus): void {
  out.push({ type: 'status', status: value });
}

/** client-go `VeryShortWatchError`: closed within 1 s with no event — unless the watchdog cut it. */
function isVeryShort(input: WatchEnded): boolean {
  return input.durationMs < 1000 && input.events === 0 && !isStalled(input.error);
}
