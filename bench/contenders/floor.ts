/**
 * The floors: the same HTTP requests as rx-informer (LIST pages of 500, then a WATCH from the
 * list's resourceVersion), the bodies read, watch lines split and `JSON.parse`d, nothing else.
 *
 * - `floor.ts` (**floor-parse**): nothing is kept: what any informer on Node pays at least.
 * - `floor.ts --map` (**floor-map**): each object is kept in a `Map` by `namespace/name`, replacing
 *   the previous one: the least a cache does (no freezing, no events, no snapshot).
 */
import { readFileSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import { harness } from './harness.js';

type Item = { metadata: { namespace?: string; name: string } };
const config = JSON.parse(readFileSync(process.env.BENCH_KUBECONFIG!, 'utf8')) as { clusters: { cluster: { server: string } }[] };
const base = config.clusters[0]!.cluster.server;
const agent = new Agent({ keepAlive: true });
const cache = process.argv.includes('--map') ? new Map<string, Item>() : undefined;
const keep = (item: Item): void => void cache?.set(`${item.metadata.namespace}/${item.metadata.name}`, item);
const h = harness();

const get = (path: string): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    request(`${base}${path}`, { agent, headers: { Accept: 'application/json' } }, (res) => {
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
let page = await getJson('/api/v1/configmaps?limit=500');
for (;;) {
  count += page.items.length;
  if (cache) for (const item of page.items) keep(item);
  if (!page.metadata.continue) break;
  page = await getJson(`/api/v1/configmaps?limit=500&continue=${encodeURIComponent(page.metadata.continue)}`);
}
const rv = page.metadata.resourceVersion;
const watch = await get(`/api/v1/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=3600`);
h.synced(cache?.size ?? count);
let rest: Buffer | undefined;
watch.on('data', (chunk: Buffer) => {
  const buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
  let from = 0;
  for (let eol = buffer.indexOf(10, from); eol >= 0; eol = buffer.indexOf(10, from)) {
    const event = JSON.parse(buffer.toString('utf8', from, eol)) as { type: string; object: Item };
    if (event.type === 'MODIFIED') {
      keep(event.object);
      h.seen(event.object as never);
    }
    from = eol + 1;
  }
  rest = from < buffer.length ? buffer.subarray(from) : undefined;
});
watch.on('end', () => {
  console.error('[floor] watch ended');
  process.exit(1);
});
