import test from 'ava';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { metaNamespaceKey } from '../../src/store/keyFunc.js';
import { createTestApiServer, type TestApiServer } from '../../src/testing/index.js';
import { start, until, sleep } from './httpHarness.js';

/** The smallest cache a RawEvent stream can drive: lists buffered and swapped in at LIST_DONE. */
function miniStore(): { apply(e: RawEvent<KubeObject>): void; rvs(): Map<string, string> } {
  let live = new Map<string, KubeObject>();
  let buffer: Map<string, KubeObject> | undefined;
  return {
    apply(e) {
      switch (e.type) {
        case 'LIST_START':
          buffer = new Map();
          break;
        case 'LIST_PAGE':
          for (const o of e.items) buffer!.set(metaNamespaceKey(o), o);
          break;
        case 'LIST_DONE':
          live = buffer!;
          buffer = undefined;
          break;
        case 'ADDED':
        case 'MODIFIED':
          live.set(metaNamespaceKey(e.object), e.object);
          break;
        case 'DELETED':
          live.delete(metaNamespaceKey(e.object));
          break;
        case 'BOOKMARK':
          break;
      }
    },
    rvs: () => new Map([...live].map(([k, o]) => [k, o.metadata?.resourceVersion ?? ''])),
  };
}

const serverRVs = (server: TestApiServer): Map<string, string> =>
  new Map(server.list('configmaps').map((o) => [metaNamespaceKey(o as KubeObject), (o as KubeObject).metadata?.resourceVersion ?? '']));

const same = (a: Map<string, string>, b: Map<string, string>): boolean => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

let counter = 0;
function churn(server: TestApiServer, broadcast = true): void {
  const names = server.list('configmaps').map((o) => (o as KubeObject).metadata!.name!);
  server.create('configmaps', { metadata: { name: `new-${counter++}`, namespace: 'default' }, data: { n: String(counter) } }, { broadcast });
  if (names[0]) server.patch('configmaps', 'default', names[0], { data: { n: String(counter) } }, { broadcast });
  if (names[1]) server.delete('configmaps', 'default', names[1], { broadcast });
}

test('a cache driven by listWatch converges to the server state after every fault the server can inject', async (t) => {
  const server = await createTestApiServer({ bookmarkIntervalMs: 50 });
  try {
    server.seed('configmaps', Array.from({ length: 50 }, (_, i) => ({ metadata: { name: `seed-${i}`, namespace: 'default' } })));
    const store = miniStore();
    const run = start(server, { version: 'v1', plural: 'configmaps' }, { pageSize: 7 });
    const converged = async (fault: string): Promise<void> => {
      await until(() => {
        for (const e of run.events.splice(0)) store.apply(e);
        return same(store.rvs(), serverRVs(server)) && server.openWatchCount === 1;
      }, `convergence after ${fault}`);
      t.pass(fault);
    };
    try {
      await converged('the initial paginated list');
      churn(server);
      await converged('live events');
      churn(server);
      server.closeWatches();
      churn(server);
      await converged('a clean close');
      await sleep(120);
      server.breakWatches({ reset: true });
      churn(server);
      await converged('a reset mid-line');
      churn(server, false); // changes the watch never sees…
      server.compact(); // …and the log forgets: the re-watch gets 410 and relists (deletes found by the relist)
      server.closeWatches();
      await converged('compaction with dropped events');
      server.failNext({ status: 429, verbs: ['watch'], count: 3, retryAfterSeconds: 0 });
      server.closeWatches();
      churn(server);
      await converged('three 429s');
      server.splitWatchLines(5);
      churn(server);
      churn(server);
      await converged('lines split in 5-byte chunks');
      server.splitWatchLines(undefined);
      server.emitMalformedLine();
      churn(server);
      await converged('a malformed line');
      server.failNext({ status: 410, verbs: ['list'] });
      server.emitMalformedLine();
      await converged('a 410 on the relist');
      await sleep(120);
      await server.refuseConnections(100);
      churn(server);
      await converged('refused connections');
      server.failNext({ status: 500, verbs: ['list', 'watch'], count: 2 });
      server.closeWatches();
      churn(server);
      await converged('internal errors');
    } finally {
      run.subscription.unsubscribe();
    }
    t.is(run.error, undefined);
  } finally {
    await server.close();
  }
});
