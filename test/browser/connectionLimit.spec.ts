import test from 'ava';
import { existsSync } from 'node:fs';
import { chromiumPath, launchChromium } from './chromium.js';
import { startConsoleServers } from './consoleServer.js';

// Issue 41 item 1, in real Chromium: eight informers in one page, each over its own fetch to the
// test server on plain HTTP/1.1, as through `kubectl proxy`. Chromium opens at most six
// connections to one host and every open watch holds one, so two requests wait for a connection
// that never frees. Before, those two informers said nothing (their status stayed LISTING) until
// the 150 s idle timeout; now each reports WAITING within `waitingAfter`, with the cause and the
// remedy, and past `noResponseTimeout` an error saying the same.

test('eight informers over HTTP/1.1: the two beyond the per-host connection limit report the stall within the bound instead of staying silent', async (t) => {
  t.true(existsSync(chromiumPath), `no Chromium at ${chromiumPath}: apt-get install chromium`);
  const servers = await startConsoleServers(8);
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const waitingAfter = 1500;
    const started = Date.now();
    await page.goto(servers.pageUrl({ via: 'fetch', api: servers.apiServer.url, n: 8, waitingAfter, noResponseTimeout: 4000 }));
    // Every informer either watches or has said why it does not.
    await page.waitForFunction(
      () => {
        const items = Array.from(document.querySelectorAll('li'));
        return items.length === 8 && items.every((li) => li.dataset['status'] === 'WATCHING' || li.dataset['message'] !== undefined);
      },
      undefined,
      { timeout: 20_000 },
    );
    const reportedAfter = Date.now() - started;
    const items = await page.$$eval('li', (lis) => lis.map((li) => ({ status: li.dataset['status'], message: li.dataset['message'], synced: li.dataset['synced'] })));
    const waiting = items.filter((item) => item.message !== undefined);
    t.is(items.filter((item) => item.status === 'WATCHING' && item.message === undefined).length, 6, JSON.stringify(items));
    t.is(waiting.length, 2, JSON.stringify(items));
    for (const item of waiting) t.regex(item.message!, /no response to the (watch|list) after \d+ ms: likely queued behind the browser's per-host connection limit.*rx-informer\/relay.*HTTP\/2/);
    t.is(servers.apiServer.openWatchCount, 6, 'the server sees six watches: the other two never left the browser');
    t.true(reportedAfter < waitingAfter + 10_000, `reported after ${reportedAfter} ms`);
    // Past noResponseTimeout the waiting watches end with an error that says the same.
    const waitingWatches = waiting.filter((item) => item.message!.includes('the watch')).length;
    await page.waitForFunction(
      (count) => Array.from(document.querySelectorAll('li')).filter((li) => /no response to the watch.*per-host connection limit/.test(li.dataset['error'] ?? '')).length === count,
      waitingWatches,
      { timeout: 20_000 },
    );
    t.log(`stall reported ${reportedAfter} ms after the page opened (waitingAfter ${waitingAfter} ms)`);
  } finally {
    await browser.close();
    await servers.close();
  }
});
