/**
 * `npm run demo:web`: live pods in a browser. Starts an in-process API server with a few hundred
 * pods and some churn, and serves the page (examples/web/app.ts, an informer over fetch); open the
 * printed URL. Ctrl-C ends it. `--pods <n>` and `--rate <n>` (changes a second) as the CLI's demo.
 */
import { startWebDemo } from './webDemo.js';

const flag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`--${name} must be a non-negative integer`);
  return value;
};

const demo = await startWebDemo({ pods: flag('pods', 200), rate: flag('rate', 5), port: flag('port', 8080) });
console.log(`open ${demo.pageUrl}`);
process.once('SIGINT', () => void demo.close().then(() => process.exit(0)));
