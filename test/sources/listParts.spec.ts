/**
 * A large LIST page over HTTP comes in parts: the reflector hands out its items as the body is
 * parsed (LIST_PAGEs of one page number) instead of all of them once the body has ended, so the
 * store keys and freezes them while the rest is on the wire. Servers on 127.0.0.1 that hold part
 * of a body back until the client has shown what it did with the first part.
 */
import test from 'ava';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { firstValueFrom, lastValueFrom, Observable, of, toArray } from 'rxjs';
import { httpListerWatcher } from '../../src/sources/http/httpListerWatcher.js';
import { listPages } from '../../src/sources/http/listPages.js';
import type { ListResponse } from '../../src/sources/listerWatcher.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import { wholeListResponse } from '../../src/sources/wholeListResponse.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { loopbackKubeConfig } from '../helpers/loopbackKubeConfig.js';
import { until } from '../helpers/until.js';

type ConfigMap = KubeObject & { data?: Record<string, string> };

const configmaps = { version: 'v1', plural: 'configmaps' } as const;
/** A ConfigMap of ~8 KB: 600 of them are past the 4 MiB after which a list body is streamed. */
const item = (name: string): string => JSON.stringify({ metadata: { name, namespace: 'default', resourceVersion: '5' }, data: { payload: 'x'.repeat(8_000) } });
const names = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `cm-${from + i}`);
const head = (more = ''): string => `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"${more}},"items":[`;

async function withServer(handler: (req: IncomingMessage, res: ServerResponse, url: URL) => void, run: (kubeConfig: KubeConfig) => Promise<void>): Promise<void> {
  const http = createServer((req, res) => handler(req, res, new URL(req.url!, 'http://x')));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    await run(loopbackKubeConfig(http));
  } finally {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
}

const isPage = (e: RawEvent<ConfigMap>): e is Extract<RawEvent<ConfigMap>, { type: 'LIST_PAGE' }> => e.type === 'LIST_PAGE';

test('a one-page list past 4 MiB: its items come as LIST_PAGEs of page 1 while the body is still arriving, every item once and in order, then LIST_DONE', async (t) => {
  let release: (() => void) | undefined;
  await withServer(
    (_req, res, url) => {
      if (url.searchParams.get('watch')) return void res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
      res.writeHead(200, { 'content-type': 'application/json' });
      // As the apiserver's watch cache answers RV "0": the whole collection in one page.
      res.write(head() + names(0, 1_200).map(item).join(','));
      release = () => res.end(`,${names(1_200, 1_210).map(item).join(',')}]}`);
    },
    async (kubeConfig) => {
      const events: RawEvent<ConfigMap>[] = [];
      const sub = listWatch<ConfigMap>(kubeConfig, configmaps, { transform: (cm) => ({ ...cm, data: { length: String(cm.data?.['payload']?.length) } }) }).subscribe((e) => events.push(e));
      try {
        await until(() => events.some(isPage), 'a LIST_PAGE before the body has ended');
        t.false(events.some((e) => e.type === 'LIST_DONE'));
        release!();
        await until(() => events.some((e) => e.type === 'LIST_DONE'), 'LIST_DONE');
        const pages = events.filter(isPage);
        t.true(pages.length >= 2, `${pages.length} parts`);
        t.deepEqual(new Set(pages.map((p) => p.page)), new Set([1]), 'all parts of page 1');
        t.deepEqual(pages.flatMap((p) => p.items.map((i) => i.metadata?.name)), names(0, 1_210));
        t.deepEqual(pages.map((p) => p.itemsSoFar), pages.map((_, k) => pages.slice(0, k + 1).reduce((n, p) => n + p.items.length, 0)), 'itemsSoFar counts the parts');
        t.true(pages.every((p) => p.items.every((i) => i.data?.['length'] === '8000' && i.kind === 'ConfigMap')), 'every part transformed, kind filled in');
        t.deepEqual(events.filter((e) => e.type === 'LIST_START' || e.type === 'LIST_DONE').map((e) => e.type), ['LIST_START', 'LIST_DONE']);
      } finally {
        sub.unsubscribe();
      }
    },
  );
});

test('listPages: a prefetched page that came in parts before it was adopted is adopted with every part', async (t) => {
  const target = { group: '', version: 'v1', plural: 'configmaps', path: '/api/v1/configmaps', name: 'configmaps', namespace: undefined };
  const part = (items: string[], more = {}): ListResponse<KubeObject> => ({ items: items.map((name) => ({ metadata: { name } })), resourceVersion: '5', ...more });
  const requested: string[] = [];
  const page = listPages<KubeObject>(
    (_target, path, peekHead) =>
      new Observable<ListResponse<KubeObject>>((subscriber) => {
        requested.push(path);
        if (!path.includes('continue')) {
          // Page 1's head names page 2, which is requested (and arrives, in three parts) at once.
          peekHead?.({ metadata: { continue: 'T2' } });
          subscriber.next(part(['a'], { continue: 'T2' }));
        } else {
          subscriber.next(part(['b', 'c'], { continue: 'T3' }));
          subscriber.next(part(['d'], { continue: 'T3' }));
          subscriber.next(part(['e'], { continue: 'T3' }));
        }
        subscriber.complete();
      }),
    {},
  );
  // As the reflector does: the next page is asked for as the previous one completes.
  const got: string[][] = [];
  await new Promise<void>((resolve, reject) => {
    page(target, { limit: 2 }).subscribe({
      next: (p) => got.push(p.items.map((i) => i.metadata!.name!)),
      error: reject,
      complete: () => page(target, { limit: 2, continue: 'T2' }).subscribe({ next: (p) => got.push(p.items.map((i) => i.metadata!.name!)), error: reject, complete: resolve }),
    });
  });
  t.deepEqual(got, [['a'], ['b', 'c'], ['d'], ['e']]);
  t.deepEqual(requested, ['/api/v1/configmaps?limit=2', '/api/v1/configmaps?limit=2&continue=T2'], 'page 2 requested once: adopted');
});

test('wholeListResponse joins a page emitted in parts: all items in order, the last part\'s metadata; a page emitted whole passes as it is', async (t) => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${head(',"remainingItemCount":0')}${names(0, 1_100).map(item).join(',')}]}`);
    },
    async (kubeConfig) => {
      const lister = httpListerWatcher(kubeConfig, configmaps);
      const parts = await lastValueFrom(lister.list({}).pipe(toArray()));
      t.true(parts.length >= 2, `${parts.length} parts`);
      const whole = await firstValueFrom(lister.list({}).pipe(wholeListResponse()));
      t.deepEqual(whole.items.map((i) => i.metadata?.name), names(0, 1_100));
      t.like(whole, { resourceVersion: '5', remainingItemCount: 0 });
      const one = { items: [], resourceVersion: '1' };
      t.is(await firstValueFrom(of(one).pipe(wholeListResponse())), one);
      lister.closeIdleConnections?.();
    },
  );
});
