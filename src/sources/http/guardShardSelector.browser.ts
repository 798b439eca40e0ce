import type { ListerWatcher } from '../listerWatcher.js';
import type { CheckedShardSelector } from './guardShardSelector.js';
import { argumentError } from '../../options/optionChecks.js';

/**
 * What a browser bundle gets for `guardShardSelector.js` (the package's `browser` field maps it
 * here): server-side sharding splits a controller's work across replicas (`sharded()`, Node), which
 * a page has no use for, so the browser build leaves out the selector's parser and hash and
 * refuses the option with a clear error. (The web bundle's 25 kB budget is why.)
 *
 * @throws {TypeError} always.
 */
export function checkShardSelector(_text: string): CheckedShardSelector {
  throw argumentError('shardSelector', 'server-side sharding (a controller feature) is not in the browser build');
}

/** Never reached: {@link checkShardSelector} refuses first. */
export function guardShardSelector<T>(inner: ListerWatcher<T>, _selector: CheckedShardSelector): ListerWatcher<T> {
  return inner;
}
