/**
 * Renders the loopback part of BENCHMARKS.md from one `npm run bench` run: medians per contender,
 * size and placement (pinned / unpinned), then every target as a same-run ratio, for both.
 */

export interface Sample {
  contender: string;
  n: number;
  run: number;
  /** Server on CPU 0 and contender on CPU 1 (`taskset`), or wherever the scheduler put them. */
  pinned: boolean;
  syncMs: number;
  heapRetained: number;
  heapAfterGC: number;
  maxRSSAtSync: number;
  maxRSS?: number;
  throughput?: number;
  serverRate?: number;
  latency?: { count: number; p50: number; p99: number; max: number };
}

export interface Results {
  command: string;
  startedAt: string;
  finishedAt?: string;
  machine: { cpus: string; memory: string; node: string; go: string; loadavgAtStart: string; loadavgAtEnd?: string; loadavgMax?: string };
  config: { sizes: number[]; events: number; runs: number; latencyRate: number; latencyEvents: number; latencySize: number; placements: boolean[] };
  contenders: { id: string; label: string }[];
  bytesPerObject: number;
  samples: Sample[];
  failures: { contender: string; n: number; run: number; pinned: boolean; error: string }[];
}

/** The median of `values`, or undefined when there are none. */
export const median = (values: readonly number[]): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** `a / b`, undefined when either is missing or b is 0. */
export function div(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined || b === 0 ? undefined : a / b;
}

/** A number with thousands separators, `—` when missing. */
export const fmt = (v: number | undefined, digits = 0): string =>
  v === undefined || Number.isNaN(v) ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Bytes as MiB with one decimal. */
export const mib = (v: number | undefined): string => (v === undefined ? '—' : (v / 2 ** 20).toFixed(1));

/** A ratio as `0.61×`. */
export const times = (v: number | undefined): string => (v === undefined ? '—' : `${v.toFixed(2)}×`);

/** One target: how to compute its value in a placement, and when it is met. */
export interface Target {
  readonly name: string;
  readonly value: (pinned: boolean) => number | undefined;
  readonly ok: (value: number) => boolean;
  readonly unit?: 'ms';
}

/** The rows of a target table: the value pinned and unpinned, met only when met in both. */
export function targetRows(targets: readonly Target[], placements: readonly boolean[]): string[] {
  const show = (t: Target, v: number | undefined): string => (v === undefined ? '—' : t.unit === 'ms' ? `${v.toFixed(2)} ms` : times(v));
  return targets.map((t) => {
    const values = placements.map((pinned) => t.value(pinned));
    const verdict = values.some((v) => v === undefined) ? 'not measured' : values.every((v) => t.ok(v!)) ? 'met' : values.some((v) => t.ok(v!)) ? `**met ${placements[values.findIndex((v) => t.ok(v!))] ? 'pinned' : 'unpinned'} only**` : '**not met**';
    return `| ${t.name} | ${values.map((v) => show(t, v)).join(' | ')} | ${verdict} |`;
  });
}

/** The loopback section of BENCHMARKS.md. */
export function renderLoopback(results: Results): string {
  const { config, contenders } = results;
  const placements = config.placements ?? [false];
  const med = (id: string, n: number, pinned: boolean, pick: (s: Sample) => number | undefined): number | undefined =>
    median(results.samples.filter((s) => s.contender === id && s.n === n && (s.pinned ?? false) === pinned).map(pick).filter((v): v is number => v !== undefined));
  // "a / b" for the placements measured, pinned first.
  const both = (show: (pinned: boolean) => string): string => placements.map(show).join(' / ');
  const where = placements.map((p) => (p ? 'pinned' : 'unpinned')).join(' / ');
  const has = (id: string): boolean => contenders.some((c) => c.id === id);
  const out: string[] = [];
  const p = (line = ''): void => void out.push(line);
  const nMax = config.latencySize;
  const n1 = Math.min(...config.sizes);

  p('## Loopback: the test API server');
  p();
  p('```sh');
  p(results.command);
  p('```');
  p();
  p(`Machine: ${results.machine.cpus}, ${results.machine.memory}, Node ${results.machine.node}${results.machine.go ? `, ${results.machine.go}` : ''}.`);
  p(
    `Load average (1, 5, 15 min) at start ${results.machine.loadavgAtStart}, at end ${results.machine.loadavgAtEnd ?? '?'}; highest 1-minute value sampled during the run ${results.machine.loadavgMax ?? '?'}. ` +
      `Run ${results.startedAt} → ${results.finishedAt ?? '?'}; ${config.runs} fresh process(es) per contender, size and placement, rotating order; medians.`,
  );
  p();
  p(
    `Placements: **pinned** = the server on CPU 0 and the contender on CPU 1 (\`taskset\`; V8's GC helper threads stay on the contender's core); **unpinned** = wherever the scheduler puts them. ` +
      `Every figure below is "${where}".`,
  );
  p();
  p(
    `Workload: the rx-informer test API server in its own process, N ConfigMaps of ~${results.bytesPerObject} bytes of JSON ` +
      `(6 labels, 3 annotations, one managedFields entry, 3 data keys) in 50 namespaces; LIST bodies and watch events streamed as they are serialised; LIST pages of 500 where the client pages; ` +
      `then M = ${fmt(config.events)} MODIFIED events (an object with its two benchmark annotations and resourceVersion changed, round-robin over the N objects; ` +
      `built before the clock starts and written straight onto the open watch, so the server is not the bottleneck) written back-to-back; ` +
      `at N = ${fmt(nMax)}, ${fmt(config.latencyEvents)} more at ${fmt(config.latencyRate)} events/s.`,
  );
  p();
  for (const c of contenders) p(`- **${c.id}**: ${c.label}`);
  p();

  p('### Initial sync');
  p();
  p(`Time from the first request to "synced" (the cache holds the whole list); heap retained = heap used after GC once synced minus before listing (Go: HeapAlloc); peak RSS at sync. ${where}.`);
  p();
  p(`| contender | ${config.sizes.map((n) => `N = ${fmt(n)} sync ms`).join(' | ')} | heap MiB at ${fmt(nMax)} | peak RSS MiB at ${fmt(nMax)} |`);
  p(`|---|${config.sizes.map(() => '---:').join('|')}|---:|---:|`);
  for (const c of contenders) {
    const sizes = config.sizes.map((n) => both((pin) => fmt(med(c.id, n, pin, (s) => s.syncMs)))).join(' | ');
    p(`| ${c.id} | ${sizes} | ${both((pin) => mib(med(c.id, nMax, pin, (s) => s.heapRetained)))} | ${both((pin) => mib(med(c.id, nMax, pin, (s) => s.maxRSSAtSync)))} |`);
  }
  p();
  const perObject = contenders.filter((c) => !c.id.startsWith('floor-parse')).map((c) => `${c.id} ${both((pin) => fmt((med(c.id, nMax, pin, (s) => s.heapRetained) ?? NaN) / nMax))} B`);
  p(`Heap retained per object at N = ${fmt(nMax)}: ${perObject.join(', ')}.`);
  p();

  p('### Throughput');
  p();
  p(
    `${fmt(config.events)} MODIFIED events written back-to-back; events/s = M / (time the last event was visible in the cache/callback − time the first was written). ` +
      `"server" is how fast the server wrote them in the same run (the ceiling every contender shares). ${where}.`,
  );
  p();
  p(`| contender | ${config.sizes.map((n) => `N = ${fmt(n)} events/s`).join(' | ')} | vs floor-parse at ${fmt(nMax)} | vs floor-map at ${fmt(nMax)} |`);
  p(`|---|${config.sizes.map(() => '---:').join('|')}|---:|---:|`);
  const tp = (id: string, pinned: boolean, n = nMax): number | undefined => med(id, n, pinned, (s) => s.throughput);
  for (const c of contenders) {
    p(
      `| ${c.id} | ${config.sizes.map((n) => both((pin) => fmt(tp(c.id, pin, n)))).join(' | ')} | ${both((pin) => times(div(tp(c.id, pin), tp('floor-parse', pin))))} | ${both((pin) =>
        times(div(tp(c.id, pin), tp('floor-map', pin))),
      )} |`,
    );
  }
  const serverRate = (n: number, pinned: boolean): number | undefined =>
    median(results.samples.filter((s) => s.n === n && (s.pinned ?? false) === pinned && s.serverRate).map((s) => s.serverRate!));
  p(`| (server write rate) | ${config.sizes.map((n) => both((pin) => fmt(serverRate(n, pin)))).join(' | ')} | | |`);
  p();

  p('### Latency');
  p();
  p(
    `${fmt(config.latencyEvents)} MODIFIED events at ${fmt(config.latencyRate)} events/s with N = ${fmt(nMax)} cached; latency from the server's write (a timestamp in an annotation) ` +
      `to the event being visible in the cache/callback, same machine clock. Median over runs of each run's percentile. ${where}.`,
  );
  p();
  p('| contender | p50 ms | p99 ms | max ms |');
  p('|---|---:|---:|---:|');
  const lat = (id: string, pinned: boolean, pick: 'p50' | 'p99' | 'max'): number | undefined => med(id, nMax, pinned, (s) => s.latency?.[pick]);
  for (const c of contenders) p(`| ${c.id} | ${(['p50', 'p99', 'max'] as const).map((k) => both((pin) => fmt(lat(c.id, pin, k), 2))).join(' | ')} |`);
  p();

  p(`### Targets (issue 17, loopback), same-run ratios at N = ${fmt(nMax)}`);
  p();
  if (results.command.includes('quick')) {
    p('(bench:quick: small N and few events, to keep the harness running; these verdicts mean nothing.)');
    p();
  }
  const sync = (id: string, pin: boolean) => med(id, nMax, pin, (s) => s.syncMs);
  const heap = (id: string, pin: boolean) => med(id, nMax, pin, (s) => s.heapRetained);
  const rss = (id: string, pin: boolean) => med(id, nMax, pin, (s) => s.maxRSSAtSync);
  const p99 = (id: string, pin: boolean) => lat(id, pin, 'p99');
  const targets: Target[] = [
    { name: 'throughput: rx ≥ 1.0× client-node', value: (pin) => div(tp('rx', pin), tp('client-node', pin)), ok: (v) => v >= 1 },
    { name: 'throughput: rx-strip ≥ 1.3× client-node', value: (pin) => div(tp('rx-strip', pin), tp('client-node', pin)), ok: (v) => v >= 1.3 },
    { name: 'throughput: rx-strip ≥ 0.8× floor-map (parse + Map.set)', value: (pin) => div(tp('rx-strip', pin), tp('floor-map', pin)), ok: (v) => v >= 0.8 },
    { name: `throughput: rx at ${fmt(nMax)} ≥ 0.9× rx at ${fmt(n1)}`, value: (pin) => div(tp('rx', pin), tp('rx', pin, n1)), ok: (v) => v >= 0.9 },
    { name: 'sync: rx ≤ 0.8× client-node', value: (pin) => div(sync('rx', pin), sync('client-node', pin)), ok: (v) => v <= 0.8 },
    { name: 'heap retained: rx ≤ 0.9× client-node', value: (pin) => div(heap('rx', pin), heap('client-node', pin)), ok: (v) => v <= 0.9 },
    { name: 'peak RSS: rx ≤ 0.6× client-node', value: (pin) => div(rss('rx', pin), rss('client-node', pin)), ok: (v) => v <= 0.6 },
    {
      name: `p99 at ${fmt(config.latencyRate)}/s: rx − floor-parse ≤ 1 ms`,
      value: (pin) => {
        const [a, b] = [p99('rx', pin), p99('floor-parse', pin)];
        return a === undefined || b === undefined ? undefined : a - b;
      },
      ok: (v) => v <= 1,
      unit: 'ms',
    },
  ];
  p(`| target | ${placements.map((pin) => (pin ? 'pinned' : 'unpinned')).join(' | ')} | verdict |`);
  p(`|---|${placements.map(() => '---:').join('|')}|---|`);
  for (const row of targetRows(targets, placements)) p(row);
  p();
  p('For scale, same run: ' + both((pin) => `sync floor-parse ${fmt(sync('floor-parse', pin))} ms, floor-map ${fmt(sync('floor-map', pin))} ms; p99 floor-parse ${fmt(p99('floor-parse', pin), 2)} ms`) + '.');
  p();

  if (has('client-go')) {
    p(`Against client-go (JSON; the test server speaks no protobuf), same run, at N = ${fmt(nMax)}, ${where}:`);
    p();
    p('| | rx / client-go | rx-strip / client-go | client-node / client-go |');
    p('|---|---:|---:|---:|');
    const row = (name: string, pick: (s: Sample) => number | undefined) =>
      p(`| ${name} | ${['rx', 'rx-strip', 'client-node'].map((id) => both((pin) => times(div(med(id, nMax, pin, pick), med('client-go', nMax, pin, pick))))).join(' | ')} |`);
    row('sync time', (s) => s.syncMs);
    row('heap retained', (s) => s.heapRetained);
    row('throughput', (s) => s.throughput);
    row('p99 latency', (s) => s.latency?.p99);
    p();
  }
  const runsOf = (id: string, n: number, pin: boolean): number => results.samples.filter((s) => s.contender === id && s.n === n && (s.pinned ?? false) === pin).length;
  p(`Runs that completed (per size, ${where}): ${contenders.map((c) => `${c.id} ${config.sizes.map((n) => both((pin) => String(runsOf(c.id, n, pin)))).join(', ')}`).join('; ')}.`);
  if (results.failures.length > 0) {
    p();
    p('Failures:');
    p();
    for (const f of results.failures) p(`- ${f.contender} at N = ${fmt(f.n)}, run ${f.run + 1}, ${f.pinned ? 'pinned' : 'unpinned'}: ${f.error}`);
  }
  p();
  return `${out.join('\n')}\n`;
}
