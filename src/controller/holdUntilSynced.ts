import { combineLatest, filter, NEVER, Observable, take, type MonoTypeOperatorFunction } from 'rxjs';
import type { Informer } from '../informer/informer.js';
import type { KubeObject } from '../store/kubeObject.js';
import { refCacheKey, type ObjectRef } from '../store/objectRef.js';
import type { ControllerRequest } from './controllerRequest.js';
import { mergeReasons } from './reconcileReason.js';
import { argumentError, optionChecks } from '../options/optionChecks.js';

/** How long a controller waits for its informers' first lists by default (controller-runtime's `CacheSyncTimeout`). */
export const syncTimeoutDefaultMs = 120_000;

/** Options of {@link holdUntilSynced}. */
export interface HoldUntilSyncedConfig {
  /**
   * Error with the `NotSyncedError` (from `rx-informer`) of `whenSynced()` (`timeout`) when not
   * synced by then, measured on each informer's scheduler. A finite number ≥ 0, as `controller()`'s
   * `syncTimeoutMs`; default 120 000 (`syncTimeoutDefaultMs`); `0`: wait for ever.
   */
  readonly timeoutMs?: number;
}

/** What {@link holdUntilSynced} reads of an informer: its synced flag and its sync wait. */
export type SyncSource = Pick<Informer<KubeObject>, 'synced$' | 'whenSynced'>;

/**
 * Holds refs back until every informer has synced, then lets them through (each held key once, in
 * the order it first came) and passes the rest as they come: a controller never reconciles from a
 * half-filled cache (controller-runtime starts workers after `WaitForCacheSync`, kube-rs delays its
 * runner until the store is ready). Requests that arrive meanwhile are deduplicated, not lost.
 * {@link ControllerRequest}s of one key are merged into one with the highest priority and every
 * reason, so an owner of a listed child runs once, not once per request.
 *
 * ```text
 * refs:    -a-b-a------c--|
 * synced:  f-------t           (every informer)
 * output:  --------(ab)c--|
 * ```
 *
 * The refs go out in the same turn as the last `synced$` turns true, so the objects of that list
 * are held with the rest, not run twice. Why a wait fails is the informer's own rule: the output
 * errors with the `NotSyncedError` (from `rx-informer`) that its `whenSynced({ timeoutMs, signal })`
 * rejects with (`timeout`; `disconnected` when one stops unsynced), or with the source's error. Watching
 * `synced$` runs an informer until it has synced; to keep it running after, connect it (as
 * `controller()` does). Completing before the sync drops what was held; unsubscribing aborts the
 * waits.
 *
 * @param informers what must be synced.
 * @param config the timeout.
 * @returns an operator on refs.
 */
export function holdUntilSynced<R extends ObjectRef | ControllerRequest = ObjectRef>(informers: readonly SyncSource[], config: HoldUntilSyncedConfig = {}): MonoTypeOperatorFunction<R> {
  const timeoutMs = optionChecks('holdUntilSynced', config).nonNegative('timeoutMs', config.timeoutMs) ?? syncTimeoutDefaultMs;
  if (!Array.isArray(informers) || informers.some((i) => !(i?.synced$ instanceof Observable) || typeof i.whenSynced !== 'function')) {
    throw argumentError('holdUntilSynced', 'expected an array of informers');
  }
  const waitMs = timeoutMs > 0 ? timeoutMs : undefined;
  return (source) =>
    new Observable<R>((subscriber) => {
      const held = new Map<string, R>();
      let ready = informers.length === 0;
      // The input first: of one update, its notifications then reach us before its synced flag does.
      const input = source.subscribe({
        next: (ref) => {
          if (ready) subscriber.next(ref);
          else {
            // A plain ref is held once; requests are all kept, for their priorities and reasons.
            const key = refCacheKey('ref' in ref ? ref.ref : ref);
            const same = held.get(key);
            if (same === undefined) held.set(key, ref);
            else if ('ref' in ref && 'ref' in same) held.set(key, mergeRequests(same, ref) as R);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      const readiness = (informers.length === 0 ? NEVER : combineLatest(informers.map((informer) => informer.synced$.pipe(filter(Boolean), take(1)))))
        .pipe(take(1))
        .subscribe({
          next: () => {
            ready = true;
            for (const ref of held.values()) subscriber.next(ref);
            held.clear();
          },
          error: (error: unknown) => subscriber.error(error),
        });
      const waits = new AbortController();
      if (!ready) {
        for (const informer of informers) {
          informer.whenSynced({ signal: waits.signal, ...(waitMs !== undefined ? { timeoutMs: waitMs } : {}) }).catch((error: unknown) => {
            if (!ready && !waits.signal.aborted) subscriber.error(error);
          });
        }
      }
      return () => {
        waits.abort();
        input.unsubscribe();
        readiness.unsubscribe();
        held.clear();
      };
    });
}

/** One request for both: the higher priority (absent counts as 0), the reasons of both. */
function mergeRequests(a: ControllerRequest, b: ControllerRequest): ControllerRequest {
  return { ref: a.ref, priority: Math.max(a.priority ?? 0, b.priority ?? 0), reasons: mergeReasons(a.reasons ?? [], b.reasons ?? []) };
}
