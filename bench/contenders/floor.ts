/**
 * The floors: the same HTTP requests as rx-informer (LIST pages of 500, then a WATCH from the
 * list's resourceVersion), the bodies read, watch lines split and `JSON.parse`d, nothing else.
 *
 * - `floor.ts` (**floor-parse**): nothing is kept: what any informer on Node pays at least.
 * - `floor.ts --map` (**floor-map**): each object is kept in a `Map` by `namespace/name`, replacing
 *   the previous one: the least a cache does (no freezing, no events, no snapshot).
 * - `floor.ts --map --fetch` (**floor-map-fetch**, opt-in): the same, with the watch read as
 *   client-node reads it (undici's `fetch`, `Readable.fromWeb`, `readline`), to tell the cost of
 *   keeping objects from the cost of how the socket is read. Plain http only (the test server);
 *   its watch is not opened again when the server ends it.
 *
 * Over `node:http` the watch is opened again from the last resourceVersion when the server ends it
 * (bench/contenders/floorWatch.ts), as any informer does.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { followWatch } from './floorWatch.js';
import { harness } from './harness.js';

type Item = { metadata: { namespace?: string; name: string } };
// http for the test server; https with the kubeconfig's CA and client certificate files for a real apiserver.
const kc = new KubeConfig();
kc.loadFromFile(process.env.BENCH_KUBECONFIG!);
const server = new URL(kc.getCurrentCluster()!.server);
const secure = server.protocol === 'https:';
const user = kc.getCurrentUser();
const agent = secure
  ? new HttpsAgent({ keepAlive: true, ca: readFileSync(kc.getCurrentCluster()!.caFile!), cert: readFileSync(user!.certFile!), key: readFileSync(user!.keyFile!) })
  : new HttpAgent({ keepAlive: true });
const request = secure ? httpsRequest : httpRequest;
const cache = process.argv.includes('--map') ? new Map<string, Item>() : undefined;
const keep = (item: Item): void => void cache?.set(`${item.metadata.namespace}/${item.metadata.name}`, item);
const h = harness();

const get = (path: string): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    request(`${server.origin}${path}`, { agent, headers: { Accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`GET ${path}: ${res.statusCode}`));
      else resolve(res);
    })
      .on('error', reject)
      .end();
  });

async function getJson(path: string): Promise<{ metadata: { resourceVersion: string; continue?: string }; items: Item[] }> {
  const chunks: Buffer[] = [];
  for await (const chunk of await get(path)) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

h.start();
let count = 0;
// The request rx-informer's first list sends (R1): the watch cache may answer it in one page.
let page = await getJson('/api/v1/configmaps?resourceVersion=0&limit=500');
for (;;) {
  count += page.items.length;
  if (cache) for (const item of page.items) keep(item);
  if (!page.metadata.continue) break;
  page = await getJson(`/api/v1/configmaps?limit=500&continue=${encodeURIComponent(page.metadata.continue)}`);
}
const rv = page.metadata.resourceVersion;
const watchPathAt = (resourceVersion: string): string => `/api/v1/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion=${resourceVersion}&timeoutSeconds=3600`;
if (process.argv.includes('--fetch')) {
  const { fetch } = await import('undici');
  const { Readable } = await import('node:stream');
  const { createInterface } = await import('node:readline');
  const response = await fetch(`${server.origin}${watchPathAt(rv)}`, { headers: { Accept: 'application/json' } });
  h.synced(cache?.size ?? count);
  const lines = createInterface(Readable.fromWeb(response.body! as import('node:stream/web').ReadableStream<Uint8Array>));
  lines.on('line', (line) => {
    const event = JSON.parse(line) as { type: string; object: Item };
    if (event.type === 'MODIFIED') {
      keep(event.object);
      h.seen(event.object as never);
    }
  });
  lines.on('close', () => {
    console.error('[floor] watch ended');
    process.exit(1);
  });
} else {
  await watchWithHttp();
}

async function watchWithHttp(): Promise<void> {
  await followWatch((resourceVersion) => get(watchPathAt(resourceVersion)), rv, (object) => {
    keep(object);
    h.seen(object as never);
  }, (error) => {
    console.error('[floor]', error.message);
    process.exit(1);
  });
  h.synced(cache?.size ?? count);
}
