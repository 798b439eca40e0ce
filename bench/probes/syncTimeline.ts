/**
 * `node --expose-gc --import=tsx bench/probes/syncTimeline.ts`: the timeline of one initial sync of
 * rx-informer (compiled, default options): bytes received, list items handed on by the source
 * (parsed), items keyed and frozen into the store, synced, and the garbage collector's pauses, in
 * one process, against the loopback workload server (bench/loopback/server.ts, seeded with N = BENCH_N,
 * 100,000) or, with BENCH_KUBECONFIG, a real apiserver (`bash test/cluster/env.sh run -- env
 * BENCH_KUBECONFIG=\$KUBECONFIG node …`).
 *
 * Bytes are counted on every socket the process opens (diagnostics_channel `net.client.socket`, a
 * `'data'` listener beside the HTTP parser's); items at each LIST_PAGE event of the source, before
 * and after the store took it; GC pauses by PerformanceObserver. Prints milestones and a table per
 * tenth of the body (when the bytes reached it, items parsed and stored by then, GC pause ms so far)
 * and writes bench/results/syncTimeline-<time>.json.
 */
import { fork } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Observable } from 'rxjs';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject, RawEvent } from 'rx-informer';
import { buildLibrary, importLibrary } from '../core/library.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const N = Number(process.env.BENCH_N ?? 100_000);
const lib = await importLibrary(buildLibrary());

let kubeconfigPath = process.env.BENCH_KUBECONFIG;
let server: ReturnType<typeof fork> | undefined;
if (kubeconfigPath === undefined) {
  server = fork(join(root, 'bench', 'loopback', 'server.ts'), [], { cwd: root, execArgv: ['--import=tsx', '--max-old-space-size=8192'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  server.send({ type: 'seed', n: N });
  kubeconfigPath = await new Promise<string>((resolve) => server!.on('message', (m: { type: string; kubeconfig?: string }) => m.type === 'ready' && resolve(m.kubeconfig!)));
}
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(kubeconfigPath);

// Every sample: [ms since start, value].
const bytes: [number, number][] = [];
const parsed: [number, number][] = [];
const stored: [number, number][] = [];
const gcs: { at: number; ms: number; major: boolean }[] = [];
let t0 = 0;
const now = (): number => performance.now() - t0;
let received = 0;
diagnostics.subscribe('net.client.socket', (message) => {
  const socket = (message as { socket: Socket }).socket;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    bytes.push([now(), received]);
  });
});
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (t0 > 0 && entry.startTime >= t0) gcs.push({ at: entry.startTime - t0, ms: entry.duration, major: (entry as { detail?: { kind?: number } }).detail?.kind !== 1 });
}).observe({ entryTypes: ['gc'] });

(globalThis as { gc?: () => void }).gc?.();
const source = lib.listWatch<KubeObject>(kubeConfig, { version: 'v1', plural: 'configmaps' });
// Around the store: items handed on by the source (parsed), then taken by the store (keyed, frozen).
const timed = new Observable<RawEvent<KubeObject>>((subscriber) =>
  source.subscribe({
    next(event) {
      if (event.type === 'LIST_PAGE') parsed.push([now(), event.itemsSoFar]);
      subscriber.next(event);
      if (event.type === 'LIST_PAGE') stored.push([now(), event.itemsSoFar]);
    },
    error: (e: unknown) => subscriber.error(e),
    complete: () => subscriber.complete(),
  }),
);
const inf = lib.informer(timed);
t0 = performance.now();
const cpu0 = process.cpuUsage();
const connection = inf.connect();
const snapshot = await inf.whenSynced();
const synced = now();
const cpu = process.cpuUsage(cpu0);
const size = snapshot.size;
connection.unsubscribe();
server?.send({ type: 'exit' });
server?.kill();

const at = <T>(samples: [number, T][], t: number, none: T): T => {
  let value = none;
  for (const [time, v] of samples) if (time <= t) value = v;
  return value;
};
const gcUntil = (t: number): number => gcs.filter((g) => g.at <= t).reduce((sum, g) => sum + g.ms, 0);
const total = received;
const lines: string[] = [];
const p = (line = ''): void => void lines.push(line);
const firstByte = bytes[0]?.[0] ?? NaN;
const lastByte = bytes.at(-1)?.[0] ?? NaN;
p(`rx-informer sync of ${size.toLocaleString('en-US')} objects (${kubeconfigPath === process.env.BENCH_KUBECONFIG ? 'real apiserver' : 'loopback workload server'}), load ${loadavg()[0]!.toFixed(1)}`);
p();
p(`first byte ${firstByte.toFixed(0)} ms · last byte ${lastByte.toFixed(0)} ms · last page parsed ${(parsed.at(-1)?.[0] ?? NaN).toFixed(0)} ms · synced ${synced.toFixed(0)} ms · ${(total / 1e6).toFixed(1)} MB · CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms · GC ${gcUntil(Infinity).toFixed(0)} ms in ${gcs.length} pauses (${gcs.filter((g) => g.major).length} major/incremental, ${gcs.filter((g) => g.major).reduce((s, g) => s + g.ms, 0).toFixed(0)} ms)`);
p();
p('| bytes received | at ms | items parsed by then | items stored by then | GC pause ms by then |');
p('|---:|---:|---:|---:|---:|');
for (let tenth = 1; tenth <= 10; tenth++) {
  const sample = bytes.find(([, b]) => b >= (total * tenth) / 10);
  if (!sample) continue;
  p(`| ${tenth * 10} % | ${sample[0].toFixed(0)} | ${at(parsed, sample[0], 0).toLocaleString('en-US')} | ${at(stored, sample[0], 0).toLocaleString('en-US')} | ${gcUntil(sample[0]).toFixed(0)} |`);
}
p(`| synced | ${synced.toFixed(0)} | ${at(parsed, synced, 0).toLocaleString('en-US')} | ${size.toLocaleString('en-US')} | ${gcUntil(synced).toFixed(0)} |`);
console.log(lines.join('\n'));
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', `syncTimeline-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ N, size, synced, cpu, bytes, parsed, stored, gcs }, null, 1));
process.exit(0);
