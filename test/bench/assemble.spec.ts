/** BENCHMARKS.md is what bench/core/assemble.ts makes of the suites' parts, and every part it names exists. */
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { assembleBenchmarks, benchmarkParts, partPath, type Part } from '../../bench/core/assemble.js';

test('BENCHMARKS.md is assembled from the suites\' parts (run `node --import=tsx bench/core/render.ts` after editing one)', (t) => {
  const missing = benchmarkParts.filter((part) => !existsSync(part.endsWith('.md') ? new URL(`../../bench/${part}`, import.meta.url) : partPath(part as Part)));
  t.deepEqual(missing, []);
  t.is(readFileSync(new URL('../../BENCHMARKS.md', import.meta.url), 'utf8'), assembleBenchmarks());
});

test('each suite\'s section says its command', (t) => {
  const text = assembleBenchmarks();
  for (const command of ['npm run bench:cluster', 'npm run bench:controller', 'npm run bench\n', 'npm run bench:ring', 'npm run bench:ranges', 'npm run bench:sharding', 'npm run bench:cli', 'npm run bench:store', 'npm run bench:reconcile', 'npm run bench:memory']) {
    t.true(text.includes(command), command);
  }
});
