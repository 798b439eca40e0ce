import test from 'ava';
import { discoverResource } from '../src/discoverResource.js';
import { failureText } from '../src/failureText.js';
import { KubeApiError } from 'rx-informer';
import { createTestApiServer, type TestApiServer } from 'rx-informer/test-server';
import { discoveryTestServer } from '../../../test/helpers/discoveryTestServer.js';

let server: TestApiServer;
test.before(async () => {
  server = await discoveryTestServer();
});
test.after.always(() => server?.close());

test('an unknown resource, or a known one in the wrong group, is not retried and reads as kubectl words it', async (t) => {
  for (const text of ['foos', 'pods.apps', 'deployments.example.com', 'deployments.v2.apps', 'pods/status']) {
    let retries = 0;
    const error = await t.throwsAsync(discoverResource(server.kubeConfig, text, { onRetry: () => retries++ }), { instanceOf: KubeApiError }, text);
    t.is(failureText(error, { server: server.url, typed: text }), `error: the server doesn't have a resource type ${JSON.stringify(text)}`);
    t.is(retries, 0);
  }
});

test('a refused discovery is reported as the typed API error, not retried', async (t) => {
  const locked = await createTestApiServer({ token: 'right' });
  t.teardown(() => locked.close());
  locked.setToken('other');
  let retries = 0;
  const error = await t.throwsAsync(discoverResource(locked.kubeConfig, 'pods', { onRetry: () => retries++ }), { instanceOf: KubeApiError });
  t.is(error?.code, 401);
  t.is(retries, 0);
});

test("an unreachable server is retried with the reflector's backoff, each failure reported, until the signal aborts", async (t) => {
  const gone = await createTestApiServer();
  const kubeConfig = gone.kubeConfig;
  await gone.close();
  const stop = new AbortController();
  const failures: Array<[string, number]> = [];
  const found = discoverResource(kubeConfig, 'pods', {
    signal: stop.signal,
    backoff: { initialDelay: 10, jitter: 0 },
    onRetry: (error, delay) => {
      failures.push([error.message, delay]);
      if (failures.length === 3) stop.abort(new Error('stop'));
    },
  });
  await t.throwsAsync(found, { message: 'stop' });
  t.deepEqual(failures.map(([, delay]) => delay), [10, 20, 40]);
  t.regex(failures[0]![0], /ECONNREFUSED/);
  // Without a backoff of its own: the reflector's defaults (0.8 s, doubling, jitter from `random`).
  const first = new AbortController();
  const delays: number[] = [];
  const again = discoverResource(kubeConfig, 'pods', { signal: first.signal, backoff: { random: () => 0 }, onRetry: (_, delay) => (delays.push(delay), first.abort(new Error('stop'))) });
  await t.throwsAsync(again, { message: 'stop' });
  t.deepEqual(delays, [800]);
});
