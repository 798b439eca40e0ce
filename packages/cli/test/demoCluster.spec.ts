import test from 'ava';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { demoCluster } from '../src/demoCluster.js';
import { createTestApiServer } from 'rx-informer/test-server';

test('seeds namespaces, nodes and pods placed on them; churn makes about `rate` changes a second and keeps the pod count', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  // The churn runs on virtual time: one second of it, to the millisecond, however loaded the machine.
  const scheduler = new VirtualTimeScheduler(VirtualAction, 1000);
  const cluster = demoCluster(server, { pods: 400, scheduler });
  t.is(server.list('namespaces').length, 20);
  t.is(server.list('nodes').length, 50);
  const pods = server.list('pods') as Array<{ metadata: { namespace: string; labels: Record<string, string> }; spec: { nodeName: string } }>;
  t.is(pods.length, 400);
  t.is(new Set(pods.map((p) => p.metadata.namespace)).size, 20);
  t.true(new Set(pods.map((p) => p.spec.nodeName)).size > 40);
  t.true(pods.every((p) => cluster.nodes.includes(p.spec.nodeName) && cluster.namespaces.includes(p.metadata.namespace) && p.metadata.labels['app'] !== undefined));

  const before = Number(server.resourceVersion);
  const stop = cluster.churn(400);
  scheduler.flush(); // the ticks of the first 1000 ms
  const changes = Number(server.resourceVersion) - before;
  t.true(changes >= 380 && changes <= 420, `${changes} changes in 1 s at 400/s`);
  const after = server.list('pods').length;
  t.true(Math.abs(after - 400) < 10, `${after} pods`);
  t.true(scheduler.actions.length > 0, 'the churn goes on');
  stop();
  t.is(scheduler.actions.filter((action) => !action.closed).length, 0, 'stopping the churn stops its timer, so no write can follow');
});
