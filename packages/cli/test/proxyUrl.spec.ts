/**
 * A kubeconfig cluster with a `proxy-url`, through the bundle: client-node's proxy agents are not
 * in the scripts the CLI loads at start (bundleCli.ts loads `proxy-agents.cjs` on first use), so
 * these check that first use, over real sockets on loopback — an HTTP CONNECT proxy the CLI's
 * requests tunnel through, and a SOCKS proxy URL whose port refuses connections.
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { cliCluster, runCli } from './cliCluster.js';

/** An HTTP proxy that only tunnels (CONNECT, as client-node's hpagent asks for plain and TLS servers alike), noting each target. */
async function connectProxy(): Promise<{ readonly port: number; readonly targets: string[]; close(): Promise<void> }> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request, client: Socket, head: Buffer) => {
    targets.push(request.url ?? '');
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => (sockets.delete(socket), client.destroy(), upstream.destroy()));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    targets,
    close: () => new Promise((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
  };
}

/** The cluster's kubeconfig (JSON, as the test server writes it) with `proxy-url` added, written beside it. */
async function withProxyUrl(kubeconfig: string, text: string, proxyUrl: string): Promise<string> {
  const config = JSON.parse(text) as { clusters: Array<{ cluster: Record<string, unknown> }> };
  for (const { cluster } of config.clusters) cluster['proxy-url'] = proxyUrl;
  const path = join(kubeconfig, '..', 'proxied');
  await writeFile(path, JSON.stringify(config));
  return path;
}

test('through the HTTP proxy its proxy-url names, the CLI lists and watches: every request tunnels to the API server', async (t) => {
  const c = await cliCluster(t);
  c.server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'listed', namespace: 'a' } });
  const proxy = await connectProxy();
  t.teardown(() => proxy.close());
  const kubeconfig = await withProxyUrl(c.kubeconfig, c.server.kubeConfigText(), `http://127.0.0.1:${proxy.port}`);
  const cli = runCli(t, ['watch', 'configmaps', '-A', '--kubeconfig', kubeconfig]);
  await cli.waitFor('stdout', /^a\s+listed\s/m);
  c.server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched', namespace: 'a' } });
  await cli.waitFor('stdout', /^a\s+watched\s/m);
  const apiServer = new URL(c.server.url).host;
  t.true(proxy.targets.length >= 1, 'the proxy was asked for a tunnel');
  t.deepEqual([...new Set(proxy.targets)], [apiServer], 'every tunnel goes to the API server');
  t.is(c.server.requests.filter((r) => r.resource === 'configmaps').length >= 2, true, 'the list and the watch reached the server');
});

test('a SOCKS proxy-url whose port refuses connections: the CLI says it cannot connect to the proxy (the SOCKS agent loaded and tried)', async (t) => {
  const c = await cliCluster(t);
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const kubeconfig = await withProxyUrl(c.kubeconfig, c.server.kubeConfigText(), `socks5://127.0.0.1:${port}`);
  const cli = runCli(t, ['watch', 'configmaps', '-A', '--kubeconfig', kubeconfig]);
  const [line] = await cli.waitFor('stderr', new RegExp(`^.*ECONNREFUSED 127\\.0\\.0\\.1:${port}.*$`, 'm'));
  t.notRegex(cli.stderr(), /is not a constructor|Cannot find module|proxy-agents/, `a proxy failure, not a loading one: ${line}`);
  t.is(c.server.requests.filter((r) => r.resource === 'configmaps').length, 0, 'nothing reached the API server around the proxy');
});
