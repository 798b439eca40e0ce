import test from 'ava';
import { tap } from 'rxjs';
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import { byNamespace } from '../../src/store/indexFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { metaNamespaceKey } from '../../src/store/keyFunc.js';
import type { Notification } from '../../src/store/notification.js';
import type { Snapshot } from '../../src/store/snapshot.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { fastBackoff, until } from './httpHarness.js';

/** Replays notifications from empty: what a consumer that only listens to changes$ would hold. */
function replay(changes: readonly Notification<KubeObject>[]): Map<string, string> {
  const state = new Map<string, string>();
  for (const change of changes) {
    if (change.type === 'delete') state.delete(change.key);
    else state.set(change.key, change.object.metadata?.resourceVersion ?? '');
  }
  return state;
}

const snapshotRVs = (snapshot: Snapshot<KubeObject>): Map<string, string> => new Map([...snapshot.entries()].map(([k, o]) => [k, o.metadata?.resourceVersion ?? '']));

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

test('an informer over listWatch converges to the server state after every fault the server can inject', async (t) => {
  const server = await createTestApiServer({ bookmarkIntervalMs: 50 });
  try {
    server.seed('configmaps', Array.from({ length: 50 }, (_, i) => ({ metadata: { name: `seed-${i}`, namespace: 'default' } })));
    let bookmarks = 0;
    const source = listWatch(server.kubeConfig, { version: 'v1', plural: 'configmaps' }, { pageSize: 7, backoff: fastBackoff });
    const configMaps = informer(source.pipe(tap((e) => e.type === 'BOOKMARK' && bookmarks++)), {
      indexers: { namespace: byNamespace },
    });
    // A watch that delivered an event is not "very short" when it breaks (R7/R8): wait for one.
    const aBookmark = async (): Promise<void> => {
      const seen = bookmarks;
      await until(() => bookmarks > seen, 'a bookmark on the open watch');
    };
    const changes: Notification<KubeObject>[] = [];
    const errors: unknown[] = [];
    const subscription = configMaps.changes$.subscribe({ next: (c) => changes.push(c), error: (e) => errors.push(e) });
    const run = { subscription };
    const converged = async (fault: string): Promise<void> => {
      await until(() => same(snapshotRVs(configMaps.snapshot), serverRVs(server)) && server.openWatchCount === 1, `convergence after ${fault}`);
      t.true(same(replay(changes), serverRVs(server)), `replaying the notifications reproduces the snapshot after ${fault}`);
      t.deepEqual([...configMaps.snapshot.indexKeys('namespace', 'default')], [...serverRVs(server).keys()].sort(), `the index is rebuilt after ${fault}`);
    };
    try {
      await converged('the initial paginated list');
      churn(server);
      await converged('live events');
      churn(server);
      server.closeWatches();
      churn(server);
      await converged('a clean close');
      await aBookmark();
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
      await aBookmark();
      await server.refuseConnections(100);
      churn(server);
      await converged('refused connections');
      server.failNext({ status: 500, verbs: ['list', 'watch'], count: 2 });
      server.closeWatches();
      churn(server);
      await converged('internal errors');
      t.true(configMaps.snapshot.synced);
    } finally {
      run.subscription.unsubscribe();
    }
    t.deepEqual(errors, []);
    t.is(configMaps.snapshot.size, 0, 'the cache is dropped with the last subscriber');
  } finally {
    await server.close();
  }
});
