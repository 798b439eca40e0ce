/**
 * The controller part of BENCHMARKS.md (bench/results/controller.md), rendered from every
 * bench/results/controller-*.json that `npm run bench:controller` wrote: per figure, the median of
 * each contender with its range, and the ratio rx / controller-runtime taken within each round
 * (same cluster, same load, adjacent processes), median and range.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeBenchmarks } from '../core/assemble.js';

/** One measurement: one contender, one part and variant, one round. */
export interface ControllerSample {
  readonly part: string;
  readonly variant: string;
  readonly contender: string;
  readonly n: number;
  readonly round: number;
  /** The 1-minute load average when the contender started. */
  readonly load1: number;
  readonly figures: Record<string, number>;
}

/** What one invocation writes. */
export interface ControllerResults {
  readonly kind: 'controller';
  readonly command: string;
  readonly env: Record<string, string>;
  readonly startedAt: string;
  finishedAt?: string;
  readonly machine: Record<string, string>;
  readonly config: Record<string, unknown>;
  readonly contenders: { id: string; label: string }[];
  readonly loads: { from: number; to: number; createsPerSecond: number }[];
  readonly samples: ControllerSample[];
  readonly failures: (Omit<ControllerSample, 'figures' | 'load1'> & { error: string })[];
  loadMax?: number;
  loadavgAtEnd?: string;
}

/** The result files of `npm run bench:controller` in `dir`, oldest first. */
export const resultFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => /^controller-.*\.json$/.test(f))
    .sort()
    .map((f) => join(dir, f));

/** The figures shown, per part: [figure, heading]. */
const shown: Record<string, [string, string][]> = {
  backlog: [
    ['allMs', 'start → every object reconciled once, ms'],
    ['cpuUsPerReconcile', 'CPU per reconcile, µs (process CPU over that span / reconciles)'],
  ],
  fresh: [
    ['freshMs', 'change → its reconcile, ms'],
    ['drainMs', 'backlog drain (first → last reconcile), ms'],
    ['freshPctOfDrain', 'change → its reconcile, % of the drain'],
  ],
  failover: [
    ['killToFreshMs', 'leader killed → change reconciled by the new leader, ms'],
    ['leaderToFreshMs', 'new leader elected → change reconciled, ms'],
    ['leaderToFirstMs', 'new leader elected → first reconcile, ms'],
  ],
};

const median = (values: readonly number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const num = (v: number): string => (Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en') : v.toFixed(Math.abs(v) >= 10 ? 1 : 2));
const spread = (values: readonly number[], f: (v: number) => string): string =>
  values.length === 0 ? '—' : values.length === 1 ? f(values[0]!) : `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;

/** Renders controller.md from every result file in `dir` and rewrites BENCHMARKS.md; returns its path. */
export function renderControllerBench(dir: string): string {
  const runs = resultFiles(dir).map((f) => JSON.parse(readFileSync(f, 'utf8')) as ControllerResults);
  const lines: string[] = [];
  const p = (line = ''): void => void lines.push(line);
  p('## Controllers: rx-informer against controller-runtime (real kube-apiserver + etcd)');
  p();
  p('```sh');
  p('npm run bench:controller   # one round at 10,000 and 100,000; BENCH_SIZES=10000 BENCH_ROUNDS=3 for rounds at 10,000 only');
  p('```');
  p();
  const last = runs.at(-1);
  if (!last) return writeBenchmarks('controller', `${lines.join('\n')}\nNo results yet.\n`);
  p(
    `kube-apiserver ${last.machine.apiserver} + etcd ${last.machine.etcd} on 127.0.0.1 (test/cluster/env.sh), contenders on the same machine: ${last.machine.cpus}, ${last.machine.memory}, Node ${last.machine.node}, ${last.machine.go}. ` +
      'ConfigMaps of ~1.5 KB in 50 namespaces, loaded once per cluster start through the apiserver and shared by every contender; each contender in a fresh process, the order rotated by round.',
  );
  p();
  for (const c of last.contenders) p(`- **${c.id}**: ${c.label}`);
  p();
  p('Invocations (each one cluster start; load average 1/5/15 min at start and end, highest 1-minute value sampled):');
  p();
  for (const r of runs) {
    const rounds = new Set(r.samples.map((s) => `${s.n}:${s.round}`));
    p(
      `- ${r.startedAt} → ${r.finishedAt ?? '?'}: N = ${(r.config.sizes as number[]).map((n) => n.toLocaleString('en')).join(', ')}, ${rounds.size} round(s) over the sizes, ` +
        `load ${r.machine.loadavgAtStart} → ${r.loadavgAtEnd ?? '?'}, max ${r.loadMax?.toFixed(2) ?? '?'}; loaded at ${r.loads.map((l) => `${Math.round(l.createsPerSecond)}`).join(', ')} creates/s` +
        (r.failures.length ? `; **${r.failures.length} failed**: ${r.failures.map((f) => `${f.contender} ${f.part} ${f.variant} N=${f.n}: ${f.error.slice(0, 120)}`).join('; ')}` : ''),
    );
  }
  p();
  p(
    'How: `backlog`: a no-op controller (it reads its object from its cache and returns) started over N objects. ' +
      '`fresh`: each reconcile sleeps COST ms (the same `sleep` in both; 2 ms at 10,000, 1 ms at 100,000), concurrency 1 (both defaults), ' +
      'and once N/10 objects have been reconciled the object listed last is changed; with the priority queue on and off (`UsePriorityQueue`; rx `priority`). ' +
      '`failover` at 10,000: two replicas under leader election (2 s lease, 1.5 s renew deadline, 0.5 s retry); the leader is killed with SIGKILL once the follower stands by, ' +
      'and the object listed last is changed at once; with warm replicas on and off (`EnableWarmup`; rx `warmReplicas`). ' +
      'Cells: median (min–max) over rounds; the ratio rx / controller-runtime is taken within each round, then its median (min–max). Below 1 favours rx.',
  );
  p();
  const samples = runs.flatMap((r, file) => r.samples.map((s) => ({ ...s, file })));
  const groups = [...new Set(samples.map((s) => `${s.part}|${s.variant}|${s.n}`))];
  p('| part | variant | N | figure | rx | controller-runtime | rx / controller-runtime | rounds |');
  p('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const g of groups) {
    const [part, variant, n] = g.split('|') as [string, string, string];
    const of = samples.filter((s) => `${s.part}|${s.variant}|${s.n}` === g);
    for (const [figure, heading] of shown[part] ?? []) {
      const values = (id: string): number[] => of.filter((s) => s.contender === id && s.figures[figure] !== undefined).map((s) => s.figures[figure]!);
      const ratios = of
        .filter((s) => s.contender === 'rx')
        .flatMap((s) => {
          const other = of.find((o) => o.contender === 'controller-runtime' && o.file === s.file && o.round === s.round);
          const a = s.figures[figure];
          const b = other?.figures[figure];
          return a !== undefined && b !== undefined && b > 0 ? [a / b] : [];
        });
      p(`| ${part} | ${variant} | ${Number(n).toLocaleString('en')} | ${heading} | ${spread(values('rx'), num)} | ${spread(values('controller-runtime'), num)} | ${spread(ratios, (v) => `${v.toFixed(2)}×`)} | ${ratios.length} |`);
    }
  }
  p();
  p('Every sample (load: 1-minute load average when the contender started):');
  p();
  p('| invocation | round | N | part | variant | contender | load | figures |');
  p('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const s of samples) {
    const figures = Object.entries(s.figures)
      .map(([k, v]) => `${k} ${num(v)}`)
      .join(', ');
    p(`| ${runs[s.file]!.startedAt.slice(0, 16)} | ${s.round} | ${s.n.toLocaleString('en')} | ${s.part} | ${s.variant} | ${s.contender} | ${s.load1.toFixed(2)} | ${figures} |`);
  }
  return writeBenchmarks('controller', `${lines.join('\n')}\n`);
}
