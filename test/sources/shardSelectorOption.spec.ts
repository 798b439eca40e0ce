import test from 'ava';
import { createServer } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { lastValueFrom, toArray, takeWhile, firstValueFrom, filter } from 'rxjs';
import { ShardSelectorError } from '../../src/errors.js';
import { hashField } from '../../src/sources/hashField.js';
import { listWatch } from '../../src/sources/listWatch.js';
import { shardSelectorOf, shardSpaceEnd } from '../../src/sources/shardSelector.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { loopbackKubeConfig } from '../helpers/loopbackKubeConfig.js';

const configmaps = { version: 'v1', plural: 'configmaps', namespace: 'demo' } as const;
const upperHalf = shardSelectorOf([{ start: 1n << 63n, end: shardSpaceEnd }]);
const inUpperHalf = (uid: string | undefined): boolean => BigInt(`0x${hashField(uid ?? '')}`) >= 1n << 63n;

test('shardSelector goes on the LIST, the WATCH and the streaming list; only objects in the ranges arrive', async (t) => {
  const server = await createTestApiServer();
  try {
    for (let i = 0; i < 60; i++) server.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'demo' } });
    for (const streamingList of [false, true]) {
      const events = await lastValueFrom(
        listWatch(server.kubeConfig, configmaps, { shardSelector: upperHalf, streamingList }).pipe(
          takeWhile((e) => e.type !== 'LIST_DONE', true),
          toArray(),
        ),
      );
      const listed = events.flatMap((e) => (e.type === 'LIST_PAGE' ? e.items : e.type === 'ADDED' ? [e.object] : []));
      t.true(listed.length > 10 && listed.length < 50, `about half of 60: ${listed.length}`);
      t.true(listed.every((cm) => inUpperHalf(cm.metadata?.uid)));
    }
    const sent = server.requests.filter((r) => r.verb === 'list' || r.verb === 'watch');
    t.true(sent.length >= 2 && sent.every((r) => r.query['shardSelector'] === upperHalf), JSON.stringify(sent.map((r) => r.query)));
  } finally {
    await server.close();
  }
});

test('a malformed shardSelector is a TypeError when the source is built: nothing is sent (the server would answer 500)', (t) => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({ clusters: [{ name: 'c', server: 'http://127.0.0.1:1' }], users: [{ name: 'u' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
  t.throws(() => listWatch(kubeConfig, configmaps, { shardSelector: "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')" }), {
    instanceOf: TypeError,
    message: /^\[shardSelector\] invalid shard selector: the start "0x0" must be 16 hex digits/,
  });
});

test('a server that ignores shardSelector (no metadata.shardInfo: the gate is off, or it is older than 1.36) ends the source with a ShardSelectorError, once', async (t) => {
  let lists = 0;
  const http = createServer((_req, res) => {
    lists += 1;
    res.setHeader('Content-Type', 'application/json');
    res.end(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[{"metadata":{"name":"a","namespace":"demo","uid":"u-1","resourceVersion":"5"}}]}`);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const kubeConfig = loopbackKubeConfig(http);
  try {
    const error = await firstValueFrom(listWatch(kubeConfig, configmaps, { shardSelector: upperHalf }).pipe(filter(() => false))).catch((e: unknown) => e);
    t.true(error instanceof ShardSelectorError, String(error));
    t.regex((error as Error).message, /did not apply shardSelector .*no metadata\.shardInfo.*--feature-gates=ShardedListAndWatch=true/);
    t.is(lists, 1, 'not retried');
  } finally {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});
