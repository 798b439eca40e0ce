import { Observable, type Subscriber, type Subscription } from 'rxjs';
import { shardSelectorOf, type ShardRange } from '../sources/shardSelector.js';
import { subtractRanges } from './rangeSet.js';
import { createServerShard, runCounter, type ServerShard } from './serverShard.js';
import type { ResolvedShardingConfig } from './shardingConfig.js';

/** @internal The work of one member, stretch after stretch of unchanged ranges. */
export interface RangeStretches {
  /** The ranges the current stretch works on (empty: none runs). */
  readonly working: () => readonly ShardRange[];
  /** Whether a move is under way (the old stretch stopped, its runs not yet settled). */
  readonly moving: () => boolean;
  /**
   * Stops the stretch, waits until its runs have settled, calls `then` (the claim of `next` is
   * made there), starts the stretch of `next` and calls `settled`.
   */
  readonly move: (next: readonly ShardRange[], then: () => void) => void;
  /** Stops the stretch for good. */
  readonly stop: () => void;
}

/**
 * @internal Runs `work` once per stretch of ranges for `subscriber`, whose values, error and
 * completion (a graceful shutdown) it passes on. A move lets the runs of the old stretch settle
 * (the drain handshake's first half) before the new one starts; `settled` hears the end of a move.
 */
export function rangeStretches<T>(c: ResolvedShardingConfig, identity: string, work: (shard: ServerShard) => Observable<T>, subscriber: Subscriber<T>, settled: () => void): RangeStretches {
  const runs = runCounter();
  let working: readonly ShardRange[] = [];
  /** What `working` adds to the stretch before it (all of it in the term's first). */
  let gained: readonly ShardRange[] = [];
  let moving = false;
  let stretch: Subscription | undefined;

  const start = (): void => {
    c.onEvent({ type: 'ranges', identity, ranges: working });
    if (working.length === 0) return;
    const shard = createServerShard(identity, c.ring, working, gained, c.shardField, shardSelectorOf(working, c.shardField), runs);
    stretch = new Observable<T>((s) => work(shard).subscribe(s)).subscribe({
      next: (value) => subscriber.next(value),
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  };
  const stop = (): void => {
    stretch?.unsubscribe();
    stretch = undefined;
  };
  return {
    working: () => working,
    moving: () => moving,
    move: (next, then) => {
      moving = true;
      stop();
      void runs.idle().then(() => {
        if (subscriber.closed) return;
        gained = subtractRanges(next, working);
        working = next;
        then();
        start();
        moving = false;
        settled();
      });
    },
    stop,
  };
}
