import { argumentError } from '../../options/optionChecks.js';
/**
 * The names label-mode sharding writes on the sharded objects, in one place: the owner label and
 * the drain label (the member Leases' label is {@link ringLabel}). The layout follows
 * timebertt/kubernetes-controller-sharding's (`shard.<domain>/<ring>`, `drain.<domain>/<ring>`)
 * under this project's own domain.
 */


/** The label keys of one ring's objects. */
export interface ShardLabels {
  /** `shard.sharding.rx-informer.dev/<ring>`: the identity of the member that owns the object. */
  readonly shard: string;
  /** `drain.sharding.rx-informer.dev/<ring>`: set by the sharder when the object must move; its owner stops, then removes both labels. */
  readonly drain: string;
}

const ringName = /^[a-z0-9]([-a-z0-9]{0,48}[a-z0-9])?$/;

/**
 * The label keys of `ring`.
 *
 * @throws {TypeError} unless `ring` is a DNS label of at most 50 characters (lower-case letters,
 * digits, `-`, alphanumeric at both ends): it is part of the label keys and of Lease names.
 */
export function shardLabels(ring: string): ShardLabels {
  if (typeof ring !== 'string' || !ringName.test(ring)) {
    throw argumentError('sharding', `the ring name must be a DNS label of at most 50 characters ([-a-z0-9], alphanumeric at both ends), got ${JSON.stringify(ring)}`);
  }
  return { shard: `shard.sharding.rx-informer.dev/${ring}`, drain: `drain.sharding.rx-informer.dev/${ring}` };
}

/** The label selector of the objects `identity` owns in the ring of `labels` (a label selector: not a KEP-5866 `shardSelector`). */
export function ownerLabelSelector(labels: ShardLabels, identity: string): string {
  return `${labels.shard}=${identity}`;
}
