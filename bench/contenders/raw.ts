/**
 * Contender: the limit. The same HTTP requests as rx-informer (LIST pages of 500, then a WATCH
 * from the list's resourceVersion), the bodies read, watch lines split and `JSON.parse`d, and
 * nothing cached: what any informer on Node must pay at least.
 */
import { readFileSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import { harness } from './harness.js';

const config = JSON.parse(readFileSync(process.env.BENCH_KUBECONFIG!, 'utf8')) as { clusters: { cluster: { server: string } }[] };
const base = config.clusters[0]!.cluster.server;
const agent = new Agent({ keepAlive: true });
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

async function getJson(path: string): Promise<{ metadata: { resourceVersion: string; continue?: string }; items: unknown[] }> {
  const chunks: Buffer[] = [];
  for await (const chunk of await get(path)) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

h.start();
let count = 0;
let page = await getJson('/api/v1/configmaps?limit=500');
count += page.items.length;
while (page.metadata.continue) {
  page = await getJson(`/api/v1/configmaps?limit=500&continue=${encodeURIComponent(page.metadata.continue)}`);
  count += page.items.length;
}
const rv = page.metadata.resourceVersion;
const watch = await get(`/api/v1/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=3600`);
h.synced(count);
let rest: Buffer | undefined;
watch.on('data', (chunk: Buffer) => {
  const buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
  let from = 0;
  for (let eol = buffer.indexOf(10, from); eol >= 0; eol = buffer.indexOf(10, from)) {
    const event = JSON.parse(buffer.toString('utf8', from, eol)) as { type: string; object: never };
    if (event.type === 'MODIFIED') h.seen(event.object);
    from = eol + 1;
  }
  rest = from < buffer.length ? buffer.subarray(from) : undefined;
});
watch.on('end', () => {
  console.error('[raw] watch ended');
  process.exit(1);
});
