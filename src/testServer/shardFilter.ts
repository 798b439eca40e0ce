import type { KubeObject } from '../store/kubeObject.js';
import { parseShardSelector, shardSelectorMatches, shardSelectorOf } from '../sources/shardSelector.js';
import { kubeStatus, type KubeStatus } from './kubeStatus.js';
import { TestApiServerError } from './testApiServerError.js';

/** A LIST's or WATCH's `shardSelector`, as the server applies it (KEP-5866). @internal */
export interface ShardFilter {
  /** Whether the object's hashed uid (or namespace) lies in one of the ranges. */
  readonly matches: (object: KubeObject) => boolean;
  /** The selector as the server writes it back in `metadata.shardInfo.selector`. */
  readonly echo: string;
}

/**
 * The `shardSelector` of `query`, if any, parsed as kube-apiserver 1.36 does with the gate
 * `ShardedListAndWatch` on.
 *
 * @throws {TestApiServerError} 500 `invalid shard selector: …` with no `reason` and no `details`, as
 *   kube-apiserver v1.36.3 answers (checked by hand against the binary test/cluster builds): the
 *   registry returns the parse error unwrapped, so it is served as an internal error.
 * @internal
 */
export function parseShardFilter(query: URLSearchParams): ShardFilter | undefined {
  const text = query.get('shardSelector');
  if (text === null || text === '') return undefined;
  try {
    const selector = parseShardSelector(text);
    return { matches: (object) => shardSelectorMatches(selector, object), echo: shardSelectorOf(selector.ranges, selector.field) };
  } catch (error) {
    const { reason: _none, ...status } = kubeStatus(500, '', (error as Error).message);
    throw new TestApiServerError(status as KubeStatus);
  }
}
