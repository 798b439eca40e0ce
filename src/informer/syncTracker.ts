import type { SchedulerLike, Subscription } from 'rxjs';
import { notSyncedError, type NotSyncedReason } from '../errors.js';
import { describe, optionChecks } from '../options/optionChecks.js';
import type { ListWatchStatus } from '../sources/reflector/listWatchStatus.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Snapshot } from '../store/snapshot.js';

/** Options of {@link Informer.whenSynced}. */
export interface WhenSyncedOptions {
  /** Stop waiting when it aborts: the promise rejects with a {@link NotSyncedError} (`aborted`). */
  readonly signal?: AbortSignal;
  /**
   * Stop waiting after this many ms, measured on the informer's scheduler: the promise rejects with
   * a {@link NotSyncedError} (`timeout`) whose message ends with the source's last error. Default:
   * no limit (wait as long as the informer is running).
   */
  readonly timeoutMs?: number;
}

/**
 * @internal The informer's side of `whenSynced()`: it is told what the shared connection does
 * (connected, each status, each snapshot, disconnected) and settles the waiting promises. It never
 * subscribes to anything itself, so waiting neither starts the informer nor keeps it running.
 */
export interface SyncTracker<T extends KubeObject> {
  /** The shared upstream subscription started. */
  connected(): void;
  /**
   * A status of the source: remembers the last error; `FAILED` rejects every waiter, and every
   * `whenSynced()` until the next {@link SyncTracker.connected}, with `failed`.
   */
  status(status: ListWatchStatus): void;
  /** A new snapshot: a synced one resolves every waiter. */
  snapshot(snapshot: Snapshot<T>): void;
  /** The shared upstream subscription ended: rejects whoever still waits. */
  disconnected(): void;
  /** The promise `whenSynced()` returns. */
  whenSynced(current: Snapshot<T> | undefined, running: boolean, options: WhenSyncedOptions): Promise<Snapshot<T>>;
}

interface Waiter<T extends KubeObject> {
  resolve(snapshot: Snapshot<T>): void;
  reject(reason: NotSyncedReason, timeoutMs?: number): void;
}

/** @internal Creates the {@link SyncTracker} of one informer; `name` goes into rejection messages. */
export function syncTracker<T extends KubeObject>(name: string | undefined, scheduler: SchedulerLike): SyncTracker<T> {
  const waiters = new Set<Waiter<T>>();
  let lastError: Error | undefined;
  // Set by FAILED and kept until the next run: a source that gave up stays the reason, however
  // soon after the failure whenSynced() is asked (the connection may or may not have ended yet).
  let failed = false;
  const settleAll = (settle: (waiter: Waiter<T>) => void): void => {
    const settling = [...waiters];
    waiters.clear();
    for (const waiter of settling) settle(waiter);
  };

  return {
    connected() {
      lastError = undefined;
      failed = false;
    },
    status(status) {
      if (status.type === 'ERROR' || status.type === 'FAILED') lastError = status.error;
      if (status.type === 'FAILED') {
        failed = true;
        settleAll((waiter) => waiter.reject('failed'));
      }
    },
    snapshot(snapshot) {
      if (snapshot.synced && waiters.size > 0) settleAll((waiter) => waiter.resolve(snapshot));
    },
    disconnected() {
      settleAll((waiter) => waiter.reject('disconnected'));
    },
    whenSynced(current, running, options) {
      const { signal, timeoutMs } = checkOptions(options);
      if (failed) return Promise.reject(notSyncedError('failed', name, lastError));
      if (running && current?.synced) return Promise.resolve(current);
      if (!running) return Promise.reject(notSyncedError('notConnected', name, lastError));
      if (signal?.aborted) return Promise.reject(notSyncedError('aborted', name, lastError));
      return new Promise<Snapshot<T>>((resolve, reject) => {
        let timer: Subscription | undefined;
        const onAbort = (): void => waiter.reject('aborted');
        const done = (): void => {
          waiters.delete(waiter);
          timer?.unsubscribe();
          signal?.removeEventListener('abort', onAbort);
        };
        const waiter: Waiter<T> = {
          resolve(snapshot) {
            done();
            resolve(snapshot);
          },
          reject(reason, ms) {
            done();
            reject(notSyncedError(reason, name, lastError, ms));
          },
        };
        waiters.add(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) timer = scheduler.schedule(() => waiter.reject('timeout', timeoutMs), timeoutMs);
      });
    },
  };
}

/** Checks a wait's options at call time, in the one wording of `optionChecks` (no defaults: none given, no limit). */
function checkOptions(options: WhenSyncedOptions): WhenSyncedOptions {
  const check = optionChecks('whenSynced', options, false);
  const { signal, timeoutMs } = options;
  // Infinity is allowed (no timeout), so not `nonNegative`, which asks for a finite number.
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs >= 0)) check.fail(`timeoutMs must be a number >= 0, got ${describe(timeoutMs)}`);
  if (signal !== undefined && !(typeof signal === 'object' && signal !== null && typeof signal.addEventListener === 'function' && 'aborted' in signal)) {
    check.fail(`signal must be an AbortSignal, got ${describe(signal)}`);
  }
  return options;
}
