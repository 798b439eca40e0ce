/**
 * `Shard.listWatch` and `ServerShard.listWatch` against the in-process API server: the term's (the
 * stretch's) source carries its selector without the user spreading it — a label mode member's
 * label selector after the user's own, a server mode stretch's shard selector.
 */
import test from 'ava';
import { filter, firstValueFrom } from 'rxjs';
import { createShard } from '../../src/sharding/label/shard.js';
import { createServerShard, runCounter } from '../../src/sharding/server/serverShard.js';
import { resolveShardingConfig } from '../../src/sharding/shardingConfig.js';
import { shardSelectorOf, shardSpaceEnd } from '../../src/sources/shardSelector.js';
import { createTestApiServer } from '../../src/testServer/createTestApiServer.js';

const resource = { version: 'v1', plural: 'configmaps', namespace: 'demo' } as const;

test('a label shard lists with its owner label selector, after the one the caller gives', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mine', namespace: 'demo', labels: { app: 'x', 'shard.sharding.rx-informer.dev/cms': 'me' } } });
  server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: 'demo', labels: { app: 'x', 'shard.sharding.rx-informer.dev/cms': 'you' } } });
  const c = resolveShardingConfig({ kubeConfig: server.kubeConfig, ring: 'cms', namespace: 'default', resource: { apiVersion: 'v1', kind: 'ConfigMap' } }, 'sharded');
  const shard = createShard(c, 'me');
  const seen: string[] = [];
  await firstValueFrom(shard.listWatch(resource, { labelSelector: 'app=x' }).pipe(filter((e) => (e.type === 'LIST_PAGE' && seen.push(...e.items.map((o) => String(o.metadata?.name))), e.type === 'LIST_DONE'))));
  t.deepEqual(seen, ['mine']);
  t.is(server.requests.find((r) => r.verb === 'list')?.query['labelSelector'], 'app=x,shard.sharding.rx-informer.dev/cms=me');
});

test('a server shard lists with its stretch’s shard selector', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  const c = resolveShardingConfig({ kubeConfig: server.kubeConfig, ring: 'cms', namespace: 'default', resource: { apiVersion: 'v1', kind: 'ConfigMap' }, mode: 'server' }, 'sharded');
  const ranges = [{ start: 0n, end: shardSpaceEnd / 2n }];
  const selector = shardSelectorOf(ranges, c.shardField);
  const shard = createServerShard(c.kubeConfig, 'me', c.ring, ranges, ranges, c.shardField, selector, runCounter());
  await firstValueFrom(shard.listWatch(resource).pipe(filter((e) => e.type === 'LIST_DONE')));
  t.is(server.requests.find((r) => r.verb === 'list')?.query['shardSelector'], selector);
});
