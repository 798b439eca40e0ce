/*
 * Hostile and malformed input (issue 7 §2): each gets a typed error on the status stream or
 * errors$, the cache keeps what it had, and the informer recovers (relisting where that is the
 * repair). Bad lines are written straight into the open watch streams of the real test server.
 */
import test from 'ava';
import { config as rxConfig } from 'rxjs';
import { InformerError, KubeApiError, TransformError, TransportError, type InformerErrorReason, type TransportErrorReason } from '../../src/errors.js';
import { byLabel, byNamespace } from '../../src/store/indexFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { sleep, until, watchConfigMaps, type Watched } from './harness.js';

const isTransport = (e: unknown, reason: TransportErrorReason): boolean => e instanceof TransportError && e.reason === reason;
const isInformer = (e: unknown, reason: InformerErrorReason): boolean => e instanceof InformerError && e.reason === reason;
const cm = (name: string, labels?: Record<string, string>) => ({ metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) }, data: { v: name } });
const line = (type: string, object: unknown): string => `${JSON.stringify({ type, object })}\n`;
const lists = (server: TestApiServer): number => server.requests.filter((r) => r.verb === 'list' && r.query['continue'] === undefined).length;

/** A server with three ConfigMaps and a synced informer over it. */
async function setup(t: { teardown(fn: () => unknown): void }, config: Parameters<typeof watchConfigMaps>[1] = {}, options: Parameters<typeof watchConfigMaps>[2] = {}) {
  const server = await createTestApiServer({ bookmarkIntervalMs: 50 });
  for (const name of ['a', 'b', 'c']) server.create('configmaps', cm(name, { tier: name }));
  const w = watchConfigMaps(server, config, options);
  t.teardown(async () => {
    w.subscription.unsubscribe();
    await server.close();
  });
  await w.untilConverged('the first sync');
  return { server, w };
}

/** After a bad input: the snapshot still holds what it had; then a write arrives and all converge. */
async function recovers(server: TestApiServer, w: Watched, what: string): Promise<void> {
  server.create('configmaps', cm(`after-${what.replace(/\W+/g, '-').toLowerCase()}`));
  await w.untilConverged(`recovery from ${what}`);
}

/** One event on the current watch, so that its end is not a "very short watch" (R8: relist). */
async function oneEvent(server: TestApiServer, w: Watched): Promise<void> {
  server.patch('configmaps', 'default', 'c', { data: { v: String(Math.random()) } });
  await w.untilConverged('an event on the watch');
}

/** Key → resourceVersion: what the cache holds (a relist may swap in an equal snapshot). */
const contents = (snapshot: Watched['informer']['snapshot']): [string, string | undefined][] =>
  [...snapshot.entries()].map(([k, o]) => [k, o.metadata?.resourceVersion]);

const keysOf = (w: Watched): string[] => [...w.informer.snapshot.keys()].sort();

test('a malformed JSON line: TransportError (malformedLine), cache kept, relist', async (t) => {
  const { server, w } = await setup(t);
  const before = w.informer.snapshot;
  server.emitMalformedLine('{"type":"ADDED","object":{"kind":\n');
  await until(() => w.statusErrors().some((e) => isTransport(e, 'malformedLine')), 'the error');
  t.deepEqual(contents(w.informer.snapshot), contents(before), 'the cache is untouched');
  await recovers(server, w, 'a malformed line');
  t.true(w.statuses.some((s) => s.type === 'RELISTING'));
  const error = w.statusErrors().find((e) => isTransport(e, 'malformedLine'))!;
  t.regex(error.message, /malformed watch event/);
  t.is(w.streamError, undefined);
});

test('a stream cut mid-line (reset): TransportError, re-watch from the last RV without a relist', async (t) => {
  const { server, w } = await setup(t);
  await oneEvent(server, w);
  const listsBefore = lists(server);
  server.emitMalformedLine('{"type":"MODIFIED","object":{"metadata":{"name":"a","names');
  server.breakWatches({ reset: true });
  await until(() => w.statusErrors().some((e) => e instanceof TransportError), 'the error');
  await recovers(server, w, 'a reset mid-line');
  t.is(lists(server), listsBefore, 'no relist: nothing was lost');
});

test('a stream that ends cleanly inside a line: a typed error, re-watch without a relist, nothing applied from the fragment', async (t) => {
  const { server, w } = await setup(t);
  await oneEvent(server, w);
  const listsBefore = lists(server);
  const before = w.informer.snapshot;
  server.emitMalformedLine('{"type":"DELETED","object":{"kind":"ConfigMap","metadata":{"name":"a","namespace":"default","resourceVersion":"99"}}');
  server.closeWatches();
  await until(() => w.statusErrors().length > 0, 'an error about the truncated stream');
  const error = w.statusErrors()[0]!;
  t.true(error instanceof TransportError, `${error.name}: ${error.message}`);
  t.regex(error.message, /mid-line|truncated|ended/);
  t.deepEqual(contents(w.informer.snapshot), contents(before));
  await recovers(server, w, 'a truncated stream');
  t.is(lists(server), listsBefore, 'no relist: the fragment was never applied');
});

test('a line over maxLineBytes: TransportError (lineTooLong) before the line ends (no unbounded buffer), cache kept, relist', async (t) => {
  const { server, w } = await setup(t, { maxLineBytes: 64 * 1024 });
  const before = w.informer.snapshot;
  // 1 MiB of one line, no newline yet: the reader must give up at the cap, not wait for the end.
  const chunk = `{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"huge","namespace":"default"},"data":{"x":"${'x'.repeat(16 * 1024)}`;
  server.emitMalformedLine(chunk);
  for (let i = 0; i < 64 && !w.statusErrors().some((e) => isTransport(e, 'lineTooLong')); i++) {
    server.emitMalformedLine('y'.repeat(16 * 1024));
    await sleep(2);
  }
  await until(() => w.statusErrors().some((e) => isTransport(e, 'lineTooLong')), 'lineTooLong while the line is still open');
  const error = w.statusErrors().find((e) => isTransport(e, 'lineTooLong')) as TransportError;
  t.is(error.maxLineBytes, 64 * 1024);
  t.deepEqual(contents(w.informer.snapshot), contents(before));
  await recovers(server, w, 'a too long line');
  t.false(w.informer.snapshot.has('default/huge'));
});

test('objects without metadata or name: InformerError (invalidObject) on errors$, skipped, the watch goes on', async (t) => {
  const { server, w } = await setup(t);
  const listsBefore = lists(server);
  const before = w.informer.snapshot;
  const bad: unknown[] = [
    { kind: 'ConfigMap', apiVersion: 'v1' },
    { kind: 'ConfigMap', metadata: null },
    { kind: 'ConfigMap', metadata: 'a string' },
    { kind: 'ConfigMap', metadata: { namespace: 'default' } },
    { kind: 'ConfigMap', metadata: { namespace: 'default', name: '' } },
    { kind: 'ConfigMap', metadata: { namespace: 'default', name: 42 } },
    [],
  ];
  for (const object of bad) server.emitMalformedLine(line('ADDED', object));
  server.emitMalformedLine(line('MODIFIED', { kind: 'ConfigMap', metadata: {} }));
  server.emitMalformedLine(line('DELETED', { kind: 'ConfigMap' }));
  await until(() => w.errors.length >= bad.length + 2, 'an error per bad object');
  t.true(w.errors.every((e) => isInformer(e, 'invalidObject')), w.errors.map(String).join('\n'));
  t.regex(w.errors[0]!.message, /no metadata\.name/);
  t.deepEqual([...w.informer.snapshot.keys()], [...before.keys()]);
  await recovers(server, w, 'objects without names');
  t.is(lists(server), listsBefore, 'a bad object is skipped, not a reason to relist');
});

test('an unknown event type: TransportError (malformedLine), relist', async (t) => {
  const { server, w } = await setup(t);
  const before = w.informer.snapshot;
  server.emitMalformedLine(line('UPSERTED', { kind: 'ConfigMap', metadata: { name: 'z', namespace: 'default' } }));
  await until(() => w.statusErrors().some((e) => isTransport(e, 'malformedLine')), 'the error');
  t.regex(w.statusErrors()[0]!.message, /UPSERTED/);
  t.deepEqual(contents(w.informer.snapshot), contents(before));
  await recovers(server, w, 'an unknown event type');
});

for (const [title, object] of [
  ['an object without kind or code', { hello: 'world' }],
  ['a Status with a non-numeric code and an object message', { kind: 'Status', code: '410', message: { nested: true }, reason: 7 }],
  ['an array', [1, 2, 3]],
] as const) {
  test(`an ERROR event whose body is ${title}: KubeApiError, cache kept, relist`, async (t) => {
    const { server, w } = await setup(t);
    const before = w.informer.snapshot;
    server.emitMalformedLine(line('ERROR', object));
    await until(() => w.statusErrors().length > 0, 'the error');
    const error = w.statusErrors()[0]!;
    t.true(error instanceof KubeApiError, `${error.name}: ${error.message}`);
    t.is((error as KubeApiError).code, 500, 'no usable code: treated as an internal error');
    t.regex(error.message, /cannot watch configmaps/);
    t.deepEqual(contents(w.informer.snapshot), contents(before));
    await recovers(server, w, `an ERROR with ${title}`);
  });
}

test('an ERROR event with a non-object body: TransportError (malformedLine)', async (t) => {
  const { server, w } = await setup(t);
  server.emitMalformedLine(line('ERROR', 'gone'));
  await until(() => w.statusErrors().length > 0, 'the error');
  t.true(isTransport(w.statusErrors()[0], 'malformedLine'));
  await recovers(server, w, 'an ERROR with a string');
});

test('a resourceVersion that goes backwards: no crash, no error (RVs are opaque, R-notation), and a relist repairs the cache', async (t) => {
  const { server, w } = await setup(t);
  const a = server.get('configmaps', 'default', 'a') as KubeObject;
  server.patch('configmaps', 'default', 'a', { data: { v: 'newer' } });
  await w.untilConverged('the patch');
  // A stale copy of `a` (its create RV) and a bookmark from the past: applied as sent, since
  // resourceVersions are opaque and never compared (a later server bookmark moves past them, so
  // only a relist repairs this; see the report of issue 7).
  server.emitMalformedLine(line('MODIFIED', { ...a, kind: 'ConfigMap', apiVersion: 'v1' }));
  server.emitMalformedLine(line('BOOKMARK', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '1' } }));
  await until(() => w.informer.snapshot.get('default/a')?.metadata?.resourceVersion === a.metadata?.resourceVersion, 'the stale object applied');
  t.deepEqual(w.statusErrors(), []);
  t.is(w.streamError, undefined);
  server.failWatches({ status: 410 });
  await w.untilConverged('a relist after 410');
  t.true(w.statusErrors().some((e) => e instanceof KubeApiError && e.code === 410));
  // With the log compacted, a re-watch from a stale RV gets 410 and relists too.
  server.emitMalformedLine(line('MODIFIED', { ...a, kind: 'ConfigMap', apiVersion: 'v1' }));
  await until(() => w.informer.snapshot.get('default/a')?.metadata?.resourceVersion === a.metadata?.resourceVersion, 'the stale object applied again');
  server.compact();
  server.emitMalformedLine(line('BOOKMARK', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '1' } }));
  server.closeWatches();
  await w.untilConverged('a relist after a 410 on the re-watch');
  t.is(w.streamError, undefined);
});

test('names, namespaces, labels and index values such as __proto__, constructor, empty and very long: no prototype pollution, no crash', async (t) => {
  const long = 'n'.repeat(100_000);
  const hostileIndex = (o: KubeObject): string[] => [o.metadata?.name ?? '', '__proto__', 'constructor', '', long.slice(0, 5000)];
  const { server, w } = await setup(t, { maxLineBytes: 1024 * 1024 }, {
    indexers: { namespace: byNamespace, proto: byLabel('__proto__'), ctor: byLabel('constructor'), hostile: hostileIndex },
  });
  const names = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', long];
  const objects = names.flatMap((name) =>
    ['__proto__', 'constructor', long.slice(0, 300)].map((namespace) => ({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name, namespace, resourceVersion: '1', labels: { __proto__: 'p', constructor: name.slice(0, 63), toString: '' } },
      data: { __proto__: 'x' },
    })),
  );
  // `__proto__` as an own JSON key (JSON.parse makes it an own property; a careless copy would set the prototype).
  const raw = (o: (typeof objects)[number]) =>
    line('ADDED', o).replace('"labels":{', '"labels":{"__proto__":"p",').replace('"data":{}', '"data":{"__proto__":{"polluted":"yes"}}');
  for (const o of objects) server.emitMalformedLine(raw(o));
  server.emitMalformedLine(line('ADDED', { kind: 'ConfigMap', metadata: { name: '', namespace: '__proto__' } }));
  await until(() => objects.every((o) => w.informer.snapshot.has(o.metadata.namespace, o.metadata.name)), 'every hostile object cached');
  const snapshot = w.informer.snapshot;
  t.is(({} as Record<string, unknown>)['polluted'], undefined);
  t.deepEqual(Object.keys(Object.prototype), []);
  t.is(Object.getPrototypeOf({}), Object.prototype);
  t.is(snapshot.size, 3 + objects.length);
  t.is(snapshot.get('__proto__', '__proto__')?.metadata?.name, '__proto__');
  t.is(snapshot.get('constructor/constructor')?.metadata?.namespace, 'constructor');
  t.is(snapshot.indexKeys('namespace', '__proto__').length, names.length);
  t.is(snapshot.indexKeys('namespace', 'constructor').length, names.length);
  t.true(snapshot.indexValues('namespace').includes('__proto__'));
  t.is(snapshot.indexKeys('proto', 'p').length, objects.length);
  t.is(snapshot.indexKeys('ctor', 'constructor').length, 3);
  t.is(snapshot.indexKeys('hostile', '__proto__').length, objects.length + 3);
  t.is(snapshot.indexKeys('hostile', '').length, objects.length + 3);
  t.is(snapshot.indexKeys('hostile', 'hasOwnProperty').length, 3);
  t.deepEqual(snapshot.indexKeys('hostile', 'nothing'), []);
  t.deepEqual(snapshot.indexKeys('namespace', 'toString'), []);
  t.deepEqual(snapshot.byIndex('namespace', 'hasOwnProperty'), []);
  t.is(snapshot.list({ namespace: '__proto__' }).length, names.length);
  t.true(w.errors.length === 1 && isInformer(w.errors[0], 'invalidObject'), 'only the empty name is rejected');
  // And they all go again.
  for (const o of objects) server.emitMalformedLine(line('DELETED', o));
  await until(() => w.informer.snapshot.size === 3, 'the hostile objects deleted');
  t.deepEqual([...w.informer.snapshot.indexValues('namespace')], ['default']);
  t.deepEqual([...w.informer.snapshot.indexValues('proto')], []);
  t.deepEqual(Object.keys(Object.prototype), []);
  await recovers(server, w, 'hostile names');
});

test('an index function that throws or returns garbage: InformerError (indexFunc), the object is cached and left out of that index only', async (t) => {
  const picky = (o: KubeObject): readonly string[] => {
    const v = o.metadata?.labels?.['tier'];
    if (v === 'boom') throw new Error('picky index: boom');
    if (v === 'number') return [1 as unknown as string];
    if (v === 'string') return 'not-an-array' as unknown as string[];
    return v ? [v] : [];
  };
  const { server, w } = await setup(t, {}, { indexers: { namespace: byNamespace, picky } });
  for (const tier of ['boom', 'number', 'string']) server.create('configmaps', cm(tier, { tier }));
  await w.untilConverged('the bad objects');
  await until(() => w.errors.length >= 3, 'three indexFunc errors');
  t.true(w.errors.every((e) => isInformer(e, 'indexFunc')), w.errors.map(String).join('\n'));
  t.regex(w.errors[0]!.message, /index function "picky" failed for default\/boom: picky index: boom/);
  const s = w.informer.snapshot;
  for (const name of ['boom', 'number', 'string']) {
    t.true(s.has('default', name));
    t.true(s.indexKeys('namespace', 'default').includes(`default/${name}`));
  }
  t.deepEqual([...s.indexValues('picky')].sort(), ['a', 'b', 'c']);
  server.patch('configmaps', 'default', 'boom', { metadata: { labels: { tier: 'fine' } } });
  await w.untilConverged('the fix');
  t.deepEqual(w.informer.snapshot.indexKeys('picky', 'fine'), ['default/boom']);
});

test('a handler and a subscriber that throw: InformerError (handler) on errors$, RxJS reports the subscriber, the informer goes on', async (t) => {
  const reported: unknown[] = [];
  const previous = rxConfig.onUnhandledError;
  rxConfig.onUnhandledError = (error) => reported.push(error);
  t.teardown(() => (rxConfig.onUnhandledError = previous));
  const { server, w } = await setup(t);
  const handler = w.informer.addHandler({
    onAdd: (o) => {
      if (o.metadata?.name === 'x') throw new Error('handler bug');
    },
  });
  const subscriber = w.informer.changes$.subscribe((c) => {
    if (c.key === 'default/x') throw new Error('subscriber bug');
  });
  t.teardown(() => {
    handler.unsubscribe();
    subscriber.unsubscribe();
  });
  server.create('configmaps', cm('x'));
  await w.untilConverged('x');
  await until(() => w.errors.length > 0 && reported.length > 0, 'both reported');
  t.true(isInformer(w.errors[0], 'handler'));
  t.regex(w.errors[0]!.message, /add handler threw for default\/x: handler bug/);
  t.is((reported[0] as Error).message, 'subscriber bug');
  await recovers(server, w, 'throwing consumers');
  t.deepEqual(keysOf(w), ['default/a', 'default/after-throwing-consumers', 'default/b', 'default/c', 'default/x']);
});

test('a transform that throws is a typed error on the status stream: the cache keeps what it had, the source backs off and relists, and recovers', async (t) => {
  let throwing = false;
  const { server, w } = await setup(t, {
    transform: (o) => {
      if (throwing && o.metadata?.name === 't') throw new Error('transform bug');
      return o;
    },
  });
  const before = keysOf(w);
  throwing = true;
  server.create('configmaps', cm('t'));
  await until(() => w.statusErrors().some((e) => e instanceof TransformError), 'the TransformError');
  const error = w.statusErrors().find((e) => e instanceof TransformError)!;
  t.is(error.message, '[informer] transform threw: transform bug');
  t.is((error.cause as Error).message, 'transform bug');
  t.is(w.streamError, undefined, 'the informer did not die');
  t.deepEqual(keysOf(w), before, 'the cache kept what it had');
  // It keeps trying (relists that meet the same object fail the same way) until the object is fixed.
  await until(() => w.statusErrors().filter((e) => e instanceof TransformError).length >= 2, 'a second attempt');
  throwing = false;
  await recovers(server, w, 'a throwing transform');
  t.true(w.informer.snapshot.has('default', 't'));
});

test('odd field types (numeric RV, null/string/array labels, numeric namespace), wrong kinds and empty bookmarks: no crash, only typed errors', async (t) => {
  const { server, w } = await setup(t, {}, { indexers: { namespace: byNamespace, tier: byLabel('tier') } });
  const odd: unknown[] = [
    { kind: 'ConfigMap', metadata: { name: 'rv-number', namespace: 'default', resourceVersion: 12 } },
    { kind: 'ConfigMap', metadata: { name: 'labels-null', namespace: 'default', resourceVersion: '12', labels: null } },
    { kind: 'ConfigMap', metadata: { name: 'labels-string', namespace: 'default', resourceVersion: '12', labels: 'tier=a' } },
    { kind: 'ConfigMap', metadata: { name: 'labels-array', namespace: 'default', resourceVersion: '12', labels: ['tier'] } },
    { kind: 'ConfigMap', metadata: { name: 'ns-number', namespace: 7, resourceVersion: '12' } },
  ];
  for (const object of odd) server.emitMalformedLine(line('ADDED', object));
  // R6: another kind is dropped; a bookmark without metadata or RV is ignored.
  server.emitMalformedLine(line('ADDED', { kind: 'Pod', metadata: { name: 'pod', namespace: 'default' } }));
  server.emitMalformedLine(line('BOOKMARK', { kind: 'ConfigMap' }));
  server.emitMalformedLine(line('BOOKMARK', { kind: 'ConfigMap', metadata: {} }));
  await until(() => w.informer.snapshot.has('default', 'labels-array') && w.informer.snapshot.has('ns-number'), 'the odd objects cached');
  t.false(w.informer.snapshot.has('default', 'pod'));
  t.is(w.streamError, undefined);
  t.true(w.errors.every((e) => isInformer(e, 'indexFunc')), w.errors.map(String).join('\n'));
  t.deepEqual(w.statusErrors(), []);
  t.deepEqual(Object.keys(Object.prototype), []);
  // The server never had them: a relist finds them gone (tombstones) and the cache is the server's.
  server.failWatches({ status: 410 });
  await recovers(server, w, 'odd field types');
  t.false(w.informer.snapshot.has('default', 'rv-number'));
});
