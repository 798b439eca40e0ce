/*
 * Hostile LIST responses (issue 7 §2), from a raw loopback HTTP server (the test API server only
 * serves well-formed lists): a body that is not JSON, JSON that is not a list, a truncated body,
 * and items that are null, not objects, or nameless. Typed errors, the cache keeps what it had,
 * and the next good list is applied.
 */
import test from 'ava';
import { KubeConfig } from '@kubernetes/client-node';
import { createServer, type ServerResponse } from 'node:http';
import { informer, type Informer } from '../../src/informer/informer.js';
import { InformerError, TransportError } from '../../src/errors.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { ListWatchConfig } from '../../src/sources/listWatchConfig.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import { loopbackKubeConfig } from '../helpers/loopbackKubeConfig.js';
import { until } from './harness.js';

type Mode = 'good' | 'notJson' | 'notList' | 'truncated' | 'badItems' | 'huge' | 'hugeDeclared';

/** How long the body of a 'huge' list is (a valid list, padded); far above the cap the tests set. */
const hugeBytes = 32 * 1024 * 1024;

const cm = (name: string, rv: string) => ({ metadata: { name, namespace: 'd', resourceVersion: rv } });

async function rawServer() {
  let mode: Mode = 'good';
  let rv = 10;
  const watches = new Set<ServerResponse>();
  const sent = { bytes: 0 };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.searchParams.get('watch') === 'true') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
      watches.add(res);
      res.on('close', () => watches.delete(res));
      return;
    }
    const list = (items: unknown[]) => JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: String(rv) }, items });
    if (mode !== 'truncated' && mode !== 'hugeDeclared') res.writeHead(200, { 'Content-Type': 'application/json' });
    switch (mode) {
      case 'good':
        res.end(list([cm('a', String(rv)), cm('b', String(rv))]));
        return;
      case 'notJson':
        res.end('{"kind":"ConfigMapList","items":[{"metadata":');
        return;
      case 'notList':
        res.end(JSON.stringify({ kind: 'Status', items: 'nope' }));
        return;
      case 'truncated': {
        const body = list([cm('a', String(rv))]);
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length + 100) });
        res.write(body);
        setImmediate(() => res.socket?.destroy()); // once the partial body is written
        return;
      }
      case 'badItems':
        res.end(list([null, 'a string', 42, [], { metadata: {} }, { metadata: { namespace: 'd' } }, cm('c', String(rv))]));
        return;
      case 'huge': {
        // A well-formed list of 32 MiB, written in 64 KiB chunks as the client takes them (chunked, no length).
        const head = `${list([cm('a', String(rv))]).slice(0, -1)},"padding":"`;
        const chunk = 'x'.repeat(64 * 1024);
        let written = 0;
        const pump = (): void => {
          while (written < hugeBytes && !res.destroyed) {
            written += chunk.length;
            sent.bytes += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end('"}');
        };
        res.write(head);
        pump();
        return;
      }
      case 'hugeDeclared':
        // Announces 5 GiB, sends the head, and never the rest.
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(5 * 1024 ** 3) });
        res.write(list([]).slice(0, 20));
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const kubeConfig = loopbackKubeConfig(server);
  return {
    kubeConfig,
    set(next: Mode) {
      mode = next;
      rv++;
    },
    watching: () => watches.size > 0,
    /** Bytes of padding the 'huge' list got onto the wire so far. */
    sent,
    /** Ends the open watches with an in-stream 410, so the client relists. */
    expire() {
      for (const w of watches) w.end(`${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old' } })}\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type RawServer = Awaited<ReturnType<typeof rawServer>>;

/** An informer over the raw server, listed and watching, with the statuses it reported. */
async function watchingInformer(api: RawServer, config: ListWatchConfig<KubeObject> = {}) {
  const statuses: ListWatchStatus[] = [];
  const inf = informer(listWatch(api.kubeConfig, { version: 'v1', plural: 'configmaps' }, { ...config, backoff: { initialDelay: 10, maxDelay: 30 }, onStatus: (s) => void statuses.push(s) }));
  const sub = inf.changes$.subscribe();
  await until(() => inf.snapshot.size === 2 && api.watching(), 'the first list and the watch');
  return { inf, statuses, sub };
}

/** Makes the next list `mode`, forces a relist, and waits for the TransportError it causes; returns the snapshot before. */
async function relistInto(api: RawServer, inf: Informer<KubeObject>, statuses: readonly ListWatchStatus[], mode: Mode, matches: (error: TransportError) => boolean, what: string) {
  const before = inf.snapshot;
  api.set(mode);
  api.expire();
  await until(() => statuses.some((s) => s.type === 'ERROR' && s.error instanceof TransportError && matches(s.error)), what);
  return before;
}

for (const [mode, expected] of [
  ['notJson', /invalid response body/],
  ['notList', /not a Kubernetes list/],
  ['truncated', /closed before the body ended|aborted|socket hang up/],
] as const) {
  test(`a LIST whose body is ${mode}: TransportError, the cache keeps what it had, and the next good list is applied`, async (t) => {
    const api = await rawServer();
    const { inf, statuses, sub } = await watchingInformer(api);
    const errors: unknown[] = [];
    inf.errors$.subscribe((e) => errors.push(e));
    try {
      const before = await relistInto(api, inf, statuses, mode, (error) => expected.test(error.message), `a TransportError matching ${expected}`);
      t.is(inf.snapshot, before, 'the cache is untouched');
      api.set('good');
      await until(() => inf.snapshot.get('d/a')?.metadata?.resourceVersion === inf.snapshot.get('d/b')?.metadata?.resourceVersion && inf.snapshot !== before, 'the good list applied');
      t.deepEqual(errors, []);
    } finally {
      sub.unsubscribe();
      await api.close();
    }
  });
}

test('a LIST with null, non-object and nameless items: an InformerError (invalidObject) each, the good item applied, the rest skipped', async (t) => {
  const api = await rawServer();
  const inf = informer(listWatch(api.kubeConfig, { version: 'v1', plural: 'configmaps' }, { backoff: { initialDelay: 10, maxDelay: 30 } }));
  const errors: unknown[] = [];
  inf.errors$.subscribe((e) => errors.push(e));
  const sub = inf.changes$.subscribe();
  try {
    await until(() => inf.snapshot.size === 2 && api.watching(), 'the first list and the watch');
    api.set('badItems');
    api.expire();
    await until(() => inf.snapshot.has('d/c'), 'the relist');
    t.deepEqual([...inf.snapshot.keys()], ['d/c'], 'a and b are gone (the list no longer has them), c is in');
    t.is(errors.length, 6);
    t.true(errors.every((e) => e instanceof InformerError && e.reason === 'invalidObject'), errors.map(String).join('\n'));
    t.deepEqual(Object.keys(Object.prototype), []);
  } finally {
    sub.unsubscribe();
    await api.close();
  }
});

for (const mode of ['huge', 'hugeDeclared'] as const) {
  test(`a LIST body over maxListBytes (${mode === 'huge' ? 'streamed' : 'announced by Content-Length'}): TransportError (bodyTooLarge) without reading the rest, cache kept, next good list applied`, async (t) => {
    const api = await rawServer();
    const maxListBytes = 1024 * 1024;
    const { inf, statuses, sub } = await watchingInformer(api, { maxListBytes });
    try {
      const before = await relistInto(api, inf, statuses, mode, (error) => error.reason === 'bodyTooLarge', 'a TransportError (bodyTooLarge)');
      const status = statuses.find((s) => s.type === 'ERROR' && s.error instanceof TransportError && s.error.reason === 'bodyTooLarge') as Extract<ListWatchStatus, { type: 'ERROR' }>;
      const error = status.error as TransportError;
      t.is(error.maxBodyBytes, maxListBytes);
      t.is(error.verb, 'list');
      t.regex(error.message, /list response body exceeds 1048576 bytes \(maxListBytes\)/);
      t.is(inf.snapshot, before, 'the cache is untouched');
      // The client hung up: the server could not push the whole body (socket buffers hold a few MiB at most).
      t.true(api.sent.bytes < hugeBytes / 2, `${api.sent.bytes} bytes sent`);
      api.set('good');
      await until(() => inf.snapshot !== before && inf.snapshot.size === 2, 'the good list applied');
    } finally {
      sub.unsubscribe();
      await api.close();
    }
  });
}

test('maxListBytes must be a positive integer: a TypeError naming it, at the call', (t) => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({ clusters: [{ name: 'c', server: 'http://127.0.0.1:1' }], users: [{ name: 'u' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    t.throws(() => listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, { maxListBytes: bad }), { instanceOf: TypeError, message: /maxListBytes must be a positive integer/ });
  }
});

test('a label or field selector that is not a string is a TypeError naming it, at the call (it was sent as "[object Object]")', (t) => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({ clusters: [{ name: 'c', server: 'http://127.0.0.1:1' }], users: [{ name: 'u' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
  t.throws(() => listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, { labelSelector: { app: 'web' } as never }), {
    instanceOf: TypeError,
    message: '[listWatch] labelSelector must be a string, like "app=web,tier!=db", got an object',
  });
  t.throws(() => listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, { fieldSelector: 5 as never }), { instanceOf: TypeError, message: /fieldSelector must be a string, like "metadata\.name=x", got 5/ });
  t.notThrows(() => listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, { labelSelector: '', fieldSelector: 'metadata.name=x' }));
});
