/**
 * The elector's runtime: it feeds {@link electionStep} and does what the effects say — start the
 * one request, arm the two timers, emit, report — and turns the ends of requests and timers back
 * into inputs. It decides nothing.
 */
import { take, timeout, type Observable, type Subscriber, type Subscription } from 'rxjs';
import { stalledError } from '../errors.js';
import type { ResolvedElectionConfig } from './leaderElectionConfig.js';
import { initialElectionState, type ElectionEffect, type ElectionInput, type ElectionState, type Leadership } from './electionState.js';
import { electionStep } from './electionStep.js';
import type { Lease } from './lease.js';

type Event = Extract<ElectionInput, { type: 'start' | 'attempt' | 'deadline' | 'stop' }>['type'];
type Outcome = { readonly type: 'read'; readonly lease: Lease | undefined } | { readonly type: 'written'; readonly lease: Lease } | { readonly type: 'failed'; readonly error: unknown };

/**
 * Runs one election for `subscriber`; returns the teardown, which stops it (and, with
 * releaseOnCancel, goes on alone until the lease is released or the release deadline passes).
 */
export function runElection(config: ResolvedElectionConfig, subscriber: Subscriber<Leadership>): () => void {
  const { scheduler, leases, random } = config;
  let state: ElectionState = initialElectionState;
  let request: Subscription | undefined;
  const timers: { attempt?: Subscription | undefined; deadline?: Subscription | undefined } = {};
  const queue: Array<Event | Outcome> = [];
  let busy = false;
  let detached = false;

  const feed = (input: Event | Outcome): void => {
    queue.push(input);
    if (busy) return;
    busy = true;
    try {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const stamped = { ...(typeof next === 'string' ? { type: next } : next), now: scheduler.now(), random: random() } as ElectionInput;
        const step = electionStep(state, stamped, config);
        state = step.state;
        step.effects.forEach(perform);
      }
    } catch (error) {
      queue.length = 0;
      clear();
      if (!detached) subscriber.error(error);
    } finally {
      busy = false;
    }
  };

  // A request unanswered after half the renew deadline is abandoned (a stuck connection must not
  // stall a follower for ever; a leader's deadline ends its term anyway).
  const requestTimeoutMs = config.renewDeadlineMs / 2;
  const send = (verb: string, source: Observable<Lease | undefined>, done: (lease: Lease | undefined) => Outcome): void => {
    request?.unsubscribe();
    let answered = false;
    const limited = source.pipe(take(1), timeout({ first: requestTimeoutMs, scheduler, with: () => { throw stalledError(verb, requestTimeoutMs); } }));
    request = limited.subscribe({
      next: (lease) => {
        answered = true;
        feed(done(lease));
      },
      error: (error: unknown) => feed({ type: 'failed', error }),
      complete: () => answered || feed({ type: 'failed', error: new Error('[informer] leaderElection: the lease request completed without a value') }),
    });
  };

  /** Arms a timer that feeds `input` at `at` on the elector's clock; a timer that fires early is armed again for the rest. */
  const arm = (slot: 'attempt' | 'deadline', at: number | undefined): void => {
    timers[slot]?.unsubscribe();
    timers[slot] = undefined;
    if (at === undefined) return;
    const wake = (): void => {
      const rest = at - scheduler.now();
      if (rest > 0) timers[slot] = scheduler.schedule(wake, rest);
      else feed(slot);
    };
    timers[slot] = scheduler.schedule(wake, Math.max(0, at - scheduler.now()));
  };

  const perform = (effect: ElectionEffect): void => {
    switch (effect.type) {
      case 'get':
        return send('get', leases.get(config.lease), (lease) => ({ type: 'read', lease }));
      case 'create':
        return send('create', leases.create(effect.lease), (lease) => ({ type: 'written', lease: lease! }));
      case 'update':
        return send('update', leases.update(effect.lease), (lease) => ({ type: 'written', lease: lease! }));
      case 'cancel':
        request?.unsubscribe();
        request = undefined;
        return;
      case 'attemptAt':
        return arm('attempt', effect.at);
      case 'deadlineAt':
        return arm('deadline', effect.at);
      case 'emit':
        if (!detached) subscriber.next(effect.leadership);
        return;
      case 'report':
        config.onError?.(effect.error);
        return;
      case 'finish':
        return clear();
    }
  };

  const clear = (): void => {
    request?.unsubscribe();
    request = undefined;
    arm('attempt', undefined);
    arm('deadline', undefined);
  };

  feed('start');
  return () => {
    if (detached) return;
    detached = true;
    feed('stop');
  };
}
