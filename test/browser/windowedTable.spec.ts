import test from 'ava';
import { existsSync } from 'node:fs';
import { rowWindow } from '../../examples/web/rowWindow.js';
import { chromiumPath, launchChromium } from './chromium.js';
import { startConsoleServers } from './consoleServer.js';

// Issue 41 item 3: a table over a big snapshot keeps only the rows in view in the DOM, redraws at
// most ten times a second, and follows changes and scrolling (examples/web/windowedTable.ts).

test('rowWindow: the rows in view and the overscan around them, clamped to the table', (t) => {
  t.deepEqual(rowWindow(1000, 0, 240, 24, 5), { first: 0, end: 15, offset: 0, height: 24_000 });
  t.deepEqual(rowWindow(1000, 2400, 240, 24, 5), { first: 95, end: 115, offset: 2280, height: 24_000 });
  t.deepEqual(rowWindow(12, 2400, 240, 24, 5), { first: 12, end: 12, offset: 288, height: 288 });
  t.deepEqual(rowWindow(0, 0, 240, 24), { first: 0, end: 0, offset: 0, height: 0 });
});

test('a windowed table over 5,000 objects holds a few dozen rows, follows a change in view and scrolls to the last key', async (t) => {
  t.true(existsSync(chromiumPath), `no Chromium at ${chromiumPath}: apt-get install chromium`);
  const servers = await startConsoleServers(0);
  for (let i = 0; i < 5000; i++) servers.apiServer.create('configmaps', { metadata: { name: `cm-${String(i).padStart(5, '0')}`, namespace: 'big' }, data: { v: '0' } });
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(servers.pageUrl({ view: 'table', api: servers.apiServer.url }));
    await page.waitForSelector('#table[data-size="5000"] tr[data-key="big/cm-00000"]', { timeout: 30_000 });
    const rows = await page.locator('#table tr').count();
    t.true(rows > 10 && rows < 60, `${rows} rows in the DOM for 5,000 objects`);
    servers.apiServer.update('configmaps', { metadata: { name: 'cm-00003', namespace: 'big' }, data: { v: 'changed' } });
    await page.waitForFunction(() => document.querySelector('#table tr[data-key="big/cm-00003"] td:nth-child(2)')?.textContent === 'changed', undefined, { timeout: 10_000 });
    await page.locator('#table').evaluate((viewport) => viewport.scrollTo(0, viewport.scrollHeight));
    await page.waitForSelector('#table tr[data-key="big/cm-04999"]', { timeout: 10_000 });
    t.true((await page.locator('#table tr').count()) < 60);
    t.is(await page.locator('#table tr[data-key="big/cm-00000"]').count(), 0, 'the first rows left the DOM');
  } finally {
    await browser.close();
    await servers.close();
  }
});
