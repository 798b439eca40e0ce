/**
 * The informer against a real kube-apiserver + etcd (issue 4). Run with `npm run test:cluster`.
 * Tests are serial: several restart or kill the apiserver.
 */
import test from 'ava';
import { tap, type Subscription } from 'rxjs';
import { informer, type Informer } from '../../../src/informer/informer.js';
import { listWatch } from '../../../src/sources/listWatch.js';
import type { ListWatchConfig } from '../../../src/sources/listWatchConfig.js';
import type { ListWatchStatus } from '../../../src/sources/reflector/listWatchStatus.js';
import type { RawEvent } from '../../../src/sources/rawEvent.js';
import { isTombstone } from '../../../src/store/delta.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';
import type { Notification } from '../../../src/store/notification.js';
import { api, cluster, configMapBody, freshNamespace, kubeConfig, listRVs, ownsCluster, pool, sameRVs, until } from './helpers.js';

const kc = kubeConfig();
const core = api(kc);

interface Watched {
  readonly informer: Informer<KubeObject>;
  readonly statuses: ListWatchStatus[];
  readonly events: RawEvent<KubeObject>[];
  readonly changes: Notification<KubeObject>[];
  rvs(): Map<string, string>;
  stop(): void;
}

function watch(namespace: string | undefined, config: ListWatchConfig<KubeObject> = {}, resource = { version: 'v1', plural: 'configmaps' }): Watched {
  const statuses: ListWatchStatus[] = [];
  const events: RawEvent<KubeObject>[] = [];
  const changes: Notification<KubeObject>[] = [];
  const source = listWatch(kc, { ...resource, ...(namespace ? { namespace } : {}) }, { backoff: { initialDelay: 200, maxDelay: 2000 }, ...config, onStatus: (s) => statuses.push(s) });
  const inf = informer(source.pipe(tap((e) => events.push(e))));
  const subscription: Subscription = inf.changes$.subscribe((c) => changes.push(c));
  return {
    informer: inf,
    statuses,
    events,
    changes,
    rvs: () => new Map([...inf.snapshot.entries()].map(([k, o]) => [k, o.metadata?.resourceVersion ?? ''])),
    stop: () => subscription.unsubscribe(),
  };
}

test.serial('1. initial sync of 1,000 ConfigMaps created through the API, over a paginated list', async (t) => {
  const ns = await freshNamespace(core, 'sync');
  await pool(Array.from({ length: 1000 }, (_, i) => i), 16, (i) => core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, `cm-${i}`) }));
  // RV "" (mostRecent): the real server pages it; client-go's RV "0" may come from the watch cache in one page.
  const w = watch(ns, { pageSize: 100, listSemantic: 'mostRecent' });
  try {
    const snapshot = await w.informer.whenSynced();
    t.is(snapshot.size, 1000);
    t.true(sameRVs(w.rvs(), await listRVs(core, ns)));
    const pages = w.events.filter((e) => e.type === 'LIST_PAGE').length;
    t.true(pages >= 10, `the first list came in ${pages} pages of 100`);
    t.deepEqual(w.changes.map((c) => c.type === 'add' && c.isInInitialList).filter(Boolean).length, 1000);
  } finally {
    w.stop();
  }
});

test.serial('2. create, update and delete arrive as add, update(old, new) and delete, in order per key', async (t) => {
  const ns = await freshNamespace(core, 'crud');
  const w = watch(ns);
  try {
    await w.informer.whenSynced();
    await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, 'a', {}, { v: '1' }) });
    await core.replaceNamespacedConfigMap({ name: 'a', namespace: ns, body: configMapBody(ns, 'a', {}, { v: '2' }) });
    await core.replaceNamespacedConfigMap({ name: 'a', namespace: ns, body: configMapBody(ns, 'a', {}, { v: '3' }) });
    await core.deleteNamespacedConfigMap({ name: 'a', namespace: ns });
    await until(() => w.changes.some((c) => c.type === 'delete'), 'the delete');
    const seen = w.changes.map((c) => (c.type === 'update' ? `update ${(c.oldObject as { data?: { v?: string } }).data?.v}->${(c.object as { data?: { v?: string } }).data?.v}` : c.type));
    // Two quick updates may reach the store in one batch and collapse into one update(1 → 3).
    t.true(JSON.stringify(seen) === JSON.stringify(['add', 'update 1->2', 'update 2->3', 'delete']) || JSON.stringify(seen) === JSON.stringify(['add', 'update 1->3', 'delete']), seen.join(', '));
    t.is(w.informer.snapshot.size, 0);
  } finally {
    w.stop();
  }
});

test.serial('3. label and field selector informers see exactly their subset, on the list and the watch', async (t) => {
  const ns = await freshNamespace(core, 'select');
  for (let i = 0; i < 6; i++) await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, `cm-${i}`, { parity: i % 2 ? 'odd' : 'even' }) });
  const odd = watch(ns, { labelSelector: 'parity=odd' });
  const one = watch(ns, { fieldSelector: 'metadata.name=cm-2' });
  try {
    await Promise.all([odd.informer.whenSynced(), one.informer.whenSynced()]);
    t.deepEqual([...odd.informer.snapshot.keys()].sort(), [`${ns}/cm-1`, `${ns}/cm-3`, `${ns}/cm-5`]);
    t.deepEqual([...one.informer.snapshot.keys()], [`${ns}/cm-2`]);
    await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, 'cm-7', { parity: 'odd' }) });
    await core.replaceNamespacedConfigMap({ name: 'cm-1', namespace: ns, body: configMapBody(ns, 'cm-1', { parity: 'even' }) });
    await until(() => odd.informer.snapshot.has(`${ns}/cm-7`) && !odd.informer.snapshot.has(`${ns}/cm-1`), 'the selector to follow the changes');
    t.true(sameRVs(odd.rvs(), await listRVs(core, ns, 'parity=odd')));
    t.is(one.informer.snapshot.size, 1);
  } finally {
    odd.stop();
    one.stop();
  }
});

test.serial('4. bookmarks arrive and advance the resourceVersion (short timeoutSeconds)', async (t) => {
  const ns = await freshNamespace(core, 'bookmark');
  const other = await freshNamespace(core, 'bookmark-writer');
  await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, 'quiet') });
  const w = watch(ns, { timeoutSeconds: 5 });
  try {
    await w.informer.whenSynced();
    const start = w.informer.snapshot.resourceVersion;
    // Bookmarks only advance when the cache moves: write elsewhere meanwhile.
    let i = 0;
    const writer = setInterval(() => void core.createNamespacedConfigMap({ namespace: other, body: configMapBody(other, `w-${i++}`) }).catch(() => undefined), 300);
    try {
      await until(() => w.events.some((e) => e.type === 'BOOKMARK'), 'a bookmark', 20_000);
    } finally {
      clearInterval(writer);
    }
    const bookmark = w.events.find((e) => e.type === 'BOOKMARK')!;
    t.is(bookmark.type, 'BOOKMARK');
    await until(() => w.informer.snapshot.resourceVersion !== start, 'the store resourceVersion to move');
    t.is(w.informer.snapshot.size, 1, 'no object changed');
    t.true(w.statuses.filter((s) => s.type === 'WATCHING').length >= 1);
  } finally {
    w.stop();
  }
});

test.serial('7. a metadata-only informer over ConfigMaps holds only metadata', async (t) => {
  const ns = await freshNamespace(core, 'meta');
  await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, 'big', { app: 'x' }, { payload: 'x'.repeat(10_000) }) });
  const w = watch(ns, { metadataOnly: true });
  try {
    await w.informer.whenSynced();
    await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, 'later', {}, { payload: 'y' }) });
    await until(() => w.informer.snapshot.has(`${ns}/later`), 'the watched object');
    for (const object of w.informer.snapshot.values()) {
      t.is(object.kind, 'PartialObjectMetadata');
      t.false('data' in object);
      t.truthy(object.metadata?.resourceVersion);
    }
    t.deepEqual(w.informer.snapshot.get(`${ns}/big`)?.metadata?.labels, { app: 'x' });
  } finally {
    w.stop();
  }
});

test.serial('8. the streaming list (sendInitialEvents) works against the real server, without falling back', async (t) => {
  const ns = await freshNamespace(core, 'stream');
  for (let i = 0; i < 20; i++) await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, `cm-${i}`) });
  const w = watch(ns, { streamingList: true });
  try {
    await w.informer.whenSynced();
    t.true(sameRVs(w.rvs(), await listRVs(core, ns)));
    t.true(w.statuses.some((s) => s.type === 'LISTING' && s.streaming));
    t.false(w.statuses.some((s) => s.type === 'RELISTING' && s.reason === 'streamingFallback'), 'no fallback to LIST');
    await core.deleteNamespacedConfigMap({ name: 'cm-0', namespace: ns });
    await until(() => !w.informer.snapshot.has(`${ns}/cm-0`), 'the delete after the initial events');
  } finally {
    w.stop();
  }
});

test.serial('9. churn: 5,000 updates over 500 objects from a concurrent writer; the final snapshot equals a fresh LIST', async (t) => {
  const ns = await freshNamespace(core, 'churn');
  await pool(Array.from({ length: 500 }, (_, i) => i), 16, (i) => core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, `cm-${i}`, {}, { n: '0' }) }));
  const w = watch(ns);
  try {
    await w.informer.whenSynced();
    await pool(Array.from({ length: 5000 }, (_, j) => j), 16, (j) =>
      core.replaceNamespacedConfigMap({ name: `cm-${j % 500}`, namespace: ns, body: configMapBody(ns, `cm-${j % 500}`, {}, { n: String(j) }) }),
    );
    const fresh = await listRVs(core, ns);
    await until(() => sameRVs(w.rvs(), fresh), 'convergence after the churn');
    t.is(w.informer.snapshot.size, 500);
    const updates = w.changes.filter((c) => c.type === 'update').length;
    t.true(updates > 0 && updates <= 5000, `${updates} updates delivered (bursts may collapse)`);
  } finally {
    w.stop();
  }
});

test.serial('10. a user without list/watch permission gets the clear forbidden error, and the informer keeps trying', async (t) => {
  const ns = await freshNamespace(core, 'rbac');
  await core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: 'nobody' } } });
  const token = await core.createNamespacedServiceAccountToken({ name: 'nobody', namespace: ns, body: { spec: { audiences: [], expirationSeconds: 3600 } } });
  const nobody = kubeConfig();
  const user = nobody.getCurrentUser()!;
  nobody.users = nobody.users.map((u) => (u.name === user.name ? { name: u.name, token: token.status!.token } : u));
  const statuses: ListWatchStatus[] = [];
  const subscription = listWatch(nobody, { version: 'v1', plural: 'configmaps', namespace: ns }, { onStatus: (s) => statuses.push(s), backoff: { initialDelay: 100, maxDelay: 300 } }).subscribe();
  try {
    await until(() => statuses.filter((s) => s.type === 'ERROR').length >= 2, 'two forbidden errors', 30_000);
    const error = statuses.find((s) => s.type === 'ERROR');
    t.is(error?.type, 'ERROR');
    if (error?.type === 'ERROR') {
      t.regex(error.error.message, new RegExp(`^\\[informer\\] cannot list configmaps in namespace ${ns}: forbidden`));
      t.true(error.permanent);
    }
    t.true(statuses.some((s) => s.type === 'BACKING_OFF'), 'it backs off and tries again rather than dying');
  } finally {
    subscription.unsubscribe();
  }
});

test.serial('5. apiserver restart with a changed etcd revision: too old resourceVersion, relist, tombstones for deletions missed', async (t) => {
  t.true(ownsCluster(), 'fault tests need the control plane of test/cluster/env.sh (not KUBECONFIG_E2E)');
  const ns = await freshNamespace(core, 'restart');
  for (let i = 0; i < 10; i++) await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, `cm-${i}`) });
  // A slow first retry, so the deletions below land before the informer reconnects.
  const w = watch(ns, { backoff: { initialDelay: 8000, maxDelay: 8000, jitter: 0 } });
  try {
    await w.informer.whenSynced();
    // A graceful restart closes the watch cleanly: the informer re-watches at once, finds the server
    // gone and backs off (8 s), then re-watches from its old resourceVersion, which the new watch
    // cache (started at a later etcd revision) no longer has: 410 "too old resource version".
    await cluster('bump-etcd'); // the restarted watch cache starts past every resourceVersion seen so far
    await cluster('restart-apiserver');
    const started = Date.now();
    await core.deleteNamespacedConfigMap({ name: 'cm-1', namespace: ns });
    await core.deleteNamespacedConfigMap({ name: 'cm-2', namespace: ns });
    t.true(Date.now() - started < 8000, 'the deletions happened while the informer was away');
    await until(() => !w.informer.snapshot.has(`${ns}/cm-1`) && !w.informer.snapshot.has(`${ns}/cm-2`), 'the relist', 60_000);
    t.true(sameRVs(w.rvs(), await listRVs(core, ns)));
    const deletes = w.changes.filter((c) => c.type === 'delete');
    t.true(deletes.length === 2 && deletes.every((c) => isTombstone(c.object)), 'deletions found by the relist are tombstones');
    const story = w.statuses.map((s) => (s.type === 'RELISTING' ? `RELISTING(${s.reason})` : s.type === 'ERROR' ? `ERROR(${s.error.message})` : s.type)).join(' → ');
    t.log(story);
    // Usually the shutdown closes the stream cleanly, the re-watch from the old resourceVersion gets
    // 410 and the informer relists ('expired'); when the shutdown resets the stream instead, the
    // cycle ends with a watch error and relists at once ('watchError'), as client-go does. Either
    // way the deletions it missed must come as tombstones (checked above).
    t.true(w.statuses.some((s) => s.type === 'RELISTING' && (s.reason === 'expired' || s.reason === 'watchError')), `it relisted: ${story}`);
  } finally {
    w.stop();
  }
});

test.serial('6. apiserver down through five backoffs (~10–20 s): each attempt waits its backoff (no hot loop), then it recovers and converges', async (t) => {
  t.true(ownsCluster(), 'fault tests need the control plane of test/cluster/env.sh (not KUBECONFIG_E2E)');
  const ns = await freshNamespace(core, 'outage');
  await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, 'before') });
  const w = watch(ns, { backoff: { initialDelay: 500, maxDelay: 4000 } });
  try {
    await w.informer.whenSynced();
    await cluster('kill-apiserver');
    const down = w.statuses.length;
    const backoffs = () => w.statuses.slice(down).flatMap((s) => (s.type === 'BACKING_OFF' ? [s] : []));
    // The outage lasts until the informer has backed off five times: a condition, not a set time.
    await until(() => backoffs().length >= 5, 'five backoffs while the apiserver is down', 120_000);
    // R10 with 0.5 s doubling to 4 s and jitter 1: attempt n waits [base, 2·base), base = min(500·2^(n-1), 4000).
    for (const { attempt, delay } of backoffs().slice(0, 5)) {
      const base = Math.min(500 * 2 ** (attempt - 1), 4000);
      t.true(delay >= base && delay < 2 * base, `attempt ${attempt} waited ${delay} ms, base ${base} ms`);
    }
    t.true(backoffs().length <= 12, `${backoffs().length} attempts: bounded by the backoff, not a hot loop`);
    await cluster('start-apiserver');
    await core.createNamespacedConfigMap({ namespace: ns, body: configMapBody(ns, 'after') });
    await until(() => w.informer.snapshot.has(`${ns}/after`), 'recovery', 60_000);
    t.true(sameRVs(w.rvs(), await listRVs(core, ns)));
  } finally {
    w.stop();
  }
});
