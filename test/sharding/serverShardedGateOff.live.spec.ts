/**
 * sharded({ mode: 'server' }) against a server that ignores shard selectors (kube-apiserver with the
 * gate ShardedListAndWatch off, or older than 1.36; here the in-process server with
 * `shardedListAndWatch: false`): as ShardingConfig.mode documents, the replica's work ends with a
 * ShardSelectorError that says how to turn the gate on — it is not retried, and the replica leaves
 * the ring (its member Lease released) rather than working on every object as if they were its own.
 */
import test from 'ava';
import { firstValueFrom } from 'rxjs';
import { controller } from '../../src/controller/controller.js';
import { ShardSelectorError } from '../../src/errors.js';
import { sharded } from '../../src/sharding/sharded.js';
import type { ShardingEvent } from '../../src/sharding/shardingConfig.js';
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer } from '../../src/testServer/createTestApiServer.js';
import { until } from '../helpers/until.js';
import { serverRing } from './serverRing.js';

test('the gate off: the work ends with a ShardSelectorError naming the gate, once, nothing reconciled, the member Lease released', async (t) => {
  const server = await createTestApiServer({ shardedListAndWatch: false });
  t.teardown(() => server.close());
  for (let i = 0; i < 20; i++) server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'demo' } });
  const events: ShardingEvent[] = [];
  const reconciled: string[] = [];
  const replica = sharded(
    serverRing(server, 'a', events, { leaseDurationMs: 1_000, renewDeadlineMs: 750, retryPeriodMs: 200 }),
    (shard) => {
      const cms = informer(listWatch<KubeObject>(server.kubeConfig, { version: 'v1', plural: 'configmaps', namespace: 'demo' }, { ...shard.selector }));
      return controller(cms, { reconcile: shard.reconciler(async (_cm, { ref }) => void reconciled.push(ref.name)) });
    },
  );
  const error = await firstValueFrom(replica).catch((e: unknown) => e);
  t.true(error instanceof ShardSelectorError, String(error));
  t.regex((error as Error).message, /no metadata\.shardInfo.*--feature-gates=ShardedListAndWatch=true/);
  t.deepEqual(reconciled, [], 'nothing reconciled: the objects listed were every object, not this member’s');
  t.is(server.requests.filter((r) => r.resource === 'configmaps' && r.verb === 'list').length, 1, 'not retried');
  await until(() => server.list('leases.coordination.k8s.io', 'default').every((lease) => !(lease as { spec?: { holderIdentity?: string } }).spec?.holderIdentity), 'the member Lease released');
  t.true(events.some((e) => e.type === 'left'), 'the term ended');
});
