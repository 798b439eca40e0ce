import test from 'ava';
import { hashField } from '../../src/sources/hashField.js';
import { shardSelectorOf, shardSpaceEnd } from '../../src/sources/shardSelector.js';
import { until } from '../helpers/until.js';
import { call, configMap, openWatch, withServer } from './apiServerClient.js';

const upperHalf = shardSelectorOf([{ start: 1n << 63n, end: shardSpaceEnd }]);
const lowerHalf = shardSelectorOf([{ start: 0n, end: 1n << 63n }]);
const inUpperHalf = (uid: string): boolean => BigInt(`0x${hashField(uid)}`) >= 1n << 63n;

test('a LIST with shardSelector returns the objects whose hashed uid is in the ranges and echoes the selector in shardInfo, paged or not', async (t) => {
  await withServer(async (server) => {
    for (let i = 0; i < 200; i++) server.create('configmaps', configMap('demo', `cm-${i}`));
    const all = (await call(`${server.url}/api/v1/namespaces/demo/configmaps`)).json.items as Array<{ metadata: { name: string; uid: string } }>;
    const expected = all.filter((cm) => inUpperHalf(cm.metadata.uid)).map((cm) => cm.metadata.name).sort();
    t.true(expected.length > 60 && expected.length < 140, `about half: ${expected.length}`);
    for (const rv of ['', '0']) {
      const reply = await call(`${server.url}/api/v1/namespaces/demo/configmaps?resourceVersion=${rv}&shardSelector=${encodeURIComponent(upperHalf)}`);
      t.is(reply.status, 200);
      t.deepEqual(reply.json.metadata.shardInfo, { selector: upperHalf });
      t.deepEqual((reply.json.items as Array<{ metadata: { name: string } }>).map((cm) => cm.metadata.name).sort(), expected);
    }
    const names: string[] = [];
    let token: string | undefined;
    do {
      const reply = await call(`${server.url}/api/v1/namespaces/demo/configmaps?limit=30&shardSelector=${encodeURIComponent(upperHalf)}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      names.push(...(reply.json.items as Array<{ metadata: { name: string } }>).map((cm) => cm.metadata.name));
      token = reply.json.metadata.continue;
    } while (token);
    t.deepEqual(names.sort(), expected);
  });
});

test('the echo is the selector written the server\'s way, whatever spacing and quotes were sent', async (t) => {
  await withServer(async (server) => {
    const sent = `shardRange( object.metadata.uid,"0x8000000000000000" , '0x10000000000000000')`;
    const reply = await call(`${server.url}/api/v1/configmaps?shardSelector=${encodeURIComponent(sent)}`);
    t.deepEqual(reply.json.metadata.shardInfo, { selector: upperHalf });
  });
});

test('a WATCH and a streaming list with shardSelector deliver only objects in the ranges', async (t) => {
  await withServer(async (server) => {
    for (let i = 0; i < 40; i++) server.create('configmaps', configMap('demo', `cm-${i}`));
    const rv = server.resourceVersion;
    const stream = await openWatch(`${server.url}/api/v1/namespaces/demo/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&shardSelector=${encodeURIComponent(lowerHalf)}`);
    const watch = await openWatch(`${server.url}/api/v1/namespaces/demo/configmaps?watch=true&resourceVersion=${rv}&shardSelector=${encodeURIComponent(lowerHalf)}`);
    const created = Array.from({ length: 40 }, (_, i) => server.create('configmaps', configMap('demo', `new-${i}`)) as { metadata: { name: string; uid: string } });
    const wanted = created.filter((cm) => !inUpperHalf(cm.metadata.uid)).map((cm) => cm.metadata.name);
    // A marker in the range, made last: once it arrives, every earlier event has.
    let marker: { metadata: { name: string; uid: string } };
    let i = 0;
    do marker = server.create('configmaps', configMap('demo', `marker-${i++}`)) as typeof marker;
    while (inUpperHalf(marker.metadata.uid));
    const names = (events: ReadonlyArray<{ type: string; object: { metadata: { name: string } } }>) => events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);
    await watch.waitFor(wanted.length + 1);
    t.deepEqual(names(watch.events), [...wanted, marker.metadata.name]);
    await until(() => names(stream.events).includes(marker.metadata.name), 'the marker in the streaming list');
    const everything = (await call(`${server.url}/api/v1/namespaces/demo/configmaps`)).json.items as Array<{ metadata: { name: string; uid: string } }>;
    t.deepEqual(names(stream.events).sort(), everything.filter((cm) => !inUpperHalf(cm.metadata.uid)).map((cm) => cm.metadata.name).sort());
    watch.close();
    stream.close();
  });
});

test('a malformed shardSelector is answered as kube-apiserver 1.36 answers it: 500, "invalid shard selector: …"', async (t) => {
  await withServer(async (server) => {
    for (const path of ['/api/v1/configmaps?shardSelector=', '/api/v1/configmaps?watch=true&shardSelector=']) {
      const reply = await call(`${server.url}${path}${encodeURIComponent("shardRange(object.metadata.uid, '0x0', '0x8000000000000000')")}`);
      t.is(reply.status, 500);
      t.deepEqual(Object.keys(reply.json).sort(), ['apiVersion', 'code', 'kind', 'message', 'metadata', 'status'], 'no reason, no details');
      t.regex(reply.json.message, /^invalid shard selector: the start "0x0" must be 16 hex digits/);
    }
  });
});

test('with shardedListAndWatch: false (the gate off, or a server older than 1.36) shardSelector is ignored: every object, no shardInfo, a malformed one no error', async (t) => {
  await withServer(
    async (server) => {
      for (let i = 0; i < 40; i++) server.create('configmaps', configMap('demo', `cm-${i}`));
      const rv = server.resourceVersion;
      const watch = await openWatch(`${server.url}/api/v1/namespaces/demo/configmaps?watch=true&resourceVersion=${rv}&shardSelector=${encodeURIComponent(lowerHalf)}`);
      for (const selector of [upperHalf, "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')"]) {
        const reply = await call(`${server.url}/api/v1/namespaces/demo/configmaps?shardSelector=${encodeURIComponent(selector)}`);
        t.is(reply.status, 200);
        t.is(reply.json.metadata.shardInfo, undefined);
        t.is((reply.json.items as unknown[]).length, 40);
      }
      const created = Array.from({ length: 10 }, (_, i) => server.create('configmaps', configMap('demo', `new-${i}`)) as { metadata: { name: string } });
      await watch.waitFor(10);
      t.deepEqual(watch.events.map((e) => (e as { object: { metadata: { name: string } } }).object.metadata.name), created.map((cm) => cm.metadata.name), 'the watch sends the upper half too');
      watch.close();
    },
    { shardedListAndWatch: false },
  );
});
