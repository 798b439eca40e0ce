/**
 * `node --import=tsx bench/core/render.ts [bench/results/<run>.json]`: regenerates that run's part
 * of BENCHMARKS.md from the saved JSON (loopback or cluster), then BENCHMARKS.md; without a file,
 * only BENCHMARKS.md from its parts (after editing a suite's hand-written RESULTS.md, say).
 */
import { readFileSync } from 'node:fs';
import { writeAssembled, writeBenchmarks } from './assemble.js';
import { renderCluster, type ClusterResults } from '../cluster/report.js';
import { renderLoopback, type Results } from './report.js';

const file = process.argv[2];
if (file === undefined) writeAssembled();
else {
  const results = JSON.parse(readFileSync(file, 'utf8')) as Results | ClusterResults;
  if ('kind' in results && results.kind === 'cluster') writeBenchmarks('cluster', renderCluster(results));
  else writeBenchmarks('loopback', renderLoopback(results as Results));
}
