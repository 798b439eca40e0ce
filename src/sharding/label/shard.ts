import type { Observable } from 'rxjs';
import type { ListWatchResource } from '../../client/listWatchResource.js';
import { listWatch } from '../../sources/listWatch.js';
import type { ListWatchConfig } from '../../sources/listWatchConfig.js';
import type { RawEvent } from '../../sources/rawEvent.js';
import { KubeApiError } from '../../errors.js';
import type { Frozen } from '../../store/frozen.js';
import type { KubeObject } from '../../store/kubeObject.js';
import { refCacheKey } from '../../store/objectRef.js';
import type { ControllerContext, Reconciler } from '../../controller/reconcileObjects.js';
import { ownerLabelSelector } from './shardLabels.js';
import type { ResolvedShardingConfig } from '../shardingConfig.js';
import { releasePatch } from './shardMove.js';
import { argumentError } from '../../options/optionChecks.js';

/**
 * One membership term of this replica in a ring: who it is, which objects are its own, and the
 * wrapper its reconciler needs. Build the term's informers with `labelSelector` and its controller
 * with `reconciler(…)`.
 */
export interface Shard {
  /** The member's identity in this term: the value of the shard label on its objects. */
  readonly identity: string;
  /** The ring's name. */
  readonly ring: string;
  /** `shard.sharding.rx-informer.dev/<ring>=<identity>`: the selector of this member's objects. */
  readonly labelSelector: string;
  /** `{ labelSelector }`, to spread into a source's options (as {@link ServerShard.selector} is). */
  readonly selector: {
    /** This member's label selector, `shard.sharding.rx-informer.dev/<ring>=<identity>`. */
    readonly labelSelector: string;
  };
  /**
   * {@link listWatch} of `resource` with this member's `labelSelector` put in (after the one
   * `config` gives, if any: both must match) and the ring's `kubeConfig`: the term's source, its
   * selector not to be forgotten.
   */
  listWatch<T = KubeObject>(resource: ListWatchResource, config?: ListWatchConfig<T>): Observable<RawEvent<T>>;
  /**
   * Wraps a reconciler of the primary objects for this term:
   * - an object carrying the drain label is let go — its labels are removed, once the queue has
   *   let every earlier run of it finish — instead of being reconciled;
   * - after that, runs for the object are skipped: its leaving the label selector looks like a
   *   deletion to the informer (the cache drops it), and it is not one;
   * - anything else goes to `reconcile`, deletions of objects still in the shard included.
   */
  reconciler<T extends KubeObject>(reconcile: Reconciler<T>): Reconciler<T>;
}

/** @internal The shard of one term. */
export function createShard(c: ResolvedShardingConfig, identity: string): Shard {
  const { apiVersion, kind } = c.resource;
  const labelSelector = ownerLabelSelector(c.labels, identity);
  return {
    identity,
    ring: c.ring,
    labelSelector,
    selector: { labelSelector },
    listWatch: (resource, config = {}) => listWatch(c.kubeConfig, resource, { ...config, labelSelector: config.labelSelector ? `${config.labelSelector},${labelSelector}` : labelSelector }),
    reconciler<T extends KubeObject>(reconcile: Reconciler<T>): Reconciler<T> {
      if (typeof reconcile !== 'function') throw argumentError('Shard.reconciler', 'reconcile must be a function');
      const released = new Set<string>();
      const draining = (object: KubeObject): boolean => object.metadata?.labels?.[c.labels.drain] !== undefined;
      const release = async (object: Frozen<T>, key: string, context: ControllerContext<T>): Promise<undefined> => {
        try {
          await c.client.patch({ apiVersion, kind, name: context.ref.name, ...(context.ref.namespace ? { namespace: context.ref.namespace } : {}) }, releasePatch(object, c.labels), { type: 'merge', signal: context.signal });
        } catch (error) {
          if (!(error instanceof KubeApiError && error.code === 404)) throw error;
        }
        released.add(key);
        c.onEvent({ type: 'released', key, identity });
        return undefined;
      };
      return (object, context) => {
        const key = refCacheKey(context.ref);
        if (released.has(key)) {
          if (object === undefined || draining(object)) return undefined;
          released.delete(key); // it came back to this member
        }
        return object !== undefined && draining(object) ? release(object, key, context) : reconcile(object, context);
      };
    },
  };
}
