/**
 * `npm run screenshot:web`: makes docs/web-demo.png, the README's picture of the web demo, from a
 * real run: the demo's servers with churn (examples/web/webDemo.ts), the page in Debian's headless
 * Chromium (playwright-core, no browser download), captured once the table shows an added and a
 * deleted row among the pods. `npm run screenshot:web -- <path>` writes elsewhere.
 */
import { fileURLToPath } from 'node:url';
import { startWebDemo } from '../examples/web/webDemo.js';
import { launchChromium } from '../test/browser/chromium.js';

const output = process.argv[2] ?? fileURLToPath(new URL('../docs/web-demo.png', import.meta.url));
const demo = await startWebDemo({ pods: 200, rate: 8 });
const browser = await launchChromium();
try {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 900, height: 760 });
  await page.goto(demo.pageUrl);
  await page.waitForSelector('body[data-synced="true"]');
  await page.waitForSelector('tbody tr[data-change="added"]', { timeout: 60_000 });
  await page.waitForSelector('tbody tr[data-change="deleted"]', { timeout: 60_000 });
  await page.screenshot({ path: output });
  console.log(`wrote ${output}`);
} finally {
  await browser.close();
  await demo.close();
}
