import test from 'ava';
import { spawn } from 'node:child_process';
import { isIdle, processCpuMs, waitForIdle } from '../../bench/cluster/waitForIdle.js';

const readings = (...pairs: Array<[number, number]>) => pairs.map(([at, cpuMs]) => ({ at, cpuMs }));

test('isIdle: quiet only after a whole window with at most the allowed CPU', (t) => {
  t.false(isIdle([], 1_000, 50), 'no readings');
  t.false(isIdle(readings([0, 0], [750, 0]), 1_000, 50), 'less than a window of readings');
  t.true(isIdle(readings([0, 0], [500, 10], [1_000, 40]), 1_000, 50));
  t.false(isIdle(readings([0, 0], [500, 10], [1_000, 60]), 1_000, 50), '60 ms of CPU in the window');
  // The window is counted back from the latest reading: busy earlier, quiet in the last second.
  t.true(isIdle(readings([0, 0], [250, 900], [1_250, 920]), 1_000, 50));
  t.false(isIdle(readings([0, 0], [250, 900], [1_000, 920]), 1_000, 50), 'the quiet stretch is shorter than the window');
});

test('processCpuMs reads this process’s CPU time as Node counts it', (t) => {
  const used = (): number => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const [before, ownBefore] = [processCpuMs(process.pid), used()];
  while (used() - ownBefore < 200); // busy on purpose: CPU time must grow by 200 ms
  const [after, ownAfter] = [processCpuMs(process.pid), used()];
  // /proc counts in 10 ms ticks.
  t.true(Math.abs(after - before - (ownAfter - ownBefore)) <= 30, `/proc ${after - before} ms, Node ${ownAfter - ownBefore} ms`);
});

test('waitForIdle: a busy process is not idle before the limit; a sleeping one is', async (t) => {
  const busy = spawn(process.execPath, ['-e', 'for(;;);']);
  const quiet = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  t.teardown(() => {
    busy.kill('SIGKILL');
    quiet.kill('SIGKILL');
  });
  const spun = await waitForIdle([busy.pid!], { windowMs: 200, maxWaitMs: 600, pollMs: 50 });
  t.false(spun.idle);
  t.true(spun.waitedMs >= 600);
  const slept = await waitForIdle([quiet.pid!], { windowMs: 200, idleCpuMs: 30, maxWaitMs: 10_000, pollMs: 50 });
  t.true(slept.idle, JSON.stringify(slept));
});
