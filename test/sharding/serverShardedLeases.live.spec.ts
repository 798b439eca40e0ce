/**
 * sharded({ mode: 'server' }) and the member Leases of terms that ended, against the in-process API
 * server (real time, short leases, conditions polled): no sharder runs in this mode, so the live
 * members themselves delete the Lease of a member that died (held, never renewed again) and of one
 * that left (released), as the sharder does in label mode — each term has a Lease of its own, and
 * without this every crash or restart would leave one behind for good, which every member lists
 * and watches, and which each new member counts as live for a whole lease duration.
 */
import test from 'ava';
import type { Subscription } from 'rxjs';
import { claimAnnotation } from '../../src/sharding/server/shardClaim.js';
import { sharded } from '../../src/sharding/sharded.js';
import type { ShardingEvent } from '../../src/sharding/shardingConfig.js';
import { ringLabel } from '../../src/sharding/ringLabel.js';
import { microTime } from '../../src/coordination/microTime.js';
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer } from '../../src/testServer/createTestApiServer.js';
import type { TestApiServer } from '../../src/testServer/testApiServer.js';
import { until } from '../helpers/until.js';
import { serverRing } from './serverRing.js';

function replica(server: TestApiServer, name: string, events: ShardingEvent[]): Subscription {
  return sharded(
    serverRing(server, name, events, { leaseDurationMs: 1_000, renewDeadlineMs: 750, retryPeriodMs: 200 }),
    (shard) => {
      const cms = informer(listWatch<KubeObject>(server.kubeConfig, { version: 'v1', plural: 'configmaps', namespace: 'demo' }, { ...shard.selector }));
      return cms.snapshots$;
    },
  ).subscribe({ error: (error: unknown) => events.push({ type: 'left', identity: `ERROR ${String(error)}` }) });
}

test('the live members delete the member Lease of a member that died and of one that left', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  // A member killed with -9: its Lease names it, claims the whole space, and never changes again.
  server.create('leases.coordination.k8s.io', {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'cms-ghost-0000', namespace: 'default', labels: { [ringLabel]: 'cms' }, annotations: { [claimAnnotation]: '1-0;0-10000000000000000' } },
    spec: { holderIdentity: 'ghost-0000', leaseDurationSeconds: 1, acquireTime: microTime(Date.now()), renewTime: microTime(Date.now()), leaseTransitions: 0 },
  });
  const events: ShardingEvent[] = [];
  const a = replica(server, 'a', events);
  const b = replica(server, 'b', events);
  const c = replica(server, 'c', events);
  t.teardown(() => [a, b, c].forEach((s) => s.unsubscribe()));
  const ringLeases = (): string[] => server.list('leases.coordination.k8s.io', 'default').map((lease) => String((lease as KubeObject).metadata?.name)).filter((name) => name.startsWith('cms-'));
  await until(() => ringLeases().length === 4, 'three members and the ghost');
  const cLease = ringLeases().find((name) => name.startsWith('cms-c-'))!;
  c.unsubscribe(); // leaves: its Lease is released (no holder)
  await until(() => !ringLeases().includes('cms-ghost-0000') && !ringLeases().includes(cLease), 'the dead and the released member Leases deleted', 60_000);
  t.is(ringLeases().length, 2, ringLeases().join(', '));
  t.false(events.some((e) => e.type === 'left' && e.identity.startsWith('ERROR')), 'no replica failed');
});
