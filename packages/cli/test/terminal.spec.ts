/*
 * The live view on a real pseudo-terminal (util-linux `script`): colours only when wanted, NAME
 * never cut, no frame that says two things at once, and the terminal given back on Ctrl-C.
 */
import test, { type ExecutionContext } from 'ava';
import type { TestApiServerConfig } from 'rx-informer/test-server';
import { cliCluster, type CliCluster } from './cliCluster.js';
import { hasScript, plain, spawnPty, type PtyRun } from './spawnPty.js';

/** Select Graphic Rendition escapes: colours, bold, dim, strike-through (cursor moves are not SGR). */
const sgr = /\x1b\[[0-9;]*m/;
const leave = '\x1b[?25h\x1b[?1049l';

async function live(t: ExecutionContext, c: CliCluster, args: readonly string[], size: { cols: number; rows: number }, env?: Record<string, string | undefined>): Promise<PtyRun> {
  t.true(hasScript, 'util-linux `script` is needed to run the CLI on a pseudo-terminal');
  const run = spawnPty(['watch', ...args, '--kubeconfig', c.kubeconfig], { ...size, ...(env ? { env } : {}) });
  t.teardown(() => run.kill());
  await run.waitFor((r) => r.frames().some((frame) => /^● watching/m.test(frame.join('\n'))), 'a frame of the open watch');
  return run;
}

/** Ctrl-C, then: exit 0, the cursor shown and the alternate screen left. */
async function quit(t: ExecutionContext, run: PtyRun): Promise<void> {
  run.type('\x03');
  t.is(await run.exit, 0);
  t.true(run.output().includes(leave), 'the terminal is given back');
}

async function podsCluster(t: ExecutionContext, config: TestApiServerConfig = {}): Promise<CliCluster> {
  const c = await cliCluster(t, config);
  const names = ['checkout-payments-reconciler-7f9c8d6b5d-x2v4q', 'web-1', 'web-2-with-a-fairly-long-name-indeed'];
  c.server.seed('pods', names.map((name, i) => ({
    metadata: { name, namespace: i === 0 ? 'payments-production' : 'default' },
    spec: { nodeName: 'node-01', containers: [{ name: 'c', image: 'nginx' }] },
    status: { phase: 'Running', containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: { running: {} } }] },
  })));
  return c;
}

test.serial('colours by default; none with NO_COLOR or --no-color, cursor control unchanged', async (t) => {
  const c = await podsCluster(t);
  const colored = await live(t, c, ['pods', '-A'], { cols: 120, rows: 20 });
  t.regex(colored.output(), sgr, 'the control: colours are there by default');
  await quit(t, colored);
  for (const [args, env] of [[['pods', '-A'], { NO_COLOR: '1' }], [['pods', '-A', '--no-color'], {}]] as const) {
    const run = await live(t, c, args, { cols: 120, rows: 20 }, env);
    await quit(t, run);
    t.notRegex(run.output(), sgr, `${args.join(' ')} ${JSON.stringify(env)}`);
    t.true(run.output().startsWith('\x1b[?1049h\x1b[?25l'), 'still the alternate screen');
  }
});

test.serial('on a narrow terminal NAME is never cut: the other columns shrink first', async (t) => {
  const c = await podsCluster(t);
  const run = await live(t, c, ['pods', '-A'], { cols: 72, rows: 20 });
  const frame = run.frames().findLast((f) => f.some((line) => /^ {2}\S+ +NAME +/.test(line)));
  t.truthy(frame, run.frames().map((f) => f.join('\n')).join('\n=====\n').slice(-3000));
  if (!frame) return;
  for (const name of ['checkout-payments-reconciler-7f9c8d6b5d-x2v4q', 'web-1', 'web-2-with-a-fairly-long-name-indeed']) {
    t.true(frame.some((line) => line.includes(` ${name} `)), `${name} whole in:\n${frame.join('\n')}`);
  }
  t.true(frame.every((line) => line.length <= 72), 'every line fits');
  t.true(frame.some((line) => line.includes('…')), 'something else gave up room');
  await quit(t, run);
});

test.serial('no frame contradicts itself: while the list is applied and the watch opens, it is not both "synced" and "syncing"', async (t) => {
  const c = await podsCluster(t);
  // Hold the watch's answer, so that frames are drawn between the applied list and the open watch.
  c.server.delayResponses({ verbs: ['watch'], ms: 1500, count: 1 });
  const run = await live(t, c, ['pods', '-A'], { cols: 120, rows: 20 });
  const frames = run.frames().map((frame) => frame.join('\n'));
  t.true(frames.some((frame) => /synced in/.test(frame) && !/watching/.test(frame.split('\n')[1]!)), 'frames from the gap were seen');
  for (const frame of frames) {
    t.false(/synced in/.test(frame) && /syncing/.test(frame), frame);
    t.false(/^● listing/m.test(frame) && /synced in/.test(frame), frame);
  }
  await quit(t, run);
  t.regex(plain(run.output().slice(run.output().lastIndexOf(leave))), /watching at resourceVersion \d+ · 3 pods/, 'a summary stays on the terminal');
});

test.serial('an empty namespace: the live view says what kubectl get says there', async (t) => {
  const c = await podsCluster(t);
  const kubectl = c.kubectl(['get', 'pods', '-n', 'does-not-exist']);
  t.is(await kubectl.exit, 0);
  const said = kubectl.stderr().trim();
  t.is(said, 'No resources found in does-not-exist namespace.', 'the control: what kubectl says');
  const run = await live(t, c, ['pods', '-n', 'does-not-exist'], { cols: 120, rows: 20 });
  await run.waitFor((r) => r.frames().some((frame) => frame.some((line) => line.trim() === said)), `a frame saying ${said}`);
  await quit(t, run);
});
