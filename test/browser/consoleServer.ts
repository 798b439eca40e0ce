/**
 * The servers of the real-browser console tests: the in-process API server (CORS open to the
 * page), seeded with one ConfigMap in each of `namespaces` namespaces `ns-<i>`, and the page's own
 * server (test/browser/consolePage.ts bundled with esbuild), which is also the web app's backend:
 * `backend` mounts whatever it is given on the same HTTP server (the relay, in the relay tests).
 */
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createTestApiServer, type TestApiServer, type TestApiServerConfig } from '../../src/testServer/index.js';

export interface ConsoleServers {
  /** The page's origin (`http://127.0.0.1:<port>`); the page is at `/`. */
  readonly origin: string;
  /** The page server, for a backend to mount on. */
  readonly server: Server;
  readonly apiServer: TestApiServer;
  /** The page's URL with these parameters. */
  pageUrl(params: Readonly<Record<string, string | number>>): string;
  close(): Promise<void>;
}

const here = fileURLToPath(new URL('.', import.meta.url));
let script: Promise<string> | undefined;

const html = '<!doctype html><html><head><meta charset="utf-8"><title>console</title></head><body><ul></ul><script type="module" src="/page.js"></script></body></html>';

/** Starts the API server (seeded) and the page's server. */
export async function startConsoleServers(namespaces: number, apiConfig: Omit<TestApiServerConfig, 'cors'> = {}): Promise<ConsoleServers> {
  script ??= build({ entryPoints: [`${here}consolePage.ts`], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' }).then((b) => b.outputFiles[0]!.text);
  const code = await script;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    if (path === '/') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
    else if (path === '/page.js') res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(code);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const apiServer = await createTestApiServer({ ...apiConfig, cors: { origins: [origin] } });
  for (let i = 0; i < namespaces; i++) apiServer.create('configmaps', { metadata: { name: 'cm', namespace: `ns-${i}` }, data: { v: '0' } });
  return {
    origin,
    server,
    apiServer,
    pageUrl: (params) => `${origin}/?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await apiServer.close();
    },
  };
}
