/**
 * The sharder's decision for one object, and the owner's release: pure functions from what is
 * cached to a merge patch. Every patch carries the object's resourceVersion, so a decision made on
 * a stale copy fails with 409 and is made again on the fresh one.
 */
import type { KubeObject } from '../../store/kubeObject.js';
import type { ShardLabels } from './shardLabels.js';

/** A JSON merge patch of labels, guarded by the resourceVersion read. */
export interface LabelPatch {
  readonly metadata: { readonly resourceVersion?: string; readonly labels: Readonly<Record<string, string | null>> };
}

/**
 * What the sharder does with one object:
 * - `none`: it is where the ring wants it (or there is no live member to give it to);
 * - `assign`: it has no owner: label it with `to`;
 * - `drain`: its owner is live but the ring moved it: set the drain label and wait for the owner to
 *   let go (the owner stops working on it, then removes both labels);
 * - `wait`: the drain label is set and its owner is live: the owner has not let go yet;
 * - `move`: its owner is not live (its Lease expired on the sharder's clock, or it is unknown):
 *   label it with `to` at once.
 */
export type ShardMove =
  | { readonly type: 'none' }
  | { readonly type: 'wait'; readonly from: string }
  | { readonly type: 'assign'; readonly to: string; readonly patch: LabelPatch }
  | { readonly type: 'drain'; readonly from: string; readonly to: string; readonly patch: LabelPatch }
  | { readonly type: 'move'; readonly from: string; readonly to: string; readonly patch: LabelPatch };

/**
 * @param object the object as cached.
 * @param desired the ring's owner for it (`undefined`: no live member).
 * @param live the live members.
 * @param labels the ring's label keys.
 */
export function shardMove(object: KubeObject, desired: string | undefined, live: ReadonlySet<string>, labels: ShardLabels): ShardMove {
  const current = object.metadata?.labels?.[labels.shard];
  const draining = object.metadata?.labels?.[labels.drain] !== undefined;
  const resourceVersion = object.metadata?.resourceVersion;
  const patch = (change: Record<string, string | null>): LabelPatch => ({ metadata: { ...(resourceVersion ? { resourceVersion } : {}), labels: change } });
  if (desired === undefined) return { type: 'none' };
  if (current === undefined || current === '') return { type: 'assign', to: desired, patch: patch({ [labels.shard]: desired, ...(draining ? { [labels.drain]: null } : {}) }) };
  if (current === desired) return { type: 'none' };
  if (!live.has(current)) return { type: 'move', from: current, to: desired, patch: patch({ [labels.shard]: desired, ...(draining ? { [labels.drain]: null } : {}) }) };
  if (draining) return { type: 'wait', from: current };
  return { type: 'drain', from: current, to: desired, patch: patch({ [labels.drain]: 'true' }) };
}

/** The owner letting go of a drained object: both labels removed, guarded by the resourceVersion it saw. */
export function releasePatch(object: KubeObject, labels: ShardLabels): LabelPatch {
  const resourceVersion = object.metadata?.resourceVersion;
  return { metadata: { ...(resourceVersion ? { resourceVersion } : {}), labels: { [labels.shard]: null, [labels.drain]: null } } };
}
