/**
 * The server-side handshake's runtime: it feeds {@link handshakeStep} what the member sees and does
 * what the effects say — set the claim the member Lease's writes carry, ask for a write, read the
 * ring afresh, drain and start stretches, arm the retry timer — and turns their ends back into
 * inputs. It decides nothing.
 */
import { Observable, take, type SchedulerLike, type Subscription } from 'rxjs';
import type { Lease } from '../../coordination/lease.js';
import type { ShardRange } from '../../sources/shardSelector.js';
import type { ShardClaim } from './shardClaim.js';
import { initialHandshakeState, type HandshakeEffect, type HandshakeInput, type HandshakeState } from './handshakeState.js';
import { handshakeStep, type HandshakeStepConfig } from './handshakeStep.js';

/** An input without its time: what the member sees, and the ends of what the runtime started. */
export type HandshakeEvent = HandshakeInput extends infer I ? (I extends HandshakeInput ? Omit<I, 'now'> : never) : never;

/** What the runtime works with: what the member sees, and the hands it acts through. */
export interface HandshakeIo {
  /** Synced snapshots of the ring's Leases (`leases`), the live members (`members`), the member Lease's writes (`written`). */
  readonly seen$: Observable<Extract<HandshakeEvent, { type: 'leases' | 'members' | 'written' }>>;
  /** Reads the ring's member Leases afresh (one value). */
  readonly list: () => Observable<readonly Lease[]>;
  /** Sets the claim the member Lease's next write carries. */
  readonly claim: (claim: ShardClaim) => void;
  /** Asks the member's election for a write now. */
  readonly renew: () => void;
  /** Stops the stretch; emits once its runs have settled. */
  readonly drain: () => Observable<void>;
  /** Starts the stretch of `ranges` (empty: none). */
  readonly work: (ranges: readonly ShardRange[], gained: readonly ShardRange[]) => void;
  /** Clock and timers. */
  readonly scheduler: SchedulerLike;
  /** Hears a fresh read that failed. */
  readonly onError: ((error: unknown) => void) | undefined;
  /** Hears every state the member enters (for tests and traces). */
  readonly onState?: (state: HandshakeState) => void;
}

/** Runs one member's handshake while subscribed; errors only when `seen$` does. */
export function handshake(config: HandshakeStepConfig, io: HandshakeIo): Observable<never> {
  return new Observable<never>((subscriber) => {
    let state: HandshakeState = initialHandshakeState;
    const queue: HandshakeEvent[] = [];
    let busy = false;
    let closed = false;
    let list: Subscription | undefined;
    let drain: Subscription | undefined;
    let retry: Subscription | undefined;

    // Inputs are stepped one at a time, in order: an effect that feeds an input at once (a stretch
    // with no run in flight, a list answered synchronously) queues it behind the current one.
    const feed = (event: HandshakeEvent): void => {
      if (closed) return;
      queue.push(event);
      if (busy) return;
      busy = true;
      try {
        for (let next = queue.shift(); next !== undefined && !closed; next = queue.shift()) {
          const step = handshakeStep(state, { ...next, now: io.scheduler.now() } as HandshakeInput, config);
          if (step.state !== state) io.onState?.(step.state);
          state = step.state;
          step.effects.forEach(perform);
        }
      } catch (error) {
        subscriber.error(error);
      } finally {
        busy = false;
      }
    };

    const perform = (effect: HandshakeEffect): void => {
      switch (effect.type) {
        case 'claim':
          return io.claim(effect.claim);
        case 'renew':
          return io.renew();
        case 'list':
          list?.unsubscribe();
          list = io.list().pipe(take(1)).subscribe({
            next: (leases) => feed({ type: 'listed', leases }),
            error: (error: unknown) => feed({ type: 'listFailed', error }),
            complete: () => state.kind === 'checking' && feed({ type: 'listFailed', error: new Error('[sharded] the fresh list of the ring completed without a value') }),
          });
          return;
        case 'drain':
          drain?.unsubscribe();
          drain = io.drain().subscribe(() => feed({ type: 'drained' }));
          return;
        case 'work':
          return io.work(effect.ranges, effect.gained);
        case 'retryAt':
          retry?.unsubscribe();
          retry = io.scheduler.schedule(() => feed({ type: 'retry' }), Math.max(0, effect.at - io.scheduler.now()));
          return;
        case 'report':
          io.onError?.(effect.error);
          return;
      }
    };

    const seen = io.seen$.subscribe({ next: feed, error: (error: unknown) => subscriber.error(error) });
    return () => {
      closed = true;
      seen.unsubscribe();
      list?.unsubscribe();
      drain?.unsubscribe();
      retry?.unsubscribe();
    };
  });
}
