import test from 'ava';
import { request as httpRequest } from 'node:http';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { call, configMap } from './apiServerClient.js';

async function withServer(run: (server: TestApiServer) => Promise<void>, config = {}): Promise<void> {
  const server = await createTestApiServer(config);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

function seedFive(server: TestApiServer): void {
  for (const [ns, name] of [['b', 'x'], ['a', 'z'], ['a', 'y'], ['b', 'w'], ['a-b', 'v']] as const) {
    server.create('configmaps', configMap(ns, name, { app: name === 'y' || name === 'w' ? 'web' : 'db', tier: ns }));
  }
}

test('LIST returns a <Kind>List in key order, items without kind/apiVersion, with the list RV', async (t) => {
  await withServer(async (server) => {
    seedFive(server);
    const reply = await call(`${server.url}/api/v1/configmaps`);
    t.is(reply.status, 200);
    t.is(reply.json.kind, 'ConfigMapList');
    t.is(reply.json.apiVersion, 'v1');
    t.is(reply.json.metadata.resourceVersion, server.resourceVersion);
    t.deepEqual(
      reply.json.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`),
      ['a-b/v', 'a/y', 'a/z', 'b/w', 'b/x'],
    );
    for (const item of reply.json.items) {
      t.false('kind' in item);
      t.false('apiVersion' in item);
      t.regex(item.metadata.uid, /^[0-9a-f-]{36}$/);
      t.is(item.metadata.generation, 1);
      t.regex(item.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const ns = await call(`${server.url}/api/v1/namespaces/a/configmaps`);
    t.deepEqual(ns.json.items.map((i: any) => i.metadata.name), ['y', 'z']);
  });
});

test('LIST paginates with limit/continue, remainingItemCount and the first page RV', async (t) => {
  await withServer(async (server) => {
    seedFive(server);
    const listRV = server.resourceVersion;
    const first = await call(`${server.url}/api/v1/configmaps?limit=2`);
    t.is(first.json.items.length, 2);
    t.is(first.json.metadata.remainingItemCount, 3);
    t.truthy(first.json.metadata.continue);
    server.create('configmaps', configMap('a', 'zz'));
    const second = await call(`${server.url}/api/v1/configmaps?limit=2&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    // Continue pages are consistent with the first page: a/zz created since is not in them.
    t.is(second.json.metadata.resourceVersion, listRV);
    t.deepEqual(second.json.items.map((i: any) => i.metadata.name), ['z', 'w']);
    t.is(second.json.metadata.remainingItemCount, 1);
    const third = await call(`${server.url}/api/v1/configmaps?limit=2&continue=${encodeURIComponent(second.json.metadata.continue)}`);
    t.deepEqual(third.json.items.map((i: any) => i.metadata.name), ['x']);
    t.is(third.json.metadata.continue, undefined);
    t.is(third.json.metadata.remainingItemCount, undefined);
    const nsPage = await call(`${server.url}/api/v1/namespaces/a/configmaps?limit=1`);
    t.is(nsPage.json.metadata.remainingItemCount, 2);
  });
});

test('a continue token older than the compacted log gets 410 Expired with the real message', async (t) => {
  await withServer(async (server) => {
    seedFive(server);
    const first = await call(`${server.url}/api/v1/configmaps?limit=2`);
    server.create('configmaps', configMap('a', 'new'));
    server.compact();
    const reply = await call(`${server.url}/api/v1/configmaps?limit=2&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    t.is(reply.status, 410);
    t.like(reply.json, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
    t.regex(reply.json.message, /^The provided continue parameter is too old to display a consistent list result/);
    const bad = await call(`${server.url}/api/v1/configmaps?continue=garbage`);
    t.is(bad.status, 400);
    t.regex(bad.json.message, /continue key is not valid/);
  });
});

test('LIST resourceVersion semantics: "", 0, NotOlderThan, Exact, too large', async (t) => {
  await withServer(async (server) => {
    server.create('configmaps', configMap('a', 'one'));
    const rvAfterOne = server.resourceVersion;
    server.create('configmaps', configMap('a', 'two'));
    server.patch('configmaps', 'a', 'one', { data: { k: 'changed' } });
    const names = (r: any) => r.json.items.map((i: any) => `${i.metadata.name}:${i.data.k}`);
    for (const q of ['', 'resourceVersion=', 'resourceVersion=0', `resourceVersion=${rvAfterOne}&resourceVersionMatch=NotOlderThan`, `resourceVersion=${rvAfterOne}`]) {
      const reply = await call(`${server.url}/api/v1/configmaps?${q}`);
      t.is(reply.status, 200, q);
      t.deepEqual(names(reply), ['one:changed', 'two:v'], q);
      t.is(reply.json.metadata.resourceVersion, server.resourceVersion, q);
    }
    const exact = await call(`${server.url}/api/v1/configmaps?resourceVersion=${rvAfterOne}&resourceVersionMatch=Exact`);
    t.deepEqual(names(exact), ['one:v']);
    t.is(exact.json.metadata.resourceVersion, rvAfterOne);
    // With a limit and no resourceVersionMatch, a non-zero RV is Exact (the API concepts table).
    const paged = await call(`${server.url}/api/v1/configmaps?resourceVersion=${rvAfterOne}&limit=10`);
    t.deepEqual(names(paged), ['one:v']);
    t.is(paged.json.metadata.resourceVersion, rvAfterOne);
    const future = String(Number(server.resourceVersion) + 5);
    const tooLarge = await call(`${server.url}/api/v1/configmaps?resourceVersion=${future}&resourceVersionMatch=NotOlderThan`);
    t.is(tooLarge.status, 504);
    t.like(tooLarge.json, { reason: 'Timeout', code: 504, details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] } });
    t.regex(tooLarge.json.message, /^Too large resource version/);
    server.compact();
    const expired = await call(`${server.url}/api/v1/configmaps?resourceVersion=${rvAfterOne}&resourceVersionMatch=Exact`);
    t.is(expired.status, 410);
    t.like(expired.json, { reason: 'Expired', code: 410 });
    t.is((await call(`${server.url}/api/v1/configmaps?resourceVersion=${rvAfterOne}&limit=10`)).status, 410);
    t.is((await call(`${server.url}/api/v1/configmaps?resourceVersion=${rvAfterOne}`)).status, 200, 'without a limit it is NotOlderThan');
    const invalid = await call(`${server.url}/api/v1/configmaps?resourceVersion=0&resourceVersionMatch=Exact`);
    t.is(invalid.status, 422);
    const withContinue = await call(`${server.url}/api/v1/configmaps?resourceVersion=5&continue=abc`);
    t.is(withContinue.status, 400);
  });
});

test('resourceVersion=0 pages by default, and ignores limit with ignoreLimitForResourceVersionZero', async (t) => {
  await withServer(async (server) => {
    seedFive(server);
    t.is((await call(`${server.url}/api/v1/configmaps?resourceVersion=0&limit=2`)).json.items.length, 2);
  });
  await withServer(
    async (server) => {
      seedFive(server);
      const reply = await call(`${server.url}/api/v1/configmaps?resourceVersion=0&limit=2`);
      t.is(reply.json.items.length, 5);
      t.is(reply.json.metadata.continue, undefined);
    },
    { ignoreLimitForResourceVersionZero: true },
  );
});

test('label selectors: equality and set based', async (t) => {
  await withServer(async (server) => {
    seedFive(server);
    const select = async (selector: string) =>
      (await call(`${server.url}/api/v1/configmaps?labelSelector=${encodeURIComponent(selector)}`)).json.items.map((i: any) => i.metadata.name);
    t.deepEqual(await select('app=web'), ['y', 'w']);
    t.deepEqual(await select('app==web,tier=a'), ['y']);
    t.deepEqual(await select('app!=web'), ['v', 'z', 'x']);
    t.deepEqual(await select('tier in (a, b),app notin (web)'), ['z', 'x']);
    t.deepEqual(await select('app,!missing'), ['v', 'y', 'z', 'w', 'x']);
    t.deepEqual(await select('missing'), []);
    const bad = await call(`${server.url}/api/v1/configmaps?labelSelector=${encodeURIComponent('a=(b')}`);
    t.is(bad.status, 400);
    t.is(bad.json.reason, 'BadRequest');
    // With a selector, pages hold matching items and no remainingItemCount.
    const page = await call(`${server.url}/api/v1/configmaps?limit=1&labelSelector=app%3Dweb`);
    t.deepEqual(page.json.items.map((i: any) => i.metadata.name), ['y']);
    t.truthy(page.json.metadata.continue);
    t.is(page.json.metadata.remainingItemCount, undefined);
  });
});

test('field selectors: metadata.name, metadata.namespace, spec.nodeName for pods; unknown fields are 400', async (t) => {
  await withServer(async (server) => {
    seedFive(server);
    server.create('pods', { metadata: { name: 'p1', namespace: 'a' }, spec: { nodeName: 'n1' } });
    server.create('pods', { metadata: { name: 'p2', namespace: 'a' }, spec: { nodeName: 'n2' } });
    const names = async (path: string) => (await call(`${server.url}${path}`)).json.items.map((i: any) => i.metadata.name);
    t.deepEqual(await names('/api/v1/configmaps?fieldSelector=metadata.name%3Dz'), ['z']);
    t.deepEqual(await names('/api/v1/configmaps?fieldSelector=metadata.namespace!%3Da'), ['v', 'w', 'x']);
    t.deepEqual(await names('/api/v1/pods?fieldSelector=spec.nodeName%3Dn2'), ['p2']);
    const bad = await call(`${server.url}/api/v1/configmaps?fieldSelector=spec.nodeName%3Dn2`);
    t.is(bad.status, 400);
    t.is(bad.json.message, 'field label not supported: spec.nodeName');
  });
});

test('metadata-only lists: PartialObjectMetadataList with PartialObjectMetadata items; 406 for nothing acceptable', async (t) => {
  await withServer(async (server) => {
    seedFive(server);
    const reply = await call(`${server.url}/api/v1/namespaces/a/configmaps`, {
      headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json' },
    });
    t.is(reply.headers['content-type'], 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1');
    t.is(reply.json.kind, 'PartialObjectMetadataList');
    t.is(reply.json.apiVersion, 'meta.k8s.io/v1');
    t.deepEqual(Object.keys(reply.json.items[0]), ['kind', 'apiVersion', 'metadata']);
    t.is(reply.json.items[0].kind, 'PartialObjectMetadata');
    t.is(reply.json.items[0].metadata.name, 'y');
    const one = await call(`${server.url}/api/v1/namespaces/a/configmaps/y`, { headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } });
    t.is(one.json.kind, 'PartialObjectMetadata');
    t.is(one.json.data, undefined);
    const none = await call(`${server.url}/api/v1/configmaps`, { headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } });
    t.is(none.status, 406);
    t.is(none.json.reason, 'NotAcceptable');
  });
});

test('cluster-scoped and custom resources list at their paths', async (t) => {
  const widgets = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };
  await withServer(
    async (server) => {
      server.create('namespaces', { metadata: { name: 'b' } });
      server.create('namespaces', { metadata: { name: 'a' } });
      server.create('widgets.example.com', { metadata: { name: 'w', namespace: 'a' }, spec: { size: 1 } });
      const ns = await call(`${server.url}/api/v1/namespaces`);
      t.is(ns.json.kind, 'NamespaceList');
      t.deepEqual(ns.json.items.map((i: any) => i.metadata.name), ['a', 'b']);
      t.false('namespace' in ns.json.items[0].metadata);
      const ws = await call(`${server.url}/apis/example.com/v1/namespaces/a/widgets`);
      t.is(ws.json.kind, 'WidgetList');
      t.is(ws.json.apiVersion, 'example.com/v1');
      t.is(ws.json.items[0].spec.size, 1);
      const all = await call(`${server.url}/apis/example.com/v1/widgets`);
      t.is(all.json.items.length, 1);
      const unknown = await call(`${server.url}/apis/example.com/v1/gadgets`);
      t.is(unknown.status, 404);
      t.like(unknown.json, { kind: 'Status', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' });
    },
    { resources: [widgets] },
  );
});

test('a large LIST is streamed as it is serialised (chunked, no Content-Length) and stays the list at its RV while the client reads', async (t) => {
  await withServer(async (server) => {
    const big = 'x'.repeat(1000);
    server.seed('configmaps', Array.from({ length: 3000 }, (_, i) => configMap('a', `cm-${String(i).padStart(4, '0')}`, undefined, { big })));
    const listRV = server.resourceVersion;
    const { headers, body } = await new Promise<{ headers: import('node:http').IncomingHttpHeaders; body: string }>((resolve, reject) => {
      httpRequest(`${server.url}/api/v1/configmaps`, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.once('data', (first: Buffer) => {
          chunks.push(first);
          // The client stops reading after the head; the server writes while it waits.
          res.pause();
          server.patch('configmaps', 'a', 'cm-2999', { data: { big: 'changed' } });
          server.delete('configmaps', 'a', 'cm-2998');
          setImmediate(() => {
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.resume();
          });
        });
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    t.is(headers['content-length'], undefined);
    t.is(headers['transfer-encoding'], 'chunked');
    const list = JSON.parse(body);
    t.is(list.metadata.resourceVersion, listRV);
    t.is(list.items.length, 3000);
    t.is(list.items[2999].data.big, big, 'the item as it was at the list RV');
    t.is(list.items[2998].metadata.name, 'cm-2998');
  });
});
