/**
 * The names sharding writes into the cluster, in one place: the label that marks a member Lease of
 * a ring, and the two labels on sharded objects (owner, drain). The layout follows
 * timebertt/kubernetes-controller-sharding's (`shard.<domain>/<ring>`, `drain.<domain>/<ring>`)
 * under this project's own domain.
 */

/** The label of every member Lease of a ring; its value is the ring's name. */
export const ringLabel = 'sharding.rx-informer.dev/ring';

/** The label keys of one ring's objects. */
export interface ShardLabels {
  /** `shard.sharding.rx-informer.dev/<ring>`: the identity of the member that owns the object. */
  readonly shard: string;
  /** `drain.sharding.rx-informer.dev/<ring>`: set by the sharder when the object must move; its owner stops, then removes both labels. */
  readonly drain: string;
}

const labelName = /^[a-z0-9A-Z]([-a-z0-9A-Z_.]{0,61}[a-z0-9A-Z])?$/;

/**
 * The label keys of `ring`.
 *
 * @throws {TypeError} unless `ring` is a valid label name (at most 63 characters: letters, digits,
 * `-`, `_`, `.`, starting and ending with a letter or digit): it is part of the label keys.
 */
export function shardLabels(ring: string): ShardLabels {
  if (typeof ring !== 'string' || !labelName.test(ring)) {
    throw new TypeError(`[informer] sharding: the ring name must be a label name (≤ 63 characters of [-A-Za-z0-9_.], alphanumeric at both ends), got ${JSON.stringify(ring)}`);
  }
  return { shard: `shard.sharding.rx-informer.dev/${ring}`, drain: `drain.sharding.rx-informer.dev/${ring}` };
}

/** The label selector of the objects `identity` owns in the ring of `labels`. */
export function shardSelector(labels: ShardLabels, identity: string): string {
  return `${labels.shard}=${identity}`;
}
