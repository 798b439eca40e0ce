import { refIdentity } from '../store/objectRef.js';
import type { ObjectRef } from '../store/objectRef.js';

/**
 * Why a key was queued. A run is handed every distinct reason gathered since the key's last run
 * started (`ReconcileContext.reasons`; past {@link maxReasonsPerRun} the first, a `folded` count
 * and the newest), and its outcome carries them, so a log line or a trace span can say why it ran
 * (kube-rs keeps only the first reason; controller-runtime keeps none).
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
 * - `folded`: `count` distinct reasons came in past the cap ({@link maxReasonsPerRun}) and were
 *   folded away; it stands second, after the first reason and before the newest ones.
 */
export type ReconcileReason =
  | {
      /** The object was in the informer's first list, or in the cache when the controller started. */
      readonly type: 'initial';
      /** The object's resourceVersion as the cache got it. */
      readonly resourceVersion?: string;
    }
  | {
      /** The object itself changed. */
      readonly type: 'changed';
      /** How: `add`, `update`, `delete`, or `resync` (an update that kept its resourceVersion). */
      readonly change: 'add' | 'update' | 'delete' | 'resync';
      /** The object's resourceVersion as the cache got it. */
      readonly resourceVersion?: string;
    }
  | {
      /** A child with a matching owner reference changed. */
      readonly type: 'owned';
      /** The child that changed. */
      readonly child: ObjectRef;
    }
  | {
      /** An object of a `watches` informer was mapped onto this key. */
      readonly type: 'watched';
      /** The `watches` entry's `name` (default `watches[<index>]`). */
      readonly source: string;
      /** The watched object that changed. */
      readonly object: ObjectRef;
    }
  | {
      /** A `reconcileAllOf` (the controller's `reconcileAllOn`) emission; low priority. */
      readonly type: 'reconcileAll';
    }
  | {
      /** A key or ref handed in directly (`reconcile()`'s input, `controller({ triggers })`). */
      readonly type: 'trigger';
    }
  | {
      /** The previous run asked for it with `{ requeueAfterMs }`. */
      readonly type: 'requeue';
      /** The delay the previous run asked for, in milliseconds. */
      readonly afterMs: number;
    }
  | {
      /** The previous run failed. */
      readonly type: 'retry';
      /** The key's failures so far. */
      readonly failures: number;
    }
  | {
      /** Reasons past the cap ({@link maxReasonsPerRun}) folded away. */
      readonly type: 'folded';
      /** How many distinct reasons were folded away. */
      readonly count: number;
    };

/**
 * The priority of work nobody is waiting for: objects of the initial list that did not change,
 * resyncs, reconcile-all. Real changes have priority 0 and run first (controller-runtime's
 * `handler.LowPriority`, -100).
 */
export const lowPriority = -100;

/**
 * Reasons one key keeps at most between two runs (the `folded` count included). Past it, the first
 * reason stays, the oldest of the others are folded into one `{ type: 'folded', count }` second in
 * line, and the newest are kept: a run always hears what started the wait and what came last.
 */
export const maxReasonsPerRun = 32;

/**
 * `reasons` with `reason` added unless an equal one is there; past {@link maxReasonsPerRun}, the
 * oldest but the first are folded (a `folded` reason adds its count to the list's own).
 */
export function withReason(reasons: readonly ReconcileReason[], reason: ReconcileReason | undefined): readonly ReconcileReason[] {
  if (reason === undefined) return reasons;
  if (reason.type === 'folded') return fold(reasons, reason.count);
  const id = reasonId(reason);
  return reasons.some((r) => r.type !== 'folded' && reasonId(r) === id) ? reasons : fold([...reasons, reason], 0);
}

/** Both lists, without repeats, in order (`a` first). */
export function mergeReasons(a: readonly ReconcileReason[], b: readonly ReconcileReason[]): readonly ReconcileReason[] {
  return b.reduce(withReason, a);
}

/**
 * `reasons` with `more` folded reasons counted, and within {@link maxReasonsPerRun}: the first
 * reason, then the `folded` count (when there is one), then the newest.
 */
function fold(reasons: readonly ReconcileReason[], more: number): readonly ReconcileReason[] {
  let out = reasons;
  if (more > 0) out = out[1]?.type === 'folded' ? [out[0]!, { type: 'folded', count: out[1].count + more }, ...out.slice(2)] : [...out.slice(0, 1), { type: 'folded', count: more }, ...out.slice(1)];
  while (out.length > maxReasonsPerRun) {
    // Without a count yet, the count takes the second place, folding the reason that held it.
    out = out[1]?.type === 'folded' ? [out[0]!, { type: 'folded', count: out[1].count + 1 }, ...out.slice(3)] : [out[0]!, { type: 'folded', count: 1 }, ...out.slice(2)];
  }
  return out;
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
