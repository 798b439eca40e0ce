import test from 'ava';
import { createNamespaces, pool } from '../../bench/cluster/apiClient.js';

const connectionError = (code: string): Error => Object.assign(new Error(`write ${code}`), { code });

test('pool: a call that meets closed keep-alive sockets many times in a row still completes (bench:cluster loader)', async (t) => {
  // 64 pooled sockets the apiserver closed at once: each retry may meet another dead one.
  const failures = new Map<number, number>([[3, 40]]);
  const done: number[] = [];
  await pool(0, 8, 4, async (i) => {
    const left = failures.get(i) ?? 0;
    if (left > 0) {
      failures.set(i, left - 1);
      throw connectionError(left % 2 ? 'EPIPE' : 'ECONNRESET');
    }
    done.push(i);
  });
  t.deepEqual([...done].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7]);
});

test('pool: any other failure is retried 5 times, then the run fails with it', async (t) => {
  let calls = 0;
  await t.throwsAsync(
    pool(0, 1, 1, async () => {
      calls++;
      throw new Error('POST /api/v1/namespaces/team-0/configmaps: 500');
    }),
    { message: /500/ },
  );
  t.is(calls, 6);
});

test('createNamespaces: a create that meets a keep-alive socket the apiserver closed meanwhile is sent again (bench:cluster after building client-go)', async (t) => {
  // bench:cluster built client-go for two minutes after its first request; the apiserver had closed
  // that idle socket, and the first namespace create failed the run with "socket hang up".
  const created: string[] = [];
  let hangUps = 1;
  const client = {
    call: async (_method: string, _path: string, body?: unknown) => {
      if (hangUps-- > 0) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      created.push((body as { metadata: { name: string } }).metadata.name);
      return { status: 201, text: '{}' };
    },
    close: () => undefined,
  };
  await createNamespaces(client, 3);
  t.deepEqual(created, ['team-0', 'team-1', 'team-2']);
});
