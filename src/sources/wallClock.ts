/**
 * @internal The clock event arrival times are read on when no scheduler is given: epoch
 * milliseconds like `Date.now()`, at sub-millisecond resolution (`performance.timeOrigin +
 * performance.now()`, the global of browsers and Node), so a pipeline latency of a few microseconds is not rounded to 0 or 1 ms.
 */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}
