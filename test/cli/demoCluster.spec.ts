import test from 'ava';
import { demoCluster } from '../../src/cli/demoCluster.js';
import { createTestApiServer } from '../../src/testServer/index.js';

test('seeds namespaces, nodes and pods placed on them; churn makes about `rate` changes a second and keeps the pod count', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  const cluster = demoCluster(server, { pods: 400 });
  t.is(server.list('namespaces').length, 20);
  t.is(server.list('nodes').length, 50);
  const pods = server.list('pods') as Array<{ metadata: { namespace: string; labels: Record<string, string> }; spec: { nodeName: string } }>;
  t.is(pods.length, 400);
  t.is(new Set(pods.map((p) => p.metadata.namespace)).size, 20);
  t.true(new Set(pods.map((p) => p.spec.nodeName)).size > 40);
  t.true(pods.every((p) => cluster.nodes.includes(p.spec.nodeName) && cluster.namespaces.includes(p.metadata.namespace) && p.metadata.labels['app'] !== undefined));

  const before = Number(server.resourceVersion);
  const stop = cluster.churn(400);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  stop();
  const changes = Number(server.resourceVersion) - before;
  t.true(changes > 250 && changes < 550, `${changes} changes in 1 s at 400/s`);
  const after = server.list('pods').length;
  t.true(Math.abs(after - 400) < 10, `${after} pods`);
  const settled = server.resourceVersion;
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(server.resourceVersion, settled, 'stopping the churn stops the writes');
});
