import test from 'ava';
import { existsSync } from 'node:fs';
import { demoPod, startWebDemo } from '../../examples/web/webDemo.js';
import { until } from '../helpers/until.js';
import { chromiumPath, launchChromium } from './chromium.js';

// The web demo in a real browser: the page's informer (fetchListWatch over the browser's fetch)
// syncs from the in-process API server, then follows creates, updates and deletes, a relist after
// a 410 and a connection dropped mid-line. Every wait is for a condition in the page.

test('the page syncs, then its table follows creates, updates, deletes, a 410 relist and a dropped connection', async (t) => {
  t.true(existsSync(chromiumPath), `no Chromium at ${chromiumPath}: apt-get install chromium`);
  const started = Date.now();
  const demo = await startWebDemo({ pods: 12 });
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(demo.pageUrl);
    const row = (key: string) => page.locator(`tbody tr[data-key="${key}"]`);
    const cells = async (key: string) => (await row(key).locator('td').allTextContents()).slice(1);

    await page.waitForSelector('body[data-synced="true"][data-size="12"]');
    t.is(await page.locator('tbody tr').count(), 12);
    t.deepEqual(await cells('default/app-0'), ['default', 'app-0', 'Running', 'node-0', (await cells('default/app-0'))[4]!]);

    const server = demo.apiServer;
    server.create('pods', demoPod('fresh', 'web', 'node-3', 'Pending'));
    await page.waitForSelector('tbody tr[data-key="web/fresh"][data-change="added"]');
    t.deepEqual((await cells('web/fresh')).slice(0, 4), ['web', 'fresh', 'Pending', 'node-3']);

    server.update('pods', demoPod('fresh', 'web', 'node-3', 'Running'));
    await page.waitForFunction(() => document.querySelector('tbody tr[data-key="web/fresh"][data-change="updated"] td:nth-child(4)')?.textContent === 'Running');

    server.delete('pods', 'default', 'app-0');
    await page.waitForSelector('tbody tr[data-key="default/app-0"][data-change="deleted"]');
    await page.waitForSelector('body[data-size="12"]'); // 12 seeded + 1 created - 1 deleted

    // A 410 on the open watch: the informer relists; a pod created meanwhile arrives through it.
    const listsBefore = server.requests.filter((r) => r.verb === 'list').length;
    t.is(server.failWatches({ status: 410 }), 1);
    server.create('pods', demoPod('after-410', 'batch', 'node-1'));
    await page.waitForSelector('tbody tr[data-key="batch/after-410"]');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('watching'));
    t.true(server.requests.filter((r) => r.verb === 'list').length > listsBefore, 'the page relisted after the 410');

    // The connection dropped in the middle of an event line: the watch resumes from the last
    // resourceVersion, and follows on. (A watch dropped before its first event and within a
    // second is 'very short' and relists, R8: so this one first carries an event.)
    server.update('pods', demoPod('app-2', 'batch', 'node-2', 'Succeeded'));
    await page.waitForFunction(() => document.querySelector('tbody tr[data-key="batch/app-2"] td:nth-child(4)')?.textContent === 'Succeeded');
    const count = (verb: string) => server.requests.filter((r) => r.verb === verb).length;
    const [watchesBefore, listsBeforeDrop] = [count('watch'), count('list')];
    t.is(server.breakWatches({ reset: true }), 1);
    await until(() => count('watch') > watchesBefore && server.openWatchCount === 1, 'the page watching again');
    t.is(count('list'), listsBeforeDrop, 'resumed from the last resourceVersion, no relist');
    server.update('pods', demoPod('app-1', 'web', 'node-7', 'Failed'));
    await page.waitForFunction(() => document.querySelector('tbody tr[data-key="web/app-1"] td:nth-child(4)')?.textContent === 'Failed');
    t.deepEqual((await cells('web/app-1')).slice(0, 4), ['web', 'app-1', 'Failed', 'node-7']);
    await page.waitForSelector('body[data-size="13"]');
    t.deepEqual(pageErrors, []);
    t.log(`browser test: ${Date.now() - started} ms (Chromium start included)`);
  } finally {
    await browser.close();
    await demo.close();
  }
});
