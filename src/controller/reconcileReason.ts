import { refIdentity } from '../store/objectRef.js';
import type { ObjectRef } from '../store/objectRef.js';

/**
 * Why a key was queued. A run is handed every distinct reason gathered since the key's last run
 * started (`ReconcileContext.reasons`), and its outcome carries them, so a log line or a trace span
 * can say why it ran (kube-rs keeps only the first reason; controller-runtime keeps none).
 *
 * - `initial`: the object was in the informer's first list, or in the cache when the controller
 *   started (low priority, see {@link lowPriority}).
 * - `changed`: the object itself changed (`add`, `update`, `delete`; `resync` for an update that
 *   kept its resourceVersion, which is low priority), with the resourceVersion the cache got.
 * - `owned`: a child with a matching owner reference changed.
 * - `watched`: an object of a `watches` informer mapped onto this key; `source` names the entry.
 * - `reconcileAll`: a `reconcileAllOn` emission (low priority).
 * - `trigger`: a key or ref handed in directly (`reconcile()`'s input, `controller({ triggers })`).
 * - `requeue`: the previous run asked for it (`{ requeueAfterMs }`).
 * - `retry`: the previous run failed; `failures` counts the failures so far.
 */
export type ReconcileReason =
  | { readonly type: 'initial'; readonly resourceVersion?: string }
  | { readonly type: 'changed'; readonly change: 'add' | 'update' | 'delete' | 'resync'; readonly resourceVersion?: string }
  | { readonly type: 'owned'; readonly child: ObjectRef }
  | { readonly type: 'watched'; readonly source: string; readonly object: ObjectRef }
  | { readonly type: 'reconcileAll' }
  | { readonly type: 'trigger' }
  | { readonly type: 'requeue'; readonly afterMs: number }
  | { readonly type: 'retry'; readonly failures: number };

/**
 * The priority of work nobody is waiting for: objects of the initial list that did not change,
 * resyncs, reconcile-all. Real changes have priority 0 and run first (controller-runtime's
 * `handler.LowPriority`, -100).
 */
export const lowPriority = -100;

/** Reasons one key keeps at most between two runs; later distinct reasons are dropped. */
export const maxReasonsPerRun = 32;

/** `reasons` with `reason` added unless an equal one is there (or the list is full). */
export function withReason(reasons: readonly ReconcileReason[], reason: ReconcileReason | undefined): readonly ReconcileReason[] {
  if (reason === undefined || reasons.length >= maxReasonsPerRun) return reasons;
  const id = reasonId(reason);
  return reasons.some((r) => reasonId(r) === id) ? reasons : [...reasons, reason];
}

/** Both lists, without repeats, in order (`a` first). */
export function mergeReasons(a: readonly ReconcileReason[], b: readonly ReconcileReason[]): readonly ReconcileReason[] {
  return b.reduce(withReason, a);
}

function reasonId(reason: ReconcileReason): string {
  switch (reason.type) {
    case 'owned':
      return `owned ${refIdentity(reason.child)}`;
    case 'watched':
      return `watched ${reason.source} ${refIdentity(reason.object)}`;
    default:
      return JSON.stringify(reason);
  }
}
