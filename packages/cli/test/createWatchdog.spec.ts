import test from 'ava';
import { VirtualTimeScheduler } from 'rxjs';
import { createWatchdog } from '../src/createWatchdog.js';

/** A watchdog on virtual time, and the times (ms) it fired at. */
function setUp(timeoutMs: number) {
  const scheduler = new VirtualTimeScheduler();
  const fired: number[] = [];
  const watchdog = createWatchdog(timeoutMs, () => fired.push(scheduler.now()), scheduler);
  /** Runs the clock to `ms`, doing `at[ms]` on the way. */
  const run = (at: Record<number, () => void>, until: number): void => {
    for (const [ms, act] of Object.entries(at)) scheduler.schedule(act, Number(ms));
    scheduler.schedule(() => undefined, until);
    scheduler.flush();
  };
  return { watchdog, fired, run };
}

test('fires timeoutMs after start, once', (t) => {
  const { watchdog, fired, run } = setUp(100);
  run({ 0: () => watchdog.start() }, 1000);
  t.deepEqual(fired, [100]);
});

test('start while running does not push the deadline back; restart does', (t) => {
  const { watchdog, fired, run } = setUp(100);
  run({ 0: () => watchdog.start(), 50: () => watchdog.start(), 90: () => watchdog.start() }, 1000);
  t.deepEqual(fired, [100], 'repeated failures keep the first deadline');
  const other = setUp(100);
  other.run({ 0: () => other.watchdog.start(), 50: () => other.watchdog.restart(), 120: () => other.watchdog.restart() }, 1000);
  t.deepEqual(other.fired, [220], 'progress moves it');
});

test('stop holds it until the next start; after firing it stays quiet', (t) => {
  const { watchdog, fired, run } = setUp(100);
  run({ 0: () => watchdog.start(), 60: () => watchdog.stop(), 300: () => watchdog.start(), 500: () => watchdog.restart() }, 1000);
  t.deepEqual(fired, [400]);
});

test('a timeout of 0 never fires', (t) => {
  const { watchdog, fired, run } = setUp(0);
  run({ 0: () => watchdog.start(), 10: () => watchdog.restart() }, 10_000);
  t.deepEqual(fired, []);
});
