import { Observable, type Subscriber, type Subscription } from 'rxjs';
import { shardSelectorOf, type ShardRange } from '../../sources/shardSelector.js';
import { createServerShard, runCounter, type ServerShard } from './serverShard.js';
import type { ResolvedShardingConfig } from '../shardingConfig.js';

/** @internal The work of one member, stretch after stretch of unchanged ranges. */
export interface RangeStretches {
  /** Stops the stretch; emits (and completes) once its runs have settled — the drain handshake's first half. */
  readonly drain: () => Observable<void>;
  /** Starts the stretch of `ranges` (empty: none), `gained` being what it adds to the one before. */
  readonly start: (ranges: readonly ShardRange[], gained: readonly ShardRange[]) => void;
  /** Stops the stretch for good. */
  readonly stop: () => void;
}

/**
 * @internal Runs `work` once per stretch of ranges for `subscriber`, whose values, error and
 * completion (a graceful shutdown) it passes on; the runs of every stretch are counted, so that a
 * move lets the old stretch's runs settle before the new one starts.
 */
export function rangeStretches<T>(c: ResolvedShardingConfig, identity: string, work: (shard: ServerShard) => Observable<T>, subscriber: Subscriber<T>): RangeStretches {
  const runs = runCounter();
  let stretch: Subscription | undefined;
  const stop = (): void => {
    stretch?.unsubscribe();
    stretch = undefined;
  };
  return {
    drain: () => {
      stop();
      return runs.idle();
    },
    start: (ranges, gained) => {
      c.onEvent({ type: 'ranges', identity, ranges });
      if (ranges.length === 0 || subscriber.closed) return;
      const shard = createServerShard(c.kubeConfig, identity, c.ring, ranges, gained, c.shardField, shardSelectorOf(ranges, c.shardField), runs);
      stretch = new Observable<T>((s) => work(shard).subscribe(s)).subscribe({
        next: (value) => subscriber.next(value),
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    },
    stop,
  };
}
