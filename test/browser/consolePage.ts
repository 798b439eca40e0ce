/// <reference lib="dom" />
/**
 * The page of the real-browser console tests: `n` informers in one page, informer `i` over the
 * ConfigMaps of namespace `ns-<i>`, each rendered as a list item whose data attributes the tests
 * wait on (`data-status`, `data-synced`, `data-names`, `data-message`). Its URL parameters:
 * `api` (the API server, for `via=fetch`), `relay` (the relay's WebSocket URL, for `via=relay`),
 * `n`, `token`, `waitingAfter`, `noResponseTimeout`. With `view=table`, one informer over the
 * ConfigMaps of namespace `big` in examples/web/windowedTable.ts's windowed table instead.
 */
import { fetchListWatch, informer, type KubeObject, type ListWatchConfig, type ListWatchStatus } from 'rx-informer';
import { relayConnection } from 'rx-informer/web';
import { windowedTable } from '../../examples/web/windowedTable.js';

const params = new URL(location.href).searchParams;
const n = Number(params.get('n') ?? '8');
const via = params.get('via') ?? 'fetch';
const token = params.get('token') ?? undefined;
const bound = (name: 'waitingAfter' | 'noResponseTimeout'): Partial<ListWatchConfig<KubeObject>> => (params.has(name) ? { [name]: Number(params.get(name)) } : {});
const config: ListWatchConfig<KubeObject> = { ...bound('waitingAfter'), ...bound('noResponseTimeout') };
const relay = via === 'relay' ? relayConnection({ url: params.get('relay') ?? '/k8s-relay', ...(token === undefined ? {} : { token }) }) : undefined;
const list = document.querySelector('ul')!;

if (params.get('view') === 'table') {
  const viewport = document.createElement('div');
  viewport.id = 'table';
  viewport.style.height = '480px';
  document.body.append(viewport);
  const resource = { version: 'v1', plural: 'configmaps', namespace: 'big' };
  const big = informer(relay ? relay.listWatch<KubeObject>(resource, config) : fetchListWatch<KubeObject>({ baseUrl: params.get('api')! }, resource, config));
  windowedTable(viewport, big.snapshots$, [(object) => object.metadata?.name ?? '', (object) => (object as { data?: { v?: string } }).data?.v ?? '']);
  big.connect();
}

for (let i = 0; i < (params.get('view') === 'table' ? 0 : n); i++) {
  const resource = { version: 'v1', plural: 'configmaps', namespace: `ns-${i}` };
  const source = relay ? relay.listWatch<KubeObject>(resource, config) : fetchListWatch<KubeObject>({ baseUrl: params.get('api')!, ...(token === undefined ? {} : { token }) }, resource, config);
  const item = document.createElement('li');
  item.dataset['i'] = String(i);
  list.append(item);
  const cache = informer(source);
  cache.status$.subscribe((status: ListWatchStatus) => {
    item.dataset['status'] = status.type;
    if (status.type === 'WAITING') item.dataset['message'] = status.message;
    if (status.type === 'ERROR') item.dataset['error'] = status.error.message;
  });
  cache.snapshots$.subscribe((snapshot) => {
    item.dataset['synced'] = String(snapshot.synced);
    item.dataset['names'] = snapshot
      .list()
      .map((object) => `${object.metadata?.name}=${(object as { data?: { v?: string } }).data?.v ?? ''}`)
      .sort()
      .join(' ');
    item.textContent = `ns-${i}: ${item.dataset['names']}`;
    item.dataset['at'] = String(Math.round(performance.timeOrigin + performance.now()));
  });
  cache.connect();
}
document.body.dataset['ready'] = 'true';
