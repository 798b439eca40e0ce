/**
 * The web demo's servers: the in-process API server (CORS open to the page's origin), seeded with
 * pods and, when asked, churned; and a static server for the page (`index.html` and `app.ts`
 * bundled for the browser with esbuild, rxjs and rx-informer inside). The page reads the API
 * server's URL from its `?api=` parameter. Used by `server.ts` (`npm run demo:web`), the
 * real-browser test and the screenshot script.
 */
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createTestApiServer, type TestApiServer } from 'rx-informer/test-server';

export interface WebDemo {
  /** The page, with the API server in its `?api=` parameter. */
  readonly pageUrl: string;
  readonly apiServer: TestApiServer;
  close(): Promise<void>;
}

export interface WebDemoOptions {
  /** Pods seeded over `namespaces` namespaces and 8 nodes (default 40). */
  readonly pods?: number;
  /** Changes a second (default 0: none; the test makes its own). */
  readonly rate?: number;
  /** Port of the page (default: any free one). */
  readonly port?: number;
}

const here = fileURLToPath(new URL('.', import.meta.url));
const namespaces = ['default', 'web', 'batch', 'monitoring'];

/** A pod as the demo seeds it: on a node, running, labelled. */
export const demoPod = (name: string, namespace: string, node: string, phase = 'Running') => ({
  metadata: { name, namespace, labels: { app: name.replace(/-\w+$/, '') } },
  spec: { nodeName: node, containers: [{ name: 'main', image: 'nginx:1.27' }] },
  status: { phase },
});

/** Starts the page's server and the API server it watches. */
export async function startWebDemo(options: WebDemoOptions = {}): Promise<WebDemo> {
  const bundle = await build({
    entryPoints: [`${here}app.ts`],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  const html = await readFile(`${here}index.html`, 'utf8');
  const page = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    if (path === '/' || path === '/index.html') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
    else if (path === '/app.js') res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(script);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => page.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  const apiServer = await createTestApiServer({ cors: { origins: [origin] } });
  const count = options.pods ?? 40;
  for (let i = 0; i < count; i++) apiServer.create('pods', demoPod(`app-${i}`, namespaces[i % namespaces.length]!, `node-${i % 8}`));
  const stopChurn = churn(apiServer, options.rate ?? 0, count);
  return {
    pageUrl: `${origin}/?api=${encodeURIComponent(apiServer.url)}`,
    apiServer,
    close: async () => {
      stopChurn();
      page.closeAllConnections();
      await new Promise<void>((resolve) => page.close(() => resolve()));
      await apiServer.close();
    },
  };
}

/** About `rate` changes a second: phase flips, new pods, deleted pods. */
function churn(server: TestApiServer, rate: number, seeded: number): () => void {
  if (rate <= 0) return () => undefined;
  let next = seeded;
  const timer = setInterval(() => {
    const pods = server.list('pods');
    const pick = pods[Math.floor(Math.random() * pods.length)];
    const roll = Math.random();
    if (pick === undefined || roll < 0.2) {
      server.create('pods', demoPod(`app-${next}`, namespaces[next % namespaces.length]!, `node-${next % 8}`, 'Pending'));
      next++;
    } else if (roll < 0.35) {
      server.delete('pods', pick.metadata!.namespace!, pick.metadata!.name!);
    } else {
      const phase = (pick as { status?: { phase?: string } }).status?.phase === 'Running' ? 'Succeeded' : 'Running';
      server.update('pods', { ...pick, status: { phase } });
    }
  }, 1000 / rate);
  return () => clearInterval(timer);
}
