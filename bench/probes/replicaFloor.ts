/**
 * `node --import=tsx bench/probes/replicaFloor.ts`: what a replica's heap is made of before any object,
 * and what each object adds — the fixed part that sharding cannot divide. Each stage is a fresh
 * process (heap after a full GC, RSS), RUNS times (default 3) in rotated order:
 *
 * - `node`: bare Node; `node + client-node`: `import('@kubernetes/client-node')`;
 * - `tsx`, `tsx + client-node`, `tsx + library` (bench/probes/replicaFloorStage.ts): the TypeScript loader
 *   the benchmark replicas run under, then what they import;
 * - `replica …` (bench/sharding/shardingReplica.ts, as bench:sharding runs it) against an in-process
 *   test API server holding OBJECTS ConfigMaps of ~1.2 KB (default 0 and 20,000), unsharded and as
 *   the only member of a server-side ring (which also watches its ring's Leases).
 *
 * - `replica built …`: the same replica bundled by esbuild as the CLI is (bundleNodeProgram:
 *   client-node tree-shaken, no TypeScript loader).
 *
 * The library is the compiled build (bench/core/library.ts) in every stage and replica. Figures in
 * bench/NOTES.md from before 2026-12-08 had the library inside the replica's bundle (and, under
 * tsx, from src/).
 *
 * REPLICAS=0 leaves the replicas out (the import stages alone take little CPU). Prints a Markdown
 * table (median and range of heap and RSS, MiB) and asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleNodeProgram } from '../../packages/cli/bundleCli.js';
import { createTestApiServer } from '../../src/testServer/createTestApiServer.js';
import { buildLibrary } from '../core/library.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const runs = Number(process.env.RUNS ?? 3);
const sizes = (process.env.OBJECTS ?? '0,20000').split(',').map(Number);
const node = process.execPath;
const scratch = mkdtempSync(join(tmpdir(), 'replica-floor-'));
// The replica's code and client-node as one esbuild bundle (tree-shaken, no TypeScript loader).
const built = join(root, '.bench-build', 'replica');
// The library under test, compiled once; every stage and replica loads that build (BENCH_RX_LIB).
process.env.BENCH_RX_LIB ??= buildLibrary();
if (process.env.REPLICAS !== '0') await bundleNodeProgram({ shardingReplica: 'bench/sharding/shardingReplica.ts' }, built, root);

interface Memory { readonly heapUsed: number; readonly rss: number }

/** Runs `args` until it prints a JSON line with heapUsed (or, for a replica, until `memory` after SIGUSR2 once settled). */
function stage(args: readonly string[], env: Record<string, string> = {}, replica?: { readonly expected: number }): Promise<Memory> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--expose-gc', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let buffer = '';
    let asked = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = JSON.parse(buffer.slice(0, nl)) as { event?: string; distinct?: number; heapUsed?: number; rss?: number; message?: string };
        buffer = buffer.slice(nl + 1);
        if (line.event === 'error') reject(new Error(line.message));
        if (replica && line.event === 'progress' && !asked && (line.distinct ?? 0) >= replica.expected) {
          asked = true;
          // Settled (its first progress line says its signal handlers are in): a moment for the
          // watch to open, then the reading.
          setTimeout(() => child.kill('SIGUSR2'), 1_000);
        }
        if (line.heapUsed !== undefined && (!replica || line.event === 'memory')) {
          resolve({ heapUsed: line.heapUsed, rss: line.rss! });
          child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
  });
}

const results = new Map<string, Memory[]>();
const add = (name: string, m: Memory): void => void results.set(name, [...(results.get(name) ?? []), m]);

for (const objects of sizes) {
  const server = await createTestApiServer();
  server.seed('configmaps', Array.from({ length: objects }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'bench', labels: { app: 'bench' } }, data: { payload: 'x'.repeat(1_000), index: String(i) } })));
  const kubeconfig = join(scratch, `kubeconfig-${objects}`);
  writeFileSync(kubeconfig, server.kubeConfigText());
  const replica = (mode: string, bundled = false) => (): Promise<Memory> =>
    stage(bundled ? [join(built, 'shardingReplica.js')] : ['--import=tsx', 'bench/sharding/shardingReplica.ts'], { KUBECONFIG: kubeconfig, MODE: mode, NS: 'bench', RING: `floor-${mode}`, NAME: mode, OUT: join(scratch, mode), LEASE_MS: '2000', RENEW_MS: '1500', RETRY_MS: '250' }, { expected: objects });
  const stages: Array<[string, () => Promise<Memory>]> = [
    ...(objects === sizes[0]
      ? ([
          ['node', () => stage(['-e', 'gc(); const { heapUsed, rss } = process.memoryUsage(); console.log(JSON.stringify({ heapUsed, rss }))'])],
          ['node + client-node', () => stage(['--input-type=module', '-e', "await import('@kubernetes/client-node'); gc(); const { heapUsed, rss } = process.memoryUsage(); console.log(JSON.stringify({ heapUsed, rss }))"])],
          ['tsx', () => stage(['--import=tsx', 'bench/probes/replicaFloorStage.ts'], { STAGE: 'empty' })],
          ['tsx + client-node', () => stage(['--import=tsx', 'bench/probes/replicaFloorStage.ts'], { STAGE: 'client-node' })],
          ['tsx + library', () => stage(['--import=tsx', 'bench/probes/replicaFloorStage.ts'], { STAGE: 'library' })],
        ] as Array<[string, () => Promise<Memory>]>)
      : []),
    ...(process.env.REPLICAS === '0'
      ? []
      : ([
          [`replica, unsharded, ${objects} objects`, replica('unsharded')],
          [`replica, server ×1, ${objects} objects`, replica('server')],
          [`replica built (esbuild), unsharded, ${objects} objects`, replica('unsharded', true)],
          [`replica built (esbuild), server ×1, ${objects} objects`, replica('server', true)],
        ] as Array<[string, () => Promise<Memory>]>)),
  ];
  for (let run = 0; run < runs; run++) {
    for (let i = 0; i < stages.length; i++) {
      const [name, measure] = stages[(i + run) % stages.length]!;
      add(name, await measure());
      console.error(`[replicaFloor] ${name}: ${JSON.stringify(results.get(name)!.at(-1))}`);
    }
  }
  await server.close();
}

const mib = (bytes: number): number => bytes / 2 ** 20;
const summary = (values: number[]): string => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${mib(sorted[Math.floor(sorted.length / 2)]!).toFixed(1)} (${mib(sorted[0]!).toFixed(1)}–${mib(sorted[sorted.length - 1]!).toFixed(1)})`;
};
console.log(`load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${runs} runs each\n`);
console.log('| stage | heap after GC, MiB: median (range) | RSS, MiB: median (range) |\n|---|---|---|');
for (const [name, list] of results) console.log(`| ${name} | ${summary(list.map((m) => m.heapUsed))} | ${summary(list.map((m) => m.rss))} |`);
process.exit(0);
