/**
 * BENCHMARKS.md is put together from the suites' parts, so that each benchmark regenerates only its
 * own: bench/results/cluster.md (`npm run bench:cluster`, the real control plane),
 * bench/results/controller.md (`npm run bench:controller`, controllers on the real control plane)
 * and bench/results/loopback.md (`npm run bench`, the test API server) are generated; beside them
 * each other suite's latest table and verdicts are written by hand in its room
 * (bench/controller/VERDICTS.md, bench/sharding/RESULTS.md, bench/cli/RESULTS.md,
 * bench/micro/RESULTS.md, bench/fleet/RESULTS.md, bench/browser/RESULTS.md, bench/probes/README.md). The rounds' reasoning stays in bench/NOTES.md,
 * which BENCHMARKS.md links to and does not include.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The generated parts. */
export type Part = 'cluster' | 'controller' | 'loopback';

/** Where each generated part lives. */
export const partPath = (part: Part): string => join(root, 'bench', 'results', `${part}.md`);

/** The parts of BENCHMARKS.md in their order: generated ones by name, hand-written ones by path under bench/. */
export const benchmarkParts: readonly (Part | `${string}.md`)[] = ['cluster', 'controller', 'controller/VERDICTS.md', 'loopback', 'sharding/RESULTS.md', 'cli/RESULTS.md', 'micro/RESULTS.md', 'fleet/RESULTS.md', 'browser/RESULTS.md', 'probes/README.md'];

const header = `# Benchmarks

rx-informer against its peers, every target a ratio measured in the same run. One section per
suite: the command, what it measures, its latest table and the verdicts on its targets. How the
figures were reached, round by round (profiles, changes measured as they landed, what was tried and
dropped), is in [bench/NOTES.md](bench/NOTES.md); what the library survives over time under faults
(the chaos soak, \`npm run soak:cluster\`) is in [RELIABILITY.md](RELIABILITY.md).

| suite | command | measures |
|---|---|---|
| [Real kube-apiserver + etcd](#real-kube-apiserver--etcd) | \`npm run bench:cluster\` | informers' sync, memory, CPU per event and latency against client-node and client-go |
| [Controllers](#controllers-rx-informer-against-controller-runtime-real-kube-apiserver--etcd) | \`npm run bench:controller\` | a backlog, a fresh change during it, failover, against controller-runtime |
| [Loopback](#loopback-the-test-api-server) | \`npm run bench\` (\`bench:quick\` in CI) | the same informer figures against the test API server, pinned and unpinned |
| [Sharding](#sharding) | \`npm run bench:ring\`, \`bench:ranges\`, \`bench:sharding\` | the ring's balance, the hash space's split, replicas as processes |
| [CLI start-up](#cli-start-up-against-kubectl-npm-run-benchcli) | \`npm run bench:cli\` | time to the first screen against kubectl |
| [In one process](#in-one-process-the-store-the-work-queue-the-memory-estimate) | \`npm run bench:store\`, \`bench:reconcile\`, \`bench:memory\` | the store, the work queue, the memory estimate |
| [Fleets](#fleets-what-an-engaged-cluster-costs-npm-run-benchfleet) | \`npm run bench:fleet\` | the heap per engaged cluster, engage and release, in one process |
| [Browser](#browser-a-tab-that-holds-a-big-cluster-npm-run-benchbrowser) | \`npm run bench:browser\` | a tab holding 30,000 pods and 1,300 nodes through the relay |
| [Probes](#probes) | \`node --import=tsx bench/probes/<probe>.ts\` | one-shot investigations behind bench/NOTES.md |

Every suite measures the library compiled as it is published (dist/, built by
bench/core/library.ts), not its sources under a TypeScript loader.
`;

/** BENCHMARKS.md from its parts as they are now. */
export function assembleBenchmarks(): string {
  const read = (path: string): string => (existsSync(path) ? `${readFileSync(path, 'utf8').trim()}\n\n` : '');
  const parts = benchmarkParts.map((part) => read(part.endsWith('.md') ? join(root, 'bench', part) : partPath(part as Part)));
  return `${header}\n${parts.join('')}`.replace(/\n+$/, '\n');
}

/** Writes BENCHMARKS.md from its parts; returns its path. */
export function writeAssembled(): string {
  const path = join(root, 'BENCHMARKS.md');
  writeFileSync(path, assembleBenchmarks());
  return path;
}

/** Writes one generated part, then BENCHMARKS.md from all of them. */
export function writeBenchmarks(part: Part, text: string): string {
  writeFileSync(partPath(part), text);
  return writeAssembled();
}
