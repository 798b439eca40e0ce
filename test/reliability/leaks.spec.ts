/*
 * No leak after unsubscribe (issue 7 §4, the short form that runs in every CI run): an informer
 * over listWatch is unsubscribed at a random moment - mid-list, mid-watch, during a backoff, while
 * connections are refused or responses delayed, after a 410 - and then nothing of it is left:
 * no open watch on the server, and no socket or timer keeping the process alive
 * (`process.getActiveResourcesInfo()` back to the baseline). Serial: the check is process-wide.
 */
import test from 'ava';
import fc from 'fast-check';
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { sleep } from './harness.js';

const faults = ['none', 'refuse', 'slowList', 'slowWatch', '500', '429', 'watch410', 'reset', 'splitLines'] as const;
type Fault = (typeof faults)[number];

function inject(server: TestApiServer, fault: Fault): Promise<void> | void {
  switch (fault) {
    case 'none':
      return;
    case 'refuse':
      return server.refuseConnections(150);
    case 'slowList':
      return server.delayResponses({ ms: 200, verbs: ['list'], count: 2 });
    case 'slowWatch':
      server.delayResponses({ ms: 200, verbs: ['watch'], count: 2 });
      server.closeWatches();
      return;
    case '500':
      server.failNext({ status: 500, verbs: ['list', 'watch'], count: 3 });
      server.failWatches({ status: 410 });
      return;
    case '429':
      server.failNext({ status: 429, verbs: ['watch'], count: 3, retryAfterSeconds: 0 });
      server.closeWatches();
      return;
    case 'watch410':
      server.failWatches({ status: 410 });
      return;
    case 'reset':
      server.breakWatches({ reset: true });
      return;
    case 'splitLines':
      server.splitWatchLines(3);
      return;
  }
}

const counts = (): Map<string, number> => {
  const m = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
};
const extra = (base: Map<string, number>): string[] =>
  [...counts()].filter(([k, v]) => v > (base.get(k) ?? 0)).map(([k, v]) => `${k}×${v - (base.get(k) ?? 0)}`);

test.serial('unsubscribing at any moment leaves no open watch, socket or timer', async (t) => {
  t.timeout(120_000);
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...faults),
      fc.integer({ min: 0, max: 120 }),
      fc.integer({ min: 0, max: 120 }),
      fc.boolean(),
      fc.constantFrom(0, 50),
      async (fault, faultAfter, unsubscribeAfter, streamingList, graceMs) => {
        const server = await createTestApiServer({ bookmarkIntervalMs: 30 });
        try {
          server.seed('configmaps', Array.from({ length: 30 }, (_, i) => ({ metadata: { name: `c${i}`, namespace: 'default' } })));
          const base = counts();
          const inf = informer(
            listWatch(server.kubeConfig, { version: 'v1', plural: 'configmaps' }, { pageSize: 7, streamingList, backoff: { initialDelay: 20, maxDelay: 100 } }),
            { graceMs, resyncMs: 40 },
          );
          const sub = inf.changes$.subscribe();
          const handler = inf.addHandler({});
          // When the fault comes and when the subscribers leave are inputs of the property ("at
          // any moment"), not waits before an assertion: the checks below wait for conditions.
          await sleep(faultAfter);
          const pending = inject(server, fault);
          await sleep(unsubscribeAfter);
          sub.unsubscribe();
          handler.unsubscribe();
          await pending;
          server.clearFaults();
          // The grace period, then the sockets close.
          const deadline = Date.now() + 1_000 + graceMs;
          while ((server.openWatchCount > 0 || extra(base).length > 0) && Date.now() < deadline) await sleep(10);
          if (server.openWatchCount > 0) throw new Error(`${server.openWatchCount} watches still open after unsubscribe (fault ${fault})`);
          const left = extra(base);
          if (left.length > 0) throw new Error(`left behind after unsubscribe (fault ${fault}): ${left.join(', ')}`);
          cases++;
        } finally {
          await server.close();
        }
      },
    ),
    { numRuns: 40, seed: 77, includeErrorInReport: true },
  );
  t.log(`${cases} unsubscribe moments, nothing left behind`);
  t.is(cases, 40);
});
