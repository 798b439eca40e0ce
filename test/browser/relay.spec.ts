import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRelay, type RelayOptions } from '../../src/relay/index.js';
import { chromiumPath, launchChromium } from './chromium.js';
import { startConsoleServers, type ConsoleServers } from './consoleServer.js';

// Issue 41 item 2, in real Chromium: many informers in one page through rx-informer/relay, which
// the page's own server (its backend) mounts. One WebSocket from the page carries every list and
// watch; each informer stays live; the relay sends each stream with the page's token and nothing
// else, so a page cannot watch what its token cannot.

/** Mounts a relay on the page's server (the app's backend). */
function mountRelay(servers: ConsoleServers, options: Omit<RelayOptions, 'upstream'> & { upstream?: string } = {}) {
  const relay = createRelay({ upstream: servers.apiServer.url, ...options });
  servers.server.on('upgrade', (request, socket, head) => {
    if (!relay.handleUpgrade(request, socket, head)) socket.destroy();
  });
  return relay;
}

for (const n of [8, 32, 100]) {
  test.serial(`${n} informers in one page through the relay: one connection from the page, every informer live (a change reaches the DOM within 2 s)`, async (t) => {
    t.true(existsSync(chromiumPath), `no Chromium at ${chromiumPath}: apt-get install chromium`);
    const servers = await startConsoleServers(n);
    const relay = mountRelay(servers);
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const sockets: string[] = [];
      const dataRequests: string[] = [];
      page.on('websocket', (ws) => sockets.push(ws.url()));
      page.on('request', (request) => {
        if (!['document', 'script'].includes(request.resourceType())) dataRequests.push(request.url());
      });
      await page.goto(servers.pageUrl({ via: 'relay', n }));
      await page.waitForFunction(
        (count) => {
          const items = Array.from(document.querySelectorAll('li'));
          return items.length === count && items.every((li) => li.dataset['synced'] === 'true' && li.dataset['names'] === 'cm=0');
        },
        n,
        { timeout: 60_000 },
      );
      await page.waitForFunction((count) => Array.from(document.querySelectorAll('li')).filter((li) => li.dataset['status'] === 'WATCHING').length === count, n, { timeout: 30_000 });
      t.is(servers.apiServer.openWatchCount, n);

      // A change to every informer's resource at once; each must reach the DOM within 2 s.
      const changedAt = Date.now();
      for (let i = 0; i < n; i++) servers.apiServer.update('configmaps', { metadata: { name: 'cm', namespace: `ns-${i}` }, data: { v: '1' } });
      await page.waitForFunction((count) => Array.from(document.querySelectorAll('li')).filter((li) => li.dataset['names'] === 'cm=1').length === count, n, { timeout: 30_000 });
      const shownAt = await page.$$eval('li', (items) => items.map((li) => Number(li.dataset['at'])));
      const lags = shownAt.map((at) => at - changedAt).sort((a, b) => a - b);
      t.log(`${n} informers: change to DOM p50 ${lags[Math.floor(n / 2)]} ms, max ${lags.at(-1)} ms; relay ${JSON.stringify(relay.stats())}`);
      t.true(lags.at(-1)! <= 2000, `the slowest informer showed its change after ${lags.at(-1)} ms`);

      t.deepEqual(sockets.length, 1, 'one WebSocket');
      t.deepEqual(dataRequests, [], 'no other request from the page');
      t.is(relay.stats().connections, 1);
      t.is(relay.stats().streams, n, 'one open stream per watch');
      t.deepEqual(pageErrors, []);
    } finally {
      await browser.close();
      await relay.close();
      await servers.close();
    }
  });
}

test.serial('the relay never widens access: each stream carries the page\'s token, and a page cannot watch what its token cannot', async (t) => {
  t.true(existsSync(chromiumPath), `no Chromium at ${chromiumPath}: apt-get install chromium`);
  const servers = await startConsoleServers(2);
  // An API server that authorizes by token, in front of the test server: alice may read ns-0 only.
  const seenTokens: string[] = [];
  const upstream = createServer((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    seenTokens.push(token ?? '(none)');
    if (token !== 'alice-token') return void res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ kind: 'Status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' }));
    if (!req.url!.startsWith('/api/v1/namespaces/ns-0/')) {
      return void res
        .writeHead(403, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ kind: 'Status', code: 403, reason: 'Forbidden', message: `configmaps is forbidden: User "alice" cannot watch resource "configmaps" (${req.url})` }));
    }
    const target = new URL(servers.apiServer.url);
    const forward = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: 'GET', headers: { accept: req.headers.accept ?? 'application/json' } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      res.flushHeaders(); // a watch's head goes out before its first event
      answer.pipe(res);
    });
    req.on('close', () => forward.destroy());
    forward.end();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const relay = mountRelay(servers, { upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(servers.pageUrl({ via: 'relay', n: 2, token: 'alice-token' }));
    t.teardown(async () => t.log(await page.content().catch(() => '')));
    await page.waitForFunction(() => document.querySelector('li[data-i="0"]')?.getAttribute('data-status') === 'WATCHING', undefined, { timeout: 30_000 });
    await page.waitForFunction(() => /forbidden/i.test(document.querySelector('li[data-i="1"]')?.getAttribute('data-error') ?? ''), undefined, { timeout: 30_000 });
    t.is(await page.getAttribute('li[data-i="0"]', 'data-names'), 'cm=0');
    t.not(await page.getAttribute('li[data-i="1"]', 'data-synced'), 'true', 'ns-1 was never listed');
    t.is(await page.getAttribute('li[data-i="1"]', 'data-names'), null, 'no object of ns-1 reached the page');
    t.true(seenTokens.length >= 3);
    t.deepEqual([...new Set(seenTokens)], ['alice-token'], 'every upstream request carried the page\'s token, and only it');
  } finally {
    await browser.close();
    await relay.close();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    await servers.close();
  }
});

test.serial('the relay in front of kubectl proxy: the page sends no token, the proxy reaches the API server with its kubeconfig', async (t) => {
  t.true(existsSync(chromiumPath), `no Chromium at ${chromiumPath}: apt-get install chromium`);
  const kubectl = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((path) => existsSync(path));
  if (kubectl === undefined) return t.fail('no kubectl: apt-get install kubectl');
  // (kubectl sends no bearer token to a plain-http server, so this test server asks for none.)
  const servers = await startConsoleServers(3);
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-kubectl-proxy-'));
  const kubeconfig = join(dir, 'config');
  await servers.apiServer.writeKubeConfig(kubeconfig);
  const proxy = spawn(kubectl, ['proxy', '--port=0', '--address=127.0.0.1', `--kubeconfig=${kubeconfig}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let relay: ReturnType<typeof createRelay> | undefined;
  const browser = await launchChromium();
  try {
    const proxyUrl = await new Promise<string>((resolve, reject) => {
      proxy.stdout.on('data', (chunk: Buffer) => {
        const port = /Starting to serve on 127\.0\.0\.1:(\d+)/.exec(String(chunk))?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      proxy.once('exit', (code) => reject(new Error(`kubectl proxy exited with ${code}`)));
    });
    relay = mountRelay(servers, { upstream: proxyUrl });
    const page = await browser.context.newPage();
    await page.goto(servers.pageUrl({ via: 'relay', n: 3 }));
    t.teardown(async () => t.log(await page.content().catch(() => '')));
    await page.waitForFunction(() => Array.from(document.querySelectorAll('li')).filter((li) => li.dataset['status'] === 'WATCHING' && li.dataset['names'] === 'cm=0').length === 3, undefined, { timeout: 30_000 });
    servers.apiServer.update('configmaps', { metadata: { name: 'cm', namespace: 'ns-2' }, data: { v: 'via-proxy' } });
    await page.waitForFunction(() => document.querySelector('li[data-i="2"]')?.getAttribute('data-names') === 'cm=via-proxy', undefined, { timeout: 10_000 });
    t.is(servers.apiServer.openWatchCount, 3);
  } finally {
    await browser.close();
    proxy.kill();
    await relay?.close();
    await servers.close();
    await rm(dir, { recursive: true, force: true });
  }
});
