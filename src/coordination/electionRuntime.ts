/**
 * The elector's runtime: it feeds {@link electionStep} and does what the effects say — start the
 * one request, arm the two timers, emit, report — and turns the ends of requests and timers back
 * into inputs. It decides nothing.
 */
import { take, timeout, type Observable, type SchedulerLike, type Subscriber, type Subscription } from 'rxjs';
import { stalledError } from '../errors.js';
import type { ResolvedElectionConfig } from './leaderElectionConfig.js';
import { initialElectionState, type ElectionEffect, type ElectionInput, type ElectionState, type Leadership } from './electionState.js';
import { electionStep } from './electionStep.js';
import type { Lease } from './lease.js';

type Event = Extract<ElectionInput, { type: 'start' | 'attempt' | 'renew' | 'deadline' | 'stop' }>['type'];
type Outcome = { readonly type: 'read'; readonly lease: Lease | undefined } | { readonly type: 'written'; readonly lease: Lease } | { readonly type: 'failed'; readonly error: unknown };

/**
 * Runs one election for `subscriber`; returns the teardown, which stops it (and, with
 * releaseOnCancel, goes on alone until the lease is released or the release deadline passes).
 */
export function runElection(config: ResolvedElectionConfig, subscriber: Subscriber<Leadership>): () => void {
  const { scheduler, leases, random } = config;
  let state: ElectionState = initialElectionState;
  const queue: Array<Event | Outcome> = [];
  let busy = false;
  let detached = false;

  // Inputs are stepped one at a time, in order: an effect that feeds an input at once (a request
  // answered synchronously, a timer already due) queues it behind the current one.
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
  const request = leaseRequestSlot(scheduler, config.renewDeadlineMs / 2, feed);
  const timers = { attempt: timerSlot(scheduler, () => feed('attempt')), deadline: timerSlot(scheduler, () => feed('deadline')) };

  const perform = (effect: ElectionEffect): void => {
    switch (effect.type) {
      case 'get':
        return request.send('get', leases.get(config.lease), (lease) => ({ type: 'read', lease }));
      case 'create':
        return request.send('create', leases.create(effect.lease), (lease) => ({ type: 'written', lease: lease! }));
      case 'update':
        return request.send('update', leases.update(effect.lease), (lease) => ({ type: 'written', lease: lease! }));
      case 'cancel':
        return request.cancel();
      case 'attemptAt':
        return timers.attempt.arm(effect.at);
      case 'deadlineAt':
        return timers.deadline.arm(effect.at);
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
    request.cancel();
    timers.attempt.arm(undefined);
    timers.deadline.arm(undefined);
  };

  feed('start');
  const renewals = config.renewWhen?.subscribe(() => detached || feed('renew'));
  return () => {
    if (detached) return;
    detached = true;
    renewals?.unsubscribe();
    feed('stop');
  };
}

/**
 * The one Lease request in flight: `send` cancels the one before, limits the new one to its first
 * value within `timeoutMs`, and feeds its outcome back (`failed` for an error, a timeout, or an end
 * without a value).
 */
function leaseRequestSlot(scheduler: SchedulerLike, timeoutMs: number, feed: (outcome: Outcome) => void) {
  let request: Subscription | undefined;
  const cancel = (): void => {
    request?.unsubscribe();
    request = undefined;
  };
  const send = (verb: string, source: Observable<Lease | undefined>, done: (lease: Lease | undefined) => Outcome): void => {
    cancel();
    let answered = false;
    const limited = source.pipe(take(1), timeout({ first: timeoutMs, scheduler, with: () => { throw stalledError(verb, timeoutMs); } }));
    request = limited.subscribe({
      next: (lease) => {
        answered = true;
        feed(done(lease));
      },
      error: (error: unknown) => feed({ type: 'failed', error }),
      complete: () => answered || feed({ type: 'failed', error: new Error('[leaderElection] the lease request completed without a value') }),
    });
  };
  return { send, cancel };
}

/**
 * A timer that calls `fire` at the time `arm` was given, on the elector's clock (`undefined`
 * disarms it); one that fires early, as a scheduler's timer may, is armed again for the rest.
 */
function timerSlot(scheduler: SchedulerLike, fire: () => void) {
  let timer: Subscription | undefined;
  const arm = (at: number | undefined): void => {
    timer?.unsubscribe();
    timer = undefined;
    if (at === undefined) return;
    const wake = (): void => {
      const rest = at - scheduler.now();
      if (rest > 0) timer = scheduler.schedule(wake, rest);
      else fire();
    };
    timer = scheduler.schedule(wake, Math.max(0, at - scheduler.now()));
  };
  return { arm };
}
