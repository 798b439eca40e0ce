import type { Subscription } from 'rxjs';
import type { Informer, KubeObject, Snapshot } from 'rx-informer';
import type { WatchOutput } from './watchOutput.js';
import type { WatchState } from './watchState.js';

/** A running {@link followInformer}. */
export interface FollowedInformer {
  /** Resolves when `signal` aborts or the informer completes; rejects with the informer's error. */
  readonly done: Promise<void>;
  /** The latest snapshot (the empty one until the informer emits). */
  snapshot(): Snapshot<KubeObject>;
  unsubscribe(): void;
}

/**
 * Subscribes to an informer and feeds the watch's state and output in order: each batch's changes,
 * then the output's update, then, once, the sync; the errors the informer survived as warnings.
 *
 * @param cache the informer.
 * @param config the state, the output, the first snapshot and the signal that ends it.
 */
export function followInformer(cache: Informer<KubeObject>, config: { readonly state: WatchState; readonly output: WatchOutput; readonly initial: Snapshot<KubeObject>; readonly signal: AbortSignal }): FollowedInformer {
  const { state, output, signal } = config;
  let snapshot = config.initial;
  let subscription: Subscription | undefined;
  const done = new Promise<void>((resolve, reject) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
    subscription = cache.updates$.subscribe({
      next: (update) => {
        const wasSynced = snapshot.synced;
        snapshot = update.snapshot;
        const now = Date.now();
        if (state.list !== undefined) state.onListApplied();
        for (const change of update.changes) state.onChange(change, now);
        output.update(snapshot, update.changes);
        if (!wasSynced && snapshot.synced) {
          state.onSynced(now);
          output.synced(snapshot);
        }
      },
      error: reject,
      complete: resolve,
    });
    subscription.add(
      cache.errors$.subscribe((error) => {
        state.onError(error.message, Date.now());
        output.warning(error.message);
      }),
    );
  });
  return { done, snapshot: () => snapshot, unsubscribe: () => subscription?.unsubscribe() };
}
