import { tap } from 'rxjs';
import { ShardSelectorError } from '../../errors.js';
import type { KubeObject } from '../../store/kubeObject.js';
import type { ListerWatcher } from '../listerWatcher.js';
import { parseShardSelector, shardSelectorMatches, type ParsedShardSelector } from '../shardSelector.js';
import { argumentError } from '../../options/optionChecks.js';

/** A shard selector, checked, with its text. */
export interface CheckedShardSelector extends ParsedShardSelector {
  readonly text: string;
}

/**
 * @internal Checks a `shardSelector` option before anything is sent: the API server answers a bad
 * one with a 500, which looks like a fault worth retrying.
 *
 * @throws {TypeError} `[informer] shardSelector: invalid shard selector: …`.
 */
export function checkShardSelector(text: string): CheckedShardSelector {
  try {
    return { ...parseShardSelector(text), text };
  } catch (error) {
    throw argumentError('shardSelector', `${(error as Error).message}`);
  }
}

/**
 * @internal A {@link ListerWatcher} that ends with a {@link ShardSelectorError} when the server
 * shows it ignored the shard selector: a LIST answer without `metadata.shardInfo`, or a listed or
 * watched object whose hash is outside the ranges (a streaming list echoes nothing, so this is its
 * only sign). The hash is FNV-1a 64 of one field per object: cheap beside decoding it.
 */
export function guardShardSelector<T>(inner: ListerWatcher<T>, selector: CheckedShardSelector): ListerWatcher<T> {
  const outside = (object: unknown): boolean => object !== null && typeof object === 'object' && !shardSelectorMatches(selector, object as KubeObject);
  const fail = (what: string): never => {
    throw new ShardSelectorError(selector.text, what);
  };
  return {
    ...inner,
    list: (request) =>
      inner.list(request).pipe(
        tap((response) => {
          if (response.shardInfo === undefined) fail('its list answer has no metadata.shardInfo');
          const stray = response.items.find(outside) as KubeObject | undefined;
          if (stray !== undefined) fail(`it listed ${stray.metadata?.name ?? 'an object'} (uid ${stray.metadata?.uid ?? '?'}), outside the ranges`);
        }),
      ),
    watch: (request) =>
      inner.watch(request).pipe(
        tap((message) => {
          if ((message.type === 'ADDED' || message.type === 'MODIFIED' || message.type === 'DELETED') && outside(message.object)) {
            const object = message.object as KubeObject;
            fail(`it sent ${message.type} ${object.metadata?.name ?? 'an object'} (uid ${object.metadata?.uid ?? '?'}), outside the ranges`);
          }
        }),
      ),
  };
}
