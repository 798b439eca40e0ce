/**
 * `npm run bench` (and `npm run bench:quick` with `--quick`): rx-informer against
 * @kubernetes/client-node, client-go and the raw parse limit, on one workload server, in one run.
 *
 * For each store size N a fresh workload server process (bench/loopback/server.ts) is seeded with N
 * ConfigMaps. Each contender then runs in its own fresh process, RUNS times, in rotating order,
 * each time twice: pinned (`taskset`: the server on CPU 0, the contender on CPU 1, so neither's
 * threads, V8's GC helpers included, compete with the other's) and unpinned (the scheduler decides).
 * Per run:
 * it lists and syncs (time to synced, heap after GC, peak RSS), then the server fires M MODIFIED
 * events back-to-back (throughput: M / (time the last one was seen − time the first was
 * written)), and at the largest N, L more at a fixed 2,000 events/s (latency from the write to the
 * callback, from a timestamp in the object). Medians go to BENCHMARKS.md, everything to
 * bench/results/bench-<time>.json. Absolute numbers are noise on shared machines; the targets are
 * ratios within this one run.
 *
 * Environment: BENCH_SIZES=1000,10000 BENCH_EVENTS=20000 BENCH_RUNS=3 BENCH_CONTENDERS=rx,floor-parse
 * BENCH_PIN=pinned|unpinned|both (default both; pinning needs 2 CPUs and `taskset`) override the defaults; BENCH_PROFILE=1 runs the Node contenders with --cpu-prof into .scratch/profiles;
 * BENCH_RX_SRC=<dir> adds contenders `rx-exp` and `rx-exp-strip`: rx-informer compiled from a patched copy of src/ in <dir>.
 * rx-informer is measured compiled (bench/core/library.ts), as users get it.
 */
import { spawn, fork, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildLibrary } from '../core/library.js';
import { buildClientGo, exited, machineInfo, goContender, lines, log, nodeContender, percentile, root, tell, type Contender } from '../core/child.js';
import type { MeasuredMessage, SyncedMessage } from '../core/protocol.js';
import { writeBenchmarks } from '../core/assemble.js';
import { renderLoopback, type Results, type Sample } from '../core/report.js';

const quick = process.argv.includes('--quick');
const env = process.env;
const sizes = (env.BENCH_SIZES ?? (quick ? '200,1000' : '1000,10000,100000')).split(',').map(Number);
const events = Number(env.BENCH_EVENTS ?? (quick ? 500 : 20_000));
const runs = Number(env.BENCH_RUNS ?? (quick ? 1 : 3));
const latencyRate = 2_000;
const latencyEvents = Number(env.BENCH_LATENCY_EVENTS ?? (quick ? 200 : 10_000));
const latencySize = Math.max(...sizes);
const profile = env.BENCH_PROFILE === '1';
/** The placements measured: pinned (server CPU 0, contender CPU 1) and unpinned. */
const canPin = cpus().length >= 2 && hasTaskset();
const placements: boolean[] = (env.BENCH_PIN ?? 'both') === 'both' ? (canPin ? [true, false] : [false]) : [env.BENCH_PIN === 'pinned'];
if (placements.includes(true) && !canPin) throw new Error('BENCH_PIN=pinned needs 2 CPUs and taskset');
if (profile) mkdirSync(join(root, '.scratch', 'profiles'), { recursive: true });

const nodeC = (id: string, label: string, file: string, ...args: string[]): Contender => nodeContender(profile, id, label, file, ...args);
const allContenders: Contender[] = [
  nodeC('rx', 'rx-informer', 'rxInformer.ts'),
  nodeC('rx-strip', 'rx-informer + stripManagedFields', 'rxInformer.ts', '--strip'),
  nodeC('client-node', '@kubernetes/client-node makeInformer', 'clientNode.ts'),
  goContender(profile, 'client-go', 'client-go SharedInformer (JSON)'),
  nodeC('floor-parse', 'floor: LIST pages + WATCH, JSON.parse, nothing kept', 'floor.ts'),
  nodeC('floor-map', 'floor: the same + Map.set by namespace/name (a cache without freezing or events)', 'floor.ts', '--map'),
  // Opt-in (named in BENCH_CONTENDERS): the streaming list; the source alone, to split rx's cost between source and pipeline.
  { ...nodeC('rx-stream', 'rx-informer, streamingList: true', 'rxInformer.ts', '--streaming'), optIn: true },
  { ...nodeC('rx-source', 'rx-informer listWatch alone (no cache)', 'rxSource.ts'), optIn: true },
  { ...nodeC('rx-fetch', "rx-informer over fetchListWatch (Node's fetch, undici)", 'rxInformer.ts', '--fetch'), optIn: true },
  { ...nodeC('floor-map-fetch', 'floor-map with the watch read as client-node reads it (undici fetch, Readable.fromWeb, readline)', 'floor.ts', '--map', '--fetch'), optIn: true },
  ...(env.BENCH_RX_SRC
    ? [
        { ...nodeC('rx-exp', `rx-informer from ${env.BENCH_RX_SRC} (experiment)`, 'rxInformer.ts'), env: { BENCH_RX_LIB: buildLibrary(env.BENCH_RX_SRC) } },
        { ...nodeC('rx-exp-strip', `rx-informer + stripManagedFields from ${env.BENCH_RX_SRC} (experiment)`, 'rxInformer.ts', '--strip'), env: { BENCH_RX_LIB: buildLibrary(env.BENCH_RX_SRC) } },
      ]
    : []),
];
// The library as users get it (tsc's output), not src/ through tsx.
log('rx-informer: the compiled build (tsc -p tsconfig.build.json, when src/ changed since dist/)');
const rxLib = buildLibrary();
const contenders = env.BENCH_CONTENDERS ? allContenders.filter((c) => env.BENCH_CONTENDERS!.split(',').includes(c.id)) : allContenders.filter((c) => !c.optIn);

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Puts every thread of `pid` on `cpus` (`'0'`, or `'0-1'` for all of them on this machine). */
function setAffinity(pid: number, cpuList: string): void {
  execFileSync('taskset', ['-a', '-cp', cpuList, String(pid)], { stdio: 'ignore' });
}
const allCpus = `0-${cpus().length - 1}`;

interface WorkloadServer {
  readonly pid: number;
  readonly kubeconfig: string;
  readonly bytesPerObject: number;
  fire(count: number, rate: number): Promise<{ firstSeq: number; lastSeq: number; first: number; last: number }>;
  readonly nextSeq: number;
  /** Resolves once no watch is open (the last contender's connection is gone). */
  idle(): Promise<void>;
  close(): void;
}

async function startServer(n: number): Promise<WorkloadServer> {
  const child = fork(join(root, 'bench', 'loopback', 'server.ts'), [], { cwd: root, execArgv: ['--import=tsx', '--max-old-space-size=8192'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Replies by type, so a late 'fired' (after a contender failed) cannot answer an 'idle'.
  const inbox: Record<string, unknown>[] = [];
  const waiters = new Map<string, (m: Record<string, unknown>) => void>();
  child.on('message', (m: Record<string, unknown>) => {
    const waiter = waiters.get(m.type as string);
    if (waiter) {
      waiters.delete(m.type as string);
      waiter(m);
    } else inbox.push(m);
  });
  const receive = <M>(type: string): Promise<M> =>
    new Promise((resolve) => {
      const i = inbox.findIndex((m) => m.type === type);
      if (i >= 0) resolve(inbox.splice(i, 1)[0] as M);
      else waiters.set(type, resolve as never);
    });
  await receive('started');
  child.send({ type: 'seed', n });
  const ready = await receive<{ kubeconfig: string; bytesPerObject: number }>('ready');
  let seq = 0;
  return {
    pid: child.pid!,
    kubeconfig: ready.kubeconfig,
    bytesPerObject: ready.bytesPerObject,
    get nextSeq() {
      return seq + 1;
    },
    async fire(count, rate) {
      child.send({ type: 'fire', count, rate });
      const fired = await receive<{ firstSeq: number; lastSeq: number; first: number; last: number }>('fired');
      seq = fired.lastSeq;
      return fired;
    },
    async idle() {
      child.send({ type: 'idle' });
      const { openWatches } = await receive<{ openWatches: number }>('idle');
      if (openWatches > 0) throw new Error(`the workload server still has ${openWatches} open watch(es)`);
    },
    close: () => void child.send({ type: 'exit' }),
  };
}

async function runContender(contender: Contender, server: WorkloadServer, n: number, run: number, pinned: boolean, warmUp = false): Promise<Sample> {
  const tag = `${contender.id}-n${n}-r${run}${pinned ? '-pinned' : ''}`;
  const [command0, args0] = contender.command(server.kubeconfig, tag);
  setAffinity(server.pid, pinned ? '0' : allCpus);
  const [command, args] = pinned ? ['taskset', ['-c', '1', command0, ...args0]] : [command0, args0];
  const child = spawn(command, args, { cwd: root, env: { ...env, BENCH_RX_LIB: rxLib, ...contender.env, BENCH_KUBECONFIG: server.kubeconfig, BENCH_TAG: tag }, stdio: ['pipe', 'pipe', 'inherit'] });
  const out = lines(child, tag);
  const measure = async (count: number, rate: number): Promise<{ fired: Awaited<ReturnType<WorkloadServer['fire']>>; measured: MeasuredMessage }> => {
    tell(child, { type: 'measure', first: server.nextSeq, last: server.nextSeq + count - 1, record: rate > 0 });
    await out.next('armed', 30_000);
    const measuredP = out.next<MeasuredMessage>('measured', 60_000 + count * 2);
    const fired = await server.fire(count, rate);
    return { fired, measured: await measuredP };
  };
  try {
    const synced = await out.next<SyncedMessage>('synced', 60_000 + n * 3);
    if (synced.count !== n) throw new Error(`${tag}: synced with ${synced.count} objects, expected ${n}`);
    const sample: Sample = {
      contender: contender.id,
      n,
      run,
      pinned,
      syncMs: synced.synced - synced.start,
      heapRetained: synced.heapAfterGC - synced.heapBaseline,
      heapAfterGC: synced.heapAfterGC,
      maxRSSAtSync: synced.maxRSS,
    };
    const tp = await measure(events, 0);
    sample.throughput = events / ((tp.measured.lastSeen - tp.fired.first) / 1000);
    sample.serverRate = events / ((tp.fired.last - tp.fired.first) / 1000);
    if (n === latencySize && !warmUp) {
      const lat = await measure(latencyEvents, latencyRate);
      const sorted = [...lat.measured.latencies].sort((a, b) => a - b);
      sample.latency = { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)! };
      if (lat.measured.instruments) log(`${tag}: its own instruments over the latency run: ${JSON.stringify(lat.measured.instruments)}; harness p95 ${percentile(sorted, 95).toFixed(3)} ms`);
    }
    sample.maxRSS = Math.max(synced.maxRSS, tp.measured.maxRSS);
    tell(child, { type: 'exit' });
    await exited(child);
    return sample;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    await server.idle();
  }
}

const started = new Date();
// The 1-minute load average, sampled through the run: a run during which it rose above 2.5 is not one to quote.
let loadMax = loadavg()[0]!;
const loadSampler = setInterval(() => (loadMax = Math.max(loadMax, loadavg()[0]!)), 5_000);
loadSampler.unref();
const results: Results = {
  command: quick ? 'npm run bench:quick' : 'npm run bench',
  startedAt: started.toISOString(),
  machine: machineInfo(),
  config: { sizes, events, runs, latencyRate, latencyEvents, latencySize, placements },
  contenders: contenders.map(({ id, label }) => ({ id, label })),
  bytesPerObject: 0,
  samples: [],
  failures: [],
};
if (contenders.some((c) => c.id === 'client-go')) results.machine.go = buildClientGo();

for (const n of sizes) {
  log(`N = ${n}: seeding the workload server`);
  const server = await startServer(n);
  results.bytesPerObject = server.bytesPerObject;
  // Warm-up, not measured: a fresh server's list and fire paths are cold (JIT), which cost the
  // first contender of run 1 up to half its throughput (e.g. rx: 34k events/s against 61–73k in
  // its other runs, server write rate 82k/s against 340k–890k/s).
  log(`N = ${n}: warm-up (floor-parse, not measured)`);
  await runContender(allContenders.find((c) => c.id === 'floor-parse')!, server, n, -1, false, true).catch((error: Error) => log(`warm-up failed: ${error.message}`));
  for (let run = 0; run < runs; run++) {
    // Rotate the order each run, so no contender always goes first (cold caches) or last.
    const order = contenders.map((_, i) => contenders[(i + run) % contenders.length]!);
    for (const pinned of run % 2 === 0 ? placements : [...placements].reverse())
    for (const contender of order) {
      const where = pinned ? 'pinned' : 'unpinned';
      try {
        const sample = await runContender(contender, server, n, run, pinned);
        results.samples.push(sample);
        log(
          `N = ${n} run ${run + 1}/${runs} ${where} ${contender.id}: sync ${sample.syncMs.toFixed(0)} ms, heap ${(sample.heapRetained / 2 ** 20).toFixed(1)} MiB, ` +
            `${sample.throughput!.toFixed(0)} events/s (server ${sample.serverRate!.toFixed(0)}/s)` +
            (sample.latency ? `, p50 ${sample.latency.p50.toFixed(2)} ms p99 ${sample.latency.p99.toFixed(2)} ms` : ''),
        );
      } catch (error) {
        results.failures.push({ contender: contender.id, n, run, pinned, error: String((error as Error).message ?? error) });
        log(`N = ${n} run ${run + 1}/${runs} ${where} ${contender.id}: FAILED ${(error as Error).message}`);
      }
    }
  }
  server.close();
}

results.finishedAt = new Date().toISOString();
results.machine.loadavgAtEnd = loadavg().map((l) => l.toFixed(2)).join(' ');
results.machine.loadavgMax = Math.max(loadMax, loadavg()[0]!).toFixed(2);
clearInterval(loadSampler);
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const stamp = started.toISOString().replace(/[:.]/g, '-');
const jsonPath = join(root, 'bench', 'results', `bench-${quick ? 'quick-' : ''}${stamp}.json`);
writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
log(`raw results: ${jsonPath}`);
const report = renderLoopback(results);
// Only a full run with the defaults rewrites BENCHMARKS.md; a quick or narrowed one prints its tables.
const narrowed = ['BENCH_SIZES', 'BENCH_EVENTS', 'BENCH_RUNS', 'BENCH_CONTENDERS', 'BENCH_PIN', 'BENCH_LATENCY_EVENTS', 'BENCH_RX_SRC'].some((name) => env[name] !== undefined);
if (quick || narrowed) process.stdout.write(report);
else log(`wrote ${writeBenchmarks('loopback', report)}`);
if (results.failures.length > 0) {
  log(`${results.failures.length} contender run(s) failed`);
  process.exitCode = 1;
}
