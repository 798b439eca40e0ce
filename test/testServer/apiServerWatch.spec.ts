import test from 'ava';
import { initialEventsEndAnnotation } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';
import { configMap, openWatch, withServer } from './apiServerClient.js';


const summary = (events: readonly { type: string; object: any }[]) =>
  events.map((e) => `${e.type} ${e.object?.metadata?.name ?? ''}@${e.object?.metadata?.resourceVersion ?? e.object?.code ?? ''}`.trim());

test('WATCH from an RV replays the change log, then goes live; objects carry kind/apiVersion', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one'));
    const from = server.resourceVersion;
    server.create('configmaps', configMap('a', 'two'));
    server.patch('configmaps', 'a', 'one', { data: { k: 'x' } });
    const watch = await openWatch(`${server.url}/api/v1/namespaces/a/configmaps?watch=true&resourceVersion=${from}`);
    t.is(watch.status, 200);
    t.is(watch.headers['content-type'], 'application/json');
    t.is(watch.headers['transfer-encoding'], 'chunked');
    await watch.waitFor(2);
    server.delete('configmaps', 'a', 'two');
    server.create('configmaps', configMap('other', 'elsewhere'));
    const events = await watch.waitFor(3);
    t.deepEqual(summary(events), [`ADDED two@${Number(from) + 1}`, `MODIFIED one@${Number(from) + 2}`, `DELETED two@${Number(from) + 3}`]);
    t.is(events[0]!.object.kind, 'ConfigMap');
    t.is(events[0]!.object.apiVersion, 'v1');
    t.is(events[2]!.object.data.k, 'v', 'DELETED carries the final object');
    // Events come in order: once one made after the other namespace's arrives, that one was not sent.
    server.create('configmaps', configMap('a', 'marker'));
    t.deepEqual(summary((await watch.waitFor(4)).slice(3)).map((s) => s.split('@')[0]), ['ADDED marker'], 'events of other namespaces are not sent');
    watch.close();
  });
});

test('WATCH with resourceVersion "" or 0 starts with ADDED for every current object', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one'));
    server.create('configmaps', configMap('b', 'two'));
    for (const rv of ['', '0']) {
      const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=1&resourceVersion=${rv}`);
      t.deepEqual(summary(await watch.waitFor(2)).map((s) => s.split('@')[0]), ['ADDED one', 'ADDED two']);
      watch.close();
    }
  });
});

test('WATCH from an RV older than the log gets a 200 stream with an ERROR 410 Expired event, then the end', async (t) => {
  await withServer(
    async (server) => {
      server.create('configmaps', configMap('a', 'one'));
      const old = server.resourceVersion;
      for (let i = 0; i < 5; i++) server.create('configmaps', configMap('a', `n${i}`));
      const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${old}`);
      t.is(watch.status, 200);
      t.is(await watch.ended, 'end');
      t.is(watch.events.length, 1);
      const [event] = watch.events;
      t.is(event!.type, 'ERROR');
      t.like(event!.object, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
      t.regex(event!.object.message, new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`));
      // compact() does the same for an RV that the log still held.
      const recent = server.resourceVersion;
      server.create('configmaps', configMap('a', 'later'));
      server.compact();
      const again = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${recent}`);
      await again.ended;
      t.is(again.events[0]!.object.code, 410);
    },
    { changeLogSize: 3 },
  );
});

test('WATCH from a future RV waits, then fails in-stream with 504 Too large resource version', async (t) => {
  await withServer(
    async (server) => {
      const future = String(Number(server.resourceVersion) + 10);
      const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${future}`);
      await watch.ended;
      t.like(watch.events[0], { type: 'ERROR', object: { code: 504, reason: 'Timeout' } });
      // If the RV arrives during the wait, the watch proceeds from it.
      const next = String(Number(server.resourceVersion) + 1);
      const ok = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${next}`);
      server.create('configmaps', configMap('a', 'one'));
      server.create('configmaps', configMap('a', 'two'));
      t.deepEqual(summary(await ok.waitFor(1)).map((s) => s.split('@')[0]), ['ADDED two']);
      ok.close();
    },
    { tooLargeResourceVersionWaitMs: 50 },
  );
});

test('bookmarks on the cadence and before timeoutSeconds ends; the stream then closes cleanly', async (t) => {
  await withServer(
    async (server) => {
      server.create('configmaps', configMap('a', 'one'));
      const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${server.resourceVersion}&allowWatchBookmarks=true&timeoutSeconds=1`);
      // The change goes in at once: the watch lasts one second, and on a loaded machine opening a
      // second watch first took longer than that.
      const rv = server.resourceVersion;
      server.create('configmaps', configMap('a', 'two'));
      const plain = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${rv}&timeoutSeconds=1`);
      t.is(await watch.ended, 'end');
      // Timers never fire early: the stream lasted at least timeoutSeconds from the request's arrival.
      const lasted = Date.now() - server.requests[0]!.startedAt;
      t.true(lasted >= 990 && lasted < 30_000, `closed after ${lasted} ms`);
      t.is(watch.events.filter((e) => e.type === 'ADDED').length, 1);
      const bookmarks = watch.events.filter((e) => e.type === 'BOOKMARK');
      t.true(bookmarks.length >= 2, `${bookmarks.length} bookmarks: the cadence (250 ms) and the one before the end`);
      t.is(watch.events.at(-1)!.type, 'BOOKMARK', 'the last thing before the end is a bookmark');
      // A bookmark is only the kind and the current RV.
      t.deepEqual(watch.events.at(-1)!.object, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: server.resourceVersion } });
      // Without allowWatchBookmarks there are none.
      await plain.ended;
      t.is(plain.events.filter((e) => e.type === 'BOOKMARK').length, 0);
    },
    { bookmarkIntervalMs: 250, bookmarkLeadMs: 100 },
  );
});

test('the bookmark before the timeout comes bookmarkLeadMs before the end', async (t) => {
  await withServer(
    async (server) => {
      const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${server.resourceVersion}&allowWatchBookmarks=true&timeoutSeconds=1`);
      await watch.waitFor(1, 3000);
      const at = Date.now() - server.requests[0]!.startedAt;
      t.true(at >= 690, `bookmark after ${at} ms, due at 1000 - 300`);
      t.is(await watch.ended, 'end');
      t.deepEqual(watch.events.map((e) => e.type), ['BOOKMARK'], 'one bookmark: the cadence (60 s) never came');
    },
    { bookmarkIntervalMs: 60_000, bookmarkLeadMs: 300 },
  );
});

test('selectors filter watches; objects entering the selection arrive as ADDED, leaving as DELETED', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one', { app: 'web' }));
    const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${server.resourceVersion}&labelSelector=app%3Dweb`);
    server.create('configmaps', configMap('a', 'two', { app: 'db' }));
    server.patch('configmaps', 'a', 'two', { metadata: { labels: { app: 'web' } } });
    server.patch('configmaps', 'a', 'two', { data: { k: 'x' } });
    server.patch('configmaps', 'a', 'one', { metadata: { labels: { app: 'db' } } });
    server.patch('configmaps', 'a', 'one', { data: { k: 'y' } });
    server.delete('configmaps', 'a', 'two');
    const events = await watch.waitFor(4);
    t.deepEqual(summary(events).map((s) => s.split('@')[0]), ['ADDED two', 'MODIFIED two', 'DELETED one', 'DELETED two']);
    const left = events[2]!.object;
    t.is(left.metadata.labels.app, 'web', 'the DELETED of an object leaving the selection carries its previous state');
    t.is(left.metadata.resourceVersion, String(Number(events[1]!.object.metadata.resourceVersion) + 1), '…at the new RV');
    // Nothing else was sent before an event made after all of them (events come in order).
    server.create('configmaps', configMap('a', 'marker', { app: 'web' }));
    t.deepEqual(summary((await watch.waitFor(5)).slice(4)).map((s) => s.split('@')[0]), ['ADDED marker']);
    watch.close();
    const byField = await openWatch(`${server.url}/api/v1/configmaps?watch=true&fieldSelector=metadata.name%3Done`);
    t.deepEqual(summary(await byField.waitFor(1)).map((s) => s.split('@')[0]), ['ADDED one']);
    byField.close();
  });
});

test('sendInitialEvents: ADDED for every object, the initial-events-end bookmark, then live', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one'));
    server.create('configmaps', configMap('a', 'two'));
    const rv = server.resourceVersion;
    const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=`);
    await watch.waitFor(3);
    server.create('configmaps', configMap('a', 'three'));
    const events = await watch.waitFor(4);
    t.deepEqual(events.map((e) => e.type), ['ADDED', 'ADDED', 'BOOKMARK', 'ADDED']);
    t.deepEqual(events[2]!.object, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: rv, annotations: { [initialEventsEndAnnotation]: 'true' } } });
    watch.close();
    const refused = await openWatch(`${server.url}/api/v1/configmaps?watch=true&sendInitialEvents=true&allowWatchBookmarks=true`);
    t.is(refused.status, 422);
    refused.close();
  });
});

test('metadata-only watch sends PartialObjectMetadata objects', async (t) => {
  await withServer(async (server) => {
    const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${server.resourceVersion}`, {
      Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
    });
    server.create('configmaps', configMap('a', 'one'));
    const [event] = await watch.waitFor(1);
    t.deepEqual(Object.keys(event!.object), ['kind', 'apiVersion', 'metadata']);
    t.is(event!.object.kind, 'PartialObjectMetadata');
    t.is(event!.object.metadata.name, 'one');
    watch.close();
  });
});

test('a watch survives thousands of events per second and a closed client is unregistered', async (t) => {
  await withServer(async (server) => {
    const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=${server.resourceVersion}`);
    for (let i = 0; i < 5000; i++) server.create('configmaps', configMap('a', `cm-${i}`));
    const events = await watch.waitFor(5000, 30_000);
    t.is(events[4999]!.object.metadata.name, 'cm-4999');
    t.is(server.openWatchCount, 1);
    watch.close();
    await until(() => server.openWatchCount === 0, 'the closed watch unregistered');
    t.is(server.openWatchCount, 0);
  });
});

test('a watch on one object by its path (/configmaps/<name>?watch=true) sees only that object', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one'));
    const watch = await openWatch(`${server.url}/api/v1/namespaces/a/configmaps/one?watch=true&resourceVersion=${server.resourceVersion}`);
    server.create('configmaps', configMap('a', 'two'));
    server.patch('configmaps', 'a', 'one', { data: { k: 'x' } });
    const events = await watch.waitFor(1);
    t.deepEqual(summary(events).map((s) => s.split('@')[0]), ['MODIFIED one']);
    t.is(server.requests[0]!.verb, 'watch');
    t.is(server.requests[0]!.name, 'one');
    watch.close();
  });
});

test('WATCH with sendInitialEvents streams a large collection: every ADDED, then the bookmark, then changes made while it streamed', async (t) => {
  await withServer(async (server) => {
    const big = 'x'.repeat(1000);
    server.seed('configmaps', Array.from({ length: 2000 }, (_, i) => configMap('a', `cm-${String(i).padStart(4, '0')}`, undefined, { big })));
    const watch = await openWatch(`${server.url}/api/v1/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    server.patch('configmaps', 'a', 'cm-0000', { data: { big: 'changed' } });
    const events = await watch.waitFor(2002, 20_000);
    t.true(events.slice(0, 2000).every((e, i) => e.type === 'ADDED' && e.object.metadata.name === `cm-${String(i).padStart(4, '0')}`));
    t.is(events[0]!.object.data.big, big);
    t.is(events[2000]!.type, 'BOOKMARK');
    t.is(events[2000]!.object.metadata.annotations[initialEventsEndAnnotation], 'true');
    t.like(events[2001], { type: 'MODIFIED', object: { data: { big: 'changed' } } });
    watch.close();
  });
});
