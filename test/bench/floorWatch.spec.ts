import test from 'ava';
import { request, type IncomingMessage } from 'node:http';
import { followWatch, type FloorEvent } from '../../bench/contenders/floorWatch.js';
import { createTestApiServer } from '../../src/testServer/createTestApiServer.js';

test('followWatch: a watch the server ends is opened again from the last resourceVersion seen, and no update is lost (bench:cluster, a floor whose watch kube-apiserver force-closed)', async (t) => {
  // kube-apiserver closes a watcher it finds slow ("Forcing … watcher close due to unresponsiveness")
  // and every watch at its timeout; the floor contender exited on it and took bench:cluster down.
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  server.create('configmaps', { metadata: { name: 'a', namespace: 'n' }, data: { v: '0' } });
  const listed = server.get('configmaps', 'n', 'a')!;
  const rv = (listed['metadata'] as { resourceVersion: string }).resourceVersion;
  const opened: string[] = [];
  const open = (resourceVersion: string): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      opened.push(resourceVersion);
      request(`${server.url}/api/v1/namespaces/n/configmaps?watch=1&resourceVersion=${resourceVersion}`, (res) => resolve(res)).on('error', reject).end();
    });
  const seen: FloorEvent['object'][] = [];
  let wake: () => void = () => {};
  await followWatch(
    open,
    rv,
    (object) => {
      seen.push(object);
      wake();
    },
    (error) => t.fail(error.message),
  );
  const until = (count: number): Promise<void> => new Promise((resolve) => ((wake = () => seen.length >= count && resolve()), wake()));
  server.patch('configmaps', 'n', 'a', { data: { v: '1' } });
  await until(1);
  t.is(server.closeWatches(), 1);
  server.patch('configmaps', 'n', 'a', { data: { v: '2' } });
  server.patch('configmaps', 'n', 'a', { data: { v: '3' } });
  await until(3);
  t.deepEqual(seen.map((o) => (o as unknown as { data: { v: string } }).data.v), ['1', '2', '3']);
  t.deepEqual(opened, [rv, seen[0]!.metadata.resourceVersion]);
});
