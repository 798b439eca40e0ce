// The informer's lifetime and its errors on real time (promises, HTTP on 127.0.0.1): connect(),
// whenSynced() and its rejections, status$, and a source that fails for good. The virtual-time
// half is informerLifetime.spec.ts.
import test from 'ava';
import { config as rxConfig, Subject, tap } from 'rxjs';
import { KubeApiError, NotSyncedError, TransportError } from '../../src/errors.js';
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { fakeListWatch } from '../../src/testing/fakeListWatch.js';
import { configMap } from '../../src/testing/objects.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

const fast = { backoff: { initialDelay: 10, maxDelay: 40 } } as const;
const widgets = { group: 'example.com', version: 'v1', plural: 'widgets' } as const;


test('item 3: whenSynced() on an informer nothing runs rejects at once, telling the user to connect() first', async (t) => {
  const api = fakeListWatch([configMap('a'), configMap('b')]);
  let subscriptions = 0;
  const inf = informer(api.events$.pipe(tap({ subscribe: () => subscriptions++ })));
  const error = await t.throwsAsync(inf.whenSynced(), { instanceOf: NotSyncedError });
  t.is(error?.reason, 'notConnected');
  t.is(error?.message, '[informer] whenSynced() on an informer that is not running: call connect() first (or subscribe to one of its streams)');
  t.is(subscriptions, 0, 'waiting does not start the informer');
});

test('item 3: connect(), await whenSynced(), then the snapshot is there; waiting again lists nothing again', async (t) => {
  const api = fakeListWatch([configMap('a'), configMap('b')]);
  let subscriptions = 0;
  const inf = informer(api.events$.pipe(tap({ subscribe: () => subscriptions++ })));
  const connection = inf.connect();
  const synced = await inf.whenSynced();
  t.is(synced.size, 2);
  t.is(inf.snapshot.size, 2, 'the cache is still there after the await');
  t.is(await inf.whenSynced(), inf.snapshot, 'a second wait resolves at once with the current snapshot');
  api.add(configMap('c'));
  await until(() => inf.snapshot.size === 3, 'the watch event');
  t.is(subscriptions, 1, 'one List+Watch for all of it');
  connection.unsubscribe();
  t.is(inf.snapshot.size, 0, 'disconnected: the cache is dropped');
  await t.throwsAsync(inf.whenSynced(), { instanceOf: NotSyncedError, message: /not running/ });
});

test('item 3: whenSynced() rejects when the connection goes away before the first list is applied', async (t) => {
  const events = new Subject<RawEvent<KubeObject>>();
  const inf = informer(events, { name: 'configmaps' });
  const connection = inf.connect();
  const waiting = inf.whenSynced();
  connection.unsubscribe();
  const error = await t.throwsAsync(waiting, { instanceOf: NotSyncedError });
  t.is(error?.reason, 'disconnected');
  t.is(error?.message, '[informer] configmaps: disconnected before the first list was applied');
});

test('item 4: without a cluster, status$ reports the refused connection and whenSynced({ timeoutMs }) rejects with it', async (t) => {
  const gone = await createTestApiServer();
  const kubeConfig = gone.kubeConfig;
  const port = new URL(gone.url).port;
  await gone.close();
  const inf = informer(listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, fast), { name: 'configmaps' });
  const statuses: ListWatchStatus[] = [];
  inf.status$.subscribe((status) => statuses.push(status));
  const connection = inf.connect();
  try {
    const error = await t.throwsAsync(inf.whenSynced({ timeoutMs: 300 }), { instanceOf: NotSyncedError });
    t.is(error?.reason, 'timeout');
    t.regex(error!.message, new RegExp(`^\\[informer\\] configmaps: not synced after 300 ms: list failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`));
    t.true(error?.lastError instanceof TransportError && error.lastError.code === 'ECONNREFUSED');
    t.is(error?.cause, error?.lastError);
    t.true(statuses.some((s) => s.type === 'ERROR' && s.error instanceof TransportError));
    t.true(statuses.some((s) => s.type === 'BACKING_OFF'), 'and it keeps retrying');
  } finally {
    connection.unsubscribe();
  }
});

test('item 4: whenSynced({ signal }) rejects when the signal aborts, with the last error of the source', async (t) => {
  const gone = await createTestApiServer();
  const kubeConfig = gone.kubeConfig;
  await gone.close();
  const inf = informer(listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, fast));
  const stop = new AbortController();
  // Abort once the source has reported a failure: a condition, not a time.
  inf.status$.subscribe((status) => status.type === 'ERROR' && stop.abort());
  const connection = inf.connect();
  try {
    const error = await t.throwsAsync(inf.whenSynced({ signal: stop.signal }), { instanceOf: NotSyncedError });
    t.is(error?.reason, 'aborted');
    t.regex(error!.message, /^\[informer\] whenSynced\(\) aborted before the first list was applied: list failed: connect ECONNREFUSED/);
    await t.throwsAsync(inf.whenSynced({ signal: stop.signal }), { message: /aborted/ }, 'an aborted signal rejects at once');
  } finally {
    connection.unsubscribe();
  }
});

test('item 4: status$ is hot and replays the latest status; subscribing to it does not start the informer', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  server.create('configmaps', { metadata: { name: 'a', namespace: 'x' } });
  let subscriptions = 0;
  const inf = informer(listWatch(server.kubeConfig, { version: 'v1', plural: 'configmaps' }, fast).pipe(tap({ subscribe: () => subscriptions++ })));
  const early: string[] = [];
  inf.status$.subscribe((s) => early.push(s.type));
  t.is(subscriptions, 0);
  const connection = inf.connect();
  await inf.whenSynced();
  await until(() => early.at(-1) === 'WATCHING', 'the watch');
  const late: string[] = [];
  inf.status$.subscribe((s) => late.push(s.type)).unsubscribe();
  t.deepEqual(late, ['WATCHING'], 'a late subscriber gets the latest status');
  t.deepEqual(early.slice(0, 2), ['LISTING', 'LISTING']);
  connection.unsubscribe();
});

test.serial('item 2: a permanently failing source (a missing CRD, fatalErrors permanent) reaches the user on status$ and whenSynced, and addHandler does not crash the process', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  const unhandled: unknown[] = [];
  const previous = rxConfig.onUnhandledError;
  rxConfig.onUnhandledError = (error) => unhandled.push(error);
  t.teardown(() => (rxConfig.onUnhandledError = previous));

  const inf = informer(listWatch(server.kubeConfig, widgets, { ...fast, fatalErrors: 'permanent' }), { name: 'widgets.example.com' });
  const statuses: ListWatchStatus[] = [];
  inf.status$.subscribe((s) => statuses.push(s));
  const added: string[] = [];
  const handler = inf.addHandler({ onAdd: (o) => added.push(o.metadata?.name ?? '') });
  const error = await t.throwsAsync(inf.whenSynced(), { instanceOf: NotSyncedError });
  t.is(error?.reason, 'failed');
  // The real apiserver's answer for a group version nothing serves (the test server's, too, since issue 23).
  t.is(error?.message, '[informer] widgets.example.com: the source failed: cannot list widgets.example.com: not found (404 page not found)');
  t.true(error?.lastError instanceof KubeApiError && error.lastError.code === 404);
  t.deepEqual(statuses.map((s) => s.type).slice(-2), ['ERROR', 'FAILED']);
  const failed = statuses.at(-1);
  t.is(failed?.type === 'FAILED' ? failed.error : undefined, error?.lastError);
  t.true(handler.closed, 'the handler ended with the source');
  // RxJS reports an unhandled error from a 0 ms timer queued when the error happened; a 0 ms timer
  // queued now runs after it.
  await new Promise((resolve) => setTimeout(resolve, 0));
  t.deepEqual(unhandled, []);
  t.deepEqual(added, []);
});

test('item 2: any error that ends a source is reported as FAILED, then the streams error', async (t) => {
  const events = new Subject<RawEvent<KubeObject>>();
  const inf = informer(events);
  const seen: string[] = [];
  inf.status$.subscribe((s) => seen.push(s.type === 'FAILED' ? `FAILED ${s.error.message}` : s.type));
  inf.changes$.subscribe({ error: (e: Error) => seen.push(`changes$ error ${e.message}`) });
  const waiting = inf.whenSynced();
  events.error(new Error('boom'));
  await t.throwsAsync(waiting, { instanceOf: NotSyncedError, message: '[informer] the source failed: boom' });
  t.deepEqual(seen, ['FAILED boom', 'changes$ error boom']);
});

test('item 5: an invalid label selector fails whenSynced at once with the server message, and the informer does not retry it', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  const inf = informer(listWatch(server.kubeConfig, { version: 'v1', plural: 'configmaps' }, { ...fast, labelSelector: 'a in (b' }), { name: 'configmaps' });
  const connection = inf.connect();
  const error = await t.throwsAsync(inf.whenSynced(), { instanceOf: NotSyncedError });
  t.is(error?.reason, 'failed');
  t.regex(error!.message, /^\[informer\] configmaps: the source failed: cannot list configmaps: bad request \(.+\)$/);
  t.true(connection.closed);
  t.is(server.requests.filter((r) => r.verb === 'list').length, 1);
});
