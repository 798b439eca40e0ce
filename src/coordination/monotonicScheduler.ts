import { asyncScheduler, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import { wallClock } from '../sources/wallClock.js';

/**
 * @internal The async scheduler's timers with a clock that only moves forward at the rate of
 * time: `performance.timeOrigin + performance.now()` (wall time at process start, then the
 * monotonic clock), so an NTP step or a manual change of the system time neither shortens nor
 * lengthens a lease as the elector measures it. `asyncScheduler.now()` is `Date.now()`, which does
 * jump.
 */
export const monotonicScheduler: SchedulerLike = {
  now: wallClock,
  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
    return asyncScheduler.schedule(work, delay, state);
  },
};
