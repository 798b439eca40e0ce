import test from 'ava';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { call, configMap, openWatch, withServer } from './apiServerClient.js';


const watchUrl = (server: TestApiServer) => `${server.url}/api/v1/configmaps?watch=true&resourceVersion=${server.resourceVersion}`;

test('closeWatches ends every stream cleanly', async (t) => {
  await withServer(async (server) => {
    const a = await openWatch(watchUrl(server));
    const b = await openWatch(`${server.url}/api/v1/pods?watch=true`);
    await server.waitForWatches(2);
    t.is(server.closeWatches('configmaps'), 1);
    t.is(await a.ended, 'end');
    t.is(server.closeWatches(), 1);
    t.is(await b.ended, 'end');
    t.is(server.openWatchCount, 0);
  });
});

test('breakWatches sends half a line and drops the connection', async (t) => {
  for (const reset of [false, true]) {
    await withServer(async (server) => {
      const watch = await openWatch(watchUrl(server));
      server.create('configmaps', configMap('a', 'one'));
      await watch.waitFor(1);
      t.is(server.breakWatches({ reset }), 1);
      t.is(await watch.ended, 'error', `reset=${reset}`);
      const tail = watch.chunks.join('').split('\n').at(-1)!;
      t.true(tail.startsWith('{"type":"BOOKMARK","object":{') && tail.length > 10, `a partial line arrived: ${tail}`);
      t.is(watch.events.length, 1);
    });
  }
});

test('splitWatchLines writes events in pieces of N bytes; clients still get whole events', async (t) => {
  await withServer(async (server) => {
    server.splitWatchLines(7);
    const watch = await openWatch(watchUrl(server));
    server.create('configmaps', configMap('a', 'one'));
    server.create('configmaps', configMap('a', 'two'));
    const events = await watch.waitFor(2);
    t.deepEqual(events.map((e) => e.object.metadata.name), ['one', 'two']);
    t.true(watch.chunks.length > 10, `${watch.chunks.length} chunks`);
    t.true(watch.chunks.every((c) => Buffer.byteLength(c) <= 7 * 4));
    server.splitWatchLines(undefined);
    const before = watch.chunks.length;
    server.create('configmaps', configMap('a', 'three'));
    await watch.waitFor(3);
    t.is(watch.chunks.length, before + 1);
    watch.close();
  });
});

test('emitMalformedLine writes a bad line to open watches', async (t) => {
  await withServer(async (server) => {
    const watch = await openWatch(watchUrl(server));
    await server.waitForWatches(1);
    t.is(server.emitMalformedLine(), 1);
    server.create('configmaps', configMap('a', 'one'));
    await watch.waitFor(1);
    t.is(watch.badLines.length, 1);
    t.is(watch.events[0]!.object.metadata.name, 'one');
    watch.close();
  });
});

test('failNext answers 429 with Retry-After and details.retryAfterSeconds, only for the chosen verbs and count', async (t) => {
  await withServer(async (server) => {
    server.failNext({ status: 429, verbs: ['watch'], count: 2, retryAfterSeconds: 3 });
    const list = await call(`${server.url}/api/v1/configmaps`);
    t.is(list.status, 200);
    for (let i = 0; i < 2; i++) {
      const watch = await call(`${server.url}/api/v1/configmaps?watch=true&timeoutSeconds=1`);
      t.is(watch.status, 429);
      t.is(watch.headers['retry-after'], '3');
      t.like(watch.json, { kind: 'Status', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 3 } });
    }
    const third = await openWatch(`${server.url}/api/v1/configmaps?watch=true`);
    t.is(third.status, 200);
    third.close();
    t.deepEqual(
      server.requests.map((r) => `${r.verb} ${r.status}${r.injected ? ` ${r.injected}` : ''}`),
      ['list 200', 'watch 429 fail', 'watch 429 fail', 'watch 200'],
    );
  });
});

test('failNext 500, 403, 401 and 410 (list, continue, watch open) have the real Status shapes', async (t) => {
  await withServer(async (server) => {
    for (const name of ['a', 'b', 'c']) server.create('configmaps', configMap('ns', name));
    server.failNext({ status: 500, verbs: ['list'] });
    const internal = await call(`${server.url}/api/v1/configmaps`);
    t.like(internal.json, { status: 'Failure', reason: 'InternalError', code: 500 });
    server.failNext({ status: 403, verbs: ['list'] });
    const forbidden = await call(`${server.url}/api/v1/namespaces/ns/configmaps`);
    t.is(forbidden.status, 403);
    t.is(forbidden.json.message, 'configmaps is forbidden: User "test-user" cannot list resource "configmaps" in API group "" in the namespace "ns"');
    server.failNext({ status: 401 });
    const unauthorized = await call(`${server.url}/api/v1/configmaps`);
    t.like(unauthorized.json, { reason: 'Unauthorized', code: 401, message: 'Unauthorized' });
    server.failNext({ status: 410, verbs: ['list'], match: (r) => r.query['continue'] === undefined });
    const expiredList = await call(`${server.url}/api/v1/configmaps?limit=1`);
    t.like(expiredList.json, { reason: 'Expired', code: 410, message: 'The resourceVersion for the provided list is too old.' });
    const page = await call(`${server.url}/api/v1/configmaps?limit=1`);
    server.failNext({ status: 410, verbs: ['list'], match: (r) => r.query['continue'] !== undefined });
    const expiredContinue = await call(`${server.url}/api/v1/configmaps?limit=1&continue=${page.json.metadata.continue}`);
    t.is(expiredContinue.status, 410);
    t.regex(expiredContinue.json.message, /^The provided continue parameter is too old/);
    server.failNext({ status: 410, verbs: ['watch'] });
    const expiredWatch = await call(`${server.url}/api/v1/configmaps?watch=true&resourceVersion=1`);
    t.is(expiredWatch.status, 410);
    t.is(expiredWatch.json.reason, 'Expired');
  });
});

test('delayResponses holds matching responses, as many as the count says, and only those', async (t) => {
  await withServer(async (server) => {
    // Which responses were held is read from the request log; only the held one is timed, as a lower bound.
    const heldFor = (): (number | undefined)[] => server.requests.map((request) => request.delayedMs);
    server.delayResponses({ ms: 400, verbs: ['list'], count: 1 });
    const started = Date.now();
    await call(`${server.url}/api/v1/configmaps`);
    t.true(Date.now() - started >= 390, 'the held response waited its time');
    await call(`${server.url}/api/v1/configmaps`);
    t.deepEqual(heldFor(), [400, undefined], 'count 1: the second list is not held');
    server.delayResponses({ ms: 400, resource: 'pods' });
    await call(`${server.url}/api/v1/configmaps`);
    t.deepEqual(heldFor(), [400, undefined, undefined], 'a rule for pods does not hold configmaps');
    server.clearFaults();
    await call(`${server.url}/api/v1/pods`);
    t.deepEqual(heldFor(), [400, undefined, undefined, undefined], 'clearFaults removes the rule');
  });
});

test('refuseConnections closes the listener for a while, then listens again on the same port', async (t) => {
  await withServer(async (server) => {
    const watch = await openWatch(watchUrl(server));
    const back = server.refuseConnections(300);
    t.is(await watch.ended, 'error', 'open connections are dropped');
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const req = request(`${server.url}/version`, { agent: false }, () => resolve(new Error('connected') as NodeJS.ErrnoException));
      req.on('error', resolve);
      req.end();
    });
    t.is(error.code, 'ECONNREFUSED');
    await back;
    const reply = await call(`${server.url}/version`);
    t.is(reply.status, 200);
    t.is(reply.json.major, '1');
  });
});

test('a server on port 0 listens below the ephemeral port range, so no outgoing connection can take its port while it refuses', async (t) => {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => undefined);
  if (range === undefined) {
    t.pass('no /proc/sys/net/ipv4/ip_local_port_range here: port 0 is kept as the system gives it');
    return;
  }
  const low = Number(range.trim().split(/\s+/)[0]);
  t.true(low > 1024, `the ephemeral range starts at ${low}`);
  const servers = await Promise.all(Array.from({ length: 5 }, () => createTestApiServer()));
  try {
    for (const server of servers) {
      const port = Number(new URL(server.url).port);
      t.true(port >= 1024 && port < low, `port ${port} is outside the ephemeral range ${range.trim()}`);
    }
    t.is(new Set(servers.map((server) => server.url)).size, 5, 'each on its own port');
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});

test('bearer token: 401 without it, 200 with it, setToken rotates it', async (t) => {
  await withServer(
    async (server) => {
      t.is((await call(`${server.url}/api/v1/configmaps`)).status, 401);
      t.is((await call(`${server.url}/api/v1/configmaps`, { headers: { Authorization: 'Bearer wrong' } })).status, 401);
      t.is((await call(`${server.url}/api/v1/configmaps`, { headers: { Authorization: 'Bearer s3cret' } })).status, 200);
      t.is(server.requests.at(-1)!.headers.authorization, 'Bearer s3cret');
      server.setToken('next');
      t.is((await call(`${server.url}/api/v1/configmaps`, { headers: { Authorization: 'Bearer s3cret' } })).status, 401);
      t.is((await call(`${server.url}/api/v1/configmaps`, { headers: { Authorization: 'Bearer next' } })).status, 200);
      t.deepEqual(server.requests.map((r) => r.injected), ['unauthorized', 'unauthorized', undefined, 'unauthorized', undefined]);
      t.regex(server.kubeConfigText(), /"token":"s3cret"/);
      server.setToken('third', { updateKubeConfig: true });
      t.is(server.kubeConfig.getCurrentUser()?.token, 'third');
      t.regex(server.kubeConfigText(), /"token":"third"/);
    },
    { token: 's3cret' },
  );
});

test('forbid rules deny with RBAC-shaped 403 messages per verb, resource and namespace', async (t) => {
  const widgets = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: false };
  await withServer(
    async (server) => {
      server.forbid({ verbs: ['watch'], resource: 'configmaps', namespace: 'ns' });
      server.forbid({ verbs: ['get', 'list'], resource: 'widgets.example.com' });
      t.is((await call(`${server.url}/api/v1/namespaces/ns/configmaps`)).status, 200);
      const watch = await call(`${server.url}/api/v1/namespaces/ns/configmaps?watch=true`);
      t.is(watch.status, 403);
      t.deepEqual(watch.json, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'configmaps is forbidden: User "x" cannot watch resource "configmaps" in API group "" in the namespace "ns"',
        reason: 'Forbidden',
        details: { kind: 'configmaps' },
        code: 403,
      });
      const widgetList = await call(`${server.url}/apis/example.com/v1/widgets`);
      t.is(widgetList.json.message, 'widgets is forbidden: User "x" cannot list resource "widgets" in API group "example.com" at the cluster scope');
      const widgetGet = await call(`${server.url}/apis/example.com/v1/widgets/w1`);
      t.is(widgetGet.json.message, 'widgets "w1" is forbidden: User "x" cannot get resource "widgets" in API group "example.com" at the cluster scope');
      t.deepEqual(widgetGet.json.details, { name: 'w1', group: 'example.com', kind: 'widgets' });
      server.clearFaults();
      t.is((await call(`${server.url}/apis/example.com/v1/widgets`)).status, 200);
    },
    { userName: 'x', resources: [widgets] },
  );
});

test('the request log records method, path, parsed query, verb, resource, headers, status and times', async (t) => {
  await withServer(async (server) => {
    const watch = await openWatch(`${server.url}/api/v1/namespaces/a/configmaps?watch=true&resourceVersion=1&allowWatchBookmarks=true&timeoutSeconds=1`, {
      Accept: 'application/json',
      'User-Agent': 'probe/1.0',
    });
    await call(`${server.url}/api/v1/namespaces/a/configmaps/x`, { method: 'PUT', body: { metadata: { name: 'x' } } });
    await watch.ended;
    const [w, put] = server.requests;
    t.like(w, {
      id: 1,
      method: 'GET',
      path: '/api/v1/namespaces/a/configmaps',
      query: { watch: 'true', resourceVersion: '1', allowWatchBookmarks: 'true', timeoutSeconds: '1' },
      verb: 'watch',
      resource: 'configmaps',
      namespace: 'a',
      name: undefined,
      headers: { accept: 'application/json', userAgent: 'probe/1.0' },
      status: 200,
    });
    t.true(w!.endedAt! - w!.startedAt >= 900, 'endedAt is when the watch closed');
    t.like(put, { method: 'PUT', verb: 'update', name: 'x', status: 404, headers: { contentType: 'application/json' } });
    const found = await server.waitForRequest((r) => r.verb === 'update');
    t.is(found.id, 2);
    server.clearRequests();
    t.is(server.requests.length, 0);
    await t.throwsAsync(server.waitForRequest((r) => r.verb === 'delete', 50), { message: /timed out/ });
  });
});

test('discovery documents and unknown paths', async (t) => {
  const widgets = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, shortNames: ['wd'] };
  await withServer(
    async (server) => {
      t.like((await call(`${server.url}/api`)).json, { kind: 'APIVersions', versions: ['v1'] });
      const core = (await call(`${server.url}/api/v1`)).json;
      t.is(core.kind, 'APIResourceList');
      t.deepEqual(
        core.resources.filter((r: any) => !r.name.includes('/')).map((r: any) => `${r.name}:${r.kind}:${r.namespaced}`),
        ['configmaps:ConfigMap:true', 'pods:Pod:true', 'namespaces:Namespace:false', 'nodes:Node:false'],
      );
      const groups = (await call(`${server.url}/apis`)).json;
      t.deepEqual(groups.groups.map((g: any) => g.preferredVersion.groupVersion), ['apiextensions.k8s.io/v1', 'coordination.k8s.io/v1', 'events.k8s.io/v1', 'example.com/v1']);
      const resources = (await call(`${server.url}/apis/example.com/v1`)).json;
      t.like(resources.resources[0], { name: 'widgets', kind: 'Widget', namespaced: true, shortNames: ['wd'] });
      t.is((await call(`${server.url}/apis/example.com`)).json.kind, 'APIGroup');
      t.is((await call(`${server.url}/version`)).json.gitVersion.startsWith('v1.'), true);
      // Under /api and /version the real server's web services answer a Status (probed on kube-apiserver v1.36.3)…
      for (const path of ['/api/v2', '/api/v1/namespaces/a/configmaps/x/y/z', '/version/x']) {
        const reply = await call(`${server.url}${path}`);
        t.is(reply.status, 404, path);
        t.is(reply.json.kind, 'Status', path);
      }
      // …and a path no API claims falls through to its mux: plain text.
      for (const path of ['/nope', '/nope/deeper']) {
        const reply = await fetch(`${server.url}${path}`);
        t.deepEqual([reply.status, reply.headers.get('content-type'), await reply.text()], [404, 'text/plain; charset=utf-8', '404 page not found\n'], path);
      }
      // A group version nothing serves: plain text, as kube-apiserver v1.36.3 answers it (probed with curl).
      const unserved = await fetch(`${server.url}/apis/nope.io/v1`);
      t.is(unserved.status, 404);
      t.is(await unserved.text(), '404 page not found\n');
      t.is((await call(`${server.url}/api/v1/configmaps`, { method: 'POST', body: {} })).status, 405);
      server.addResource({ group: 'late.io', version: 'v2', plural: 'things', kind: 'Thing', namespaced: false });
      t.is((await call(`${server.url}/apis/late.io/v2/things`)).json.kind, 'ThingList');
    },
    { resources: [widgets] },
  );
});

test('close() ends open watches and a closed server refuses connections', async (t) => {
  const server = await createTestApiServer();
  const watch = await openWatch(watchUrl(server));
  await server.close();
  t.is(await watch.ended, 'error');
  await t.throwsAsync(call(`${server.url}/version`), { code: 'ECONNREFUSED' });
});

test('failWatches ends open watches with an in-stream ERROR event', async (t) => {
  await withServer(async (server) => {
    const a = await openWatch(watchUrl(server));
    const b = await openWatch(watchUrl(server));
    await server.waitForWatches(2);
    t.is(server.failWatches({ status: 429, retryAfterSeconds: 2 }), 2);
    for (const watch of [a, b]) {
      t.is(await watch.ended, 'end');
      t.like(watch.events, [{ type: 'ERROR', object: { kind: 'Status', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 2 } } }]);
    }
    const c = await openWatch(watchUrl(server));
    await server.waitForWatches(1);
    server.failWatches({ status: 410 });
    await c.ended;
    t.regex(c.events[0]!.object.message, /^too old resource version: /);
  });
});
