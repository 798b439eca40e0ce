/*
 * No hot loop, on the wire (issue 7 §1, "backoff respected"): while the server refuses, fails or
 * asks to retry later, attempts are spaced by at least the delay the source announced, and their
 * number is bounded by the time spent.
 */
import test from 'ava';
import { KubeApiError, TransportError } from '../../src/errors.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { until, watchConfigMaps } from './harness.js';

async function synced(t: { teardown(fn: () => unknown): void }, backoff = { initialDelay: 50, maxDelay: 200 }) {
  const server = await createTestApiServer({ bookmarkIntervalMs: 100 });
  server.create('configmaps', { metadata: { name: 'a', namespace: 'default' } });
  const stamps: { type: string; at: number; delay?: number }[] = [];
  const w = watchConfigMaps(server, {
    backoff,
    onStatus: (s) => stamps.push({ type: s.type, at: performance.now(), ...(s.type === 'BACKING_OFF' ? { delay: s.delay } : {}) }),
  });
  t.teardown(async () => {
    w.subscription.unsubscribe();
    await server.close();
  });
  await w.untilConverged('the first sync');
  // One event, so that the next watch end is not a "very short watch".
  server.patch('configmaps', 'default', 'a', { data: { x: '1' } });
  await w.untilConverged('an event');
  return { server, w, stamps };
}

/** Every BACKING_OFF is followed by its next attempt no earlier than its delay. */
function spacing(stamps: readonly { type: string; at: number; delay?: number }[]): { waits: number; early: string[] } {
  const early: string[] = [];
  let waits = 0;
  stamps.forEach((s, i) => {
    if (s.type !== 'BACKING_OFF') return;
    const next = stamps.slice(i + 1).find((n) => n.type !== 'BACKING_OFF' && n.type !== 'ERROR');
    if (!next) return;
    waits++;
    // 2 ms of slack for timer granularity.
    if (next.at - s.at < s.delay! - 2) early.push(`waited ${(next.at - s.at).toFixed(1)} ms of ${s.delay!.toFixed(1)}`);
  });
  return { waits, early };
}

test('refused connections: attempts are spaced by the announced backoff and bounded by the time refused', async (t) => {
  const { server, w, stamps } = await synced(t);
  const from = stamps.length;
  const refusedAttempts = () => w.statusErrors().filter((e) => e instanceof TransportError && e.code === 'ECONNREFUSED').length;
  // Refused until the client has been refused three times (a condition, however slow the machine).
  const started = performance.now();
  await server.refuseConnections(until(() => refusedAttempts() >= 3, 'three refused attempts'));
  const refusedMs = performance.now() - started;
  await w.untilConverged('the server back');
  const { waits, early } = spacing(stamps.slice(from));
  t.deepEqual(early, [], 'no attempt before its backoff delay');
  t.true(waits >= 2, `backed off (${waits} waits)`);
  // Delays of at least 50 ms each: at most 1 + refusedMs/50 attempts while refused (plus the one that found it back).
  t.true(refusedAttempts() <= 2 + refusedMs / 50, `${refusedAttempts()} refused attempts in ${refusedMs.toFixed(0)} ms`);
});

test('429 with Retry-After: 1 on the watch: the re-watch waits a second, and there is no relist', async (t) => {
  const { server, w } = await synced(t);
  const lists = server.requests.filter((r) => r.verb === 'list').length;
  server.failNext({ status: 429, verbs: ['watch'], count: 1, retryAfterSeconds: 1 });
  server.closeWatches();
  await until(() => w.statusErrors().some((e) => e instanceof KubeApiError && e.code === 429), 'the 429');
  await w.untilConverged('the re-watch');
  const watches = server.requests.filter((r) => r.verb === 'watch');
  const failed = watches.findIndex((r) => r.status === 429);
  const next = watches[failed + 1]!;
  t.true(next.startedAt - watches[failed]!.respondedAt! >= 990, `re-watched ${next.startedAt - watches[failed]!.respondedAt!} ms after the 429`);
  t.is(server.requests.filter((r) => r.verb === 'list').length, lists, 'R9: a 429 on the watch does not relist');
});

test('500s on every LIST for a while: relists are spaced by the backoff, not a hot loop', async (t) => {
  const { server, w, stamps } = await synced(t);
  const from = stamps.length;
  const before = server.requests.length;
  server.failNext({ status: 500, verbs: ['list'], count: 4 });
  server.failWatches({ status: 410 });
  await w.untilConverged('the lists succeed again'); // the good list has answered, so it is logged
  const lists = server.requests.slice(before).filter((r) => r.verb === 'list');
  t.is(lists.length, 5, 'four failed LISTs and the good one');
  const gaps = lists.slice(1).map((r, i) => r.startedAt - lists[i]!.startedAt);
  t.true(gaps.every((g) => g >= 45), `gaps between LISTs ${gaps.join(', ')} ms (initial delay 50 ms)`);
  const { early } = spacing(stamps.slice(from));
  t.deepEqual(early, []);
});
