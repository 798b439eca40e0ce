/** Renders the real-apiserver part of BENCHMARKS.md from one `npm run bench:cluster` run. */
import { div, fmt, median, mib, targetRows, times, type Target } from '../core/report.js';

/** What one measured batch of updates gave. */
export interface Measured {
  /** Updates / (time the last was seen − time the first was sent). */
  eventsPerSecond: number;
  /** How fast the apiserver took the writes. */
  writesPerSecond: number;
  /** CPU time of the contender process per 1,000 updates seen, ms. */
  cpuMsPer1000: number;
  p50: number;
  p99: number;
  max: number;
  maxRSS: number;
  /** Watches the contender's source opened again during the measurement, as it counts them (rx: its WATCHING statuses after the first); 0 when its watch held. */
  watchesReopened?: number;
}

export interface ClusterSample {
  contender: string;
  n: number;
  run: number;
  syncMs: number;
  heapRetained: number;
  maxRSSAtSync: number;
  /** Resident set size after GC, once synced (before the burst). */
  settledRSS?: number;
  /** Bytes of the body (GET floors). */
  bytes?: number;
  burst?: Measured;
  steady?: Measured;
  /** Watchers the apiserver force-closed as unresponsive during this run. */
  forceClosed: number;
  /** configmaps requests the apiserver counted during this run, by verb. */
  requests: Record<string, number>;
  /** How long the contender waited for the apiserver and etcd to go idle before it started, and whether they did (bench/cluster/waitForIdle.ts). */
  settle?: { waitedMs: number; idle: boolean };
}

export interface ClusterResults {
  kind: 'cluster';
  command: string;
  startedAt: string;
  finishedAt?: string;
  machine: { cpus: string; memory: string; node: string; go: string; apiserver: string; etcd: string; loadavgAtStart: string; loadavgAtEnd?: string; loadavgMax?: string };
  config: { sizes: number[]; runs: number; updates: number; burstConcurrency: number; rate: number; rateUpdates: number };
  contenders: { id: string; label: string }[];
  loads: { from: number; to: number; createsPerSecond: number }[];
  samples: ClusterSample[];
  failures: { contender: string; n: number; run: number; error: string }[];
}

export function renderCluster(results: ClusterResults): string {
  const { config, contenders } = results;
  const out: string[] = [];
  const p = (line = ''): void => void out.push(line);
  const of = (id: string, n: number) => results.samples.filter((s) => s.contender === id && s.n === n);
  const med = (id: string, n: number, pick: (s: ClusterSample) => number | undefined): number | undefined =>
    median(of(id, n).map(pick).filter((v): v is number => v !== undefined));
  const nMax = Math.max(...config.sizes);
  const nMin = Math.min(...config.sizes);
  const spread = (id: string, n: number, pick: (s: ClusterSample) => number | undefined): string => {
    const values = of(id, n).map(pick).filter((v): v is number => v !== undefined);
    return values.length > 1 ? `(${fmt(Math.min(...values), 1)}–${fmt(Math.max(...values), 1)})` : '';
  };
  const watching = contenders.filter((c) => results.samples.some((s) => s.contender === c.id && s.burst));

  p('## Real kube-apiserver + etcd');
  p();
  p('```sh');
  p(results.command);
  p('```');
  p();
  p(`kube-apiserver ${results.machine.apiserver} + etcd ${results.machine.etcd} on 127.0.0.1 (test/cluster/env.sh: TLS, client certificates, watch cache on), contenders on the same machine: ${results.machine.cpus}, ${results.machine.memory}, Node ${results.machine.node}${results.machine.go ? `, ${results.machine.go}` : ''}.`);
  p(
    `Load average (1, 5, 15 min) at start ${results.machine.loadavgAtStart}, at end ${results.machine.loadavgAtEnd ?? '?'}; highest 1-minute value sampled during the run ${results.machine.loadavgMax ?? '?'}. ` +
      `Run ${results.startedAt} → ${results.finishedAt ?? '?'}; ${config.runs} fresh process(es) per contender and size, rotating order; medians.`,
  );
  p();
  p(
    `Workload: N ConfigMaps of ~1.5 KB (the loopback benchmark's objects; the apiserver writes their managedFields) in 50 namespaces, created through the apiserver with 64 requests in flight ` +
      `(${results.loads.map((l) => `${fmt(l.from)}→${fmt(l.to)} at ${fmt(l.createsPerSecond)} creates/s`).join(', ')}); every contender syncs all ConfigMaps of the cluster. ` +
      `Then ${fmt(config.updates)} merge patches (two annotations: a seq and the send time) written through the apiserver with ${config.burstConcurrency} in flight (the burst), and at N = ${fmt(nMin)} ` +
      `${fmt(config.rateUpdates)} more at ${config.rate} writes/s.`,
  );
  p();
  for (const c of contenders) p(`- **${c.id}**: ${c.label}`);
  p();

  p('### Initial sync and memory');
  p();
  p('Sync: from the contender\'s first request to synced (GET floors: to the last byte of the body). Heap retained: heap used after GC once synced minus before (Go: HeapAlloc). Peak RSS at sync (getrusage). Settled RSS: after GC, once synced, before the burst.');
  p();
  p(`| contender | ${config.sizes.map((n) => `sync ms N = ${fmt(n)}`).join(' | ')} | heap MiB at ${fmt(nMax)} | peak RSS MiB at ${fmt(nMax)} | settled RSS MiB at ${fmt(nMax)} | requests at ${fmt(nMax)} |`);
  p(`|---|${config.sizes.map(() => '---:').join('|')}|---:|---:|---:|---|`);
  for (const c of contenders) {
    const requests = of(c.id, nMax)[0]?.requests ?? {};
    const get = c.id.startsWith('get-');
    p(
      `| ${c.id} | ${config.sizes.map((n) => fmt(med(c.id, n, (s) => s.syncMs))).join(' | ')} | ${get ? '—' : mib(med(c.id, nMax, (s) => s.heapRetained))} | ${mib(med(c.id, nMax, (s) => s.maxRSSAtSync))} | ${mib(
        med(c.id, nMax, (s) => s.settledRSS),
      )} | ${Object.entries(requests).map(([verb, count]) => `${count} ${verb}`).join(', ')} |`,
    );
  }
  const bytes = (id: string) => med(id, nMax, (s) => s.bytes);
  if (bytes('get-json') !== undefined) p(`\nThe whole list at N = ${fmt(nMax)}: ${fmt((bytes('get-json') ?? 0) / 1e6, 1)} MB as JSON, ${fmt((bytes('get-protobuf') ?? 0) / 1e6, 1)} MB as protobuf.`);
  p();

  p(`### Events`);
  p();
  p(
    `The burst (${fmt(config.updates)} updates as fast as the apiserver takes them): CPU time of the contender's process per 1,000 updates, from "armed" to the last update seen; events/s; write-to-callback latency. ` +
      `At a steady ${config.rate} writes/s: latency. Force-closed: watchers the apiserver closed as unresponsive, summed over every run and size.`,
  );
  p();
  p(`| contender | ${config.sizes.map((n) => `CPU ms / 1,000 events N = ${fmt(n)} (min–max)`).join(' | ')} | burst writes/s | events/s | burst p50 / p99 ms | ${config.rate}/s p50 / p99 ms | force-closed |`);
  p(`|---|${config.sizes.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|`);
  for (const c of watching) {
    const b = (pick: (m: Measured) => number) => med(c.id, nMin, (s) => (s.burst ? pick(s.burst) : undefined));
    const st = (pick: (m: Measured) => number) => med(c.id, nMin, (s) => (s.steady ? pick(s.steady) : undefined));
    const closed = results.samples.filter((s) => s.contender === c.id).reduce((sum, s) => sum + s.forceClosed, 0);
    p(
      `| ${c.id} | ${config.sizes.map((n) => `${fmt(med(c.id, n, (s) => s.burst?.cpuMsPer1000), 1)} ${spread(c.id, n, (s) => s.burst?.cpuMsPer1000)}`).join(' | ')} | ${fmt(b((m) => m.writesPerSecond))} | ${fmt(b((m) => m.eventsPerSecond))} | ${fmt(b((m) => m.p50), 1)} / ${fmt(
        b((m) => m.p99),
        1,
      )} | ${fmt(st((m) => m.p50), 2)} / ${fmt(st((m) => m.p99), 2)} | ${closed} |`,
    );
  }
  p();
  p(`(CPU per 1,000 events at every N, median and (min–max) over the runs; the other burst and steady figures at N = ${fmt(nMin)}.)`);
  p();

  p(`### Targets (issue 24, real apiserver), same-run ratios at N = ${fmt(nMax)}`);
  p();
  const sync = (id: string) => med(id, nMax, (s) => s.syncMs);
  const peak = (id: string) => med(id, nMax, (s) => s.maxRSSAtSync);
  const heap = (id: string) => med(id, nMax, (s) => s.heapRetained);
  const cpu = (id: string) => med(id, nMax, (s) => s.burst?.cpuMsPer1000);
  const closedBy = (prefix: string) => results.samples.filter((s) => s.contender.startsWith(prefix)).reduce((sum, s) => sum + s.forceClosed, 0);
  // Against client-go's best variant measured in this run (streaming or LIST, JSON or protobuf), figure by figure.
  const goIds = contenders.map((c) => c.id).filter((id) => id.startsWith('client-go'));
  const bestGo = (figure: (id: string) => number | undefined): { id: string; value: number } | undefined =>
    goIds.reduce<{ id: string; value: number } | undefined>((best, id) => {
      const value = figure(id);
      return value === undefined || (best !== undefined && best.value <= value) ? best : { id, value };
    }, undefined);
  const vsGo = (name: string, id: string, figure: (id: string) => number | undefined, limit: number): Target => {
    const best = bestGo(figure);
    return { name: `${name}: ${id} ≤ ${limit.toFixed(1)}× client-go's best (${best?.id ?? '—'})`, value: () => div(figure(id), best?.value), ok: (v) => v <= limit };
  };
  const targets: Target[] = [
    { name: 'CPU per event: rx ≤ 0.8× client-node', value: () => div(cpu('rx'), cpu('client-node')), ok: (v) => v <= 0.8 },
    vsGo('CPU per event', 'rx', cpu, 1),
    vsGo('sync', 'rx', sync, 1),
    vsGo('heap retained', 'rx', heap, 0.5),
    vsGo('peak RSS', 'rx', peak, 1),
  ];
  p('| target | measured | verdict |');
  p('|---|---:|---|');
  for (const row of targetRows(targets, [false])) p(row);
  // The apiserver's log names a force-closed watch, not its client (kube-controller-manager's garbage
  // collector watches every ConfigMap too); rx counts the watches it opened in each burst, so a
  // watch of rx's that was closed shows as one opened again.
  const rxBursts = results.samples.filter((s) => s.contender === 'rx').flatMap((s) => [s.burst, s.steady]).filter((m) => m !== undefined);
  const reopened = rxBursts.every((m) => m.watchesReopened !== undefined) ? rxBursts.reduce((sum, m) => sum + m.watchesReopened!, 0) : undefined;
  const closedText = `${closedBy('rx')} closed in rx's runs (client-node ${closedBy('client-node')}, client-go ${closedBy('client-go')})`;
  p(
    reopened === undefined
      ? `| no rx watcher force-closed during the bursts | ${closedText} | ${closedBy('rx') === 0 ? 'met' : '**not met**'} |`
      : `| no rx watcher force-closed during the bursts | ${closedText}; rx's watch opened again ${reopened} times in its bursts | ${reopened === 0 ? 'met' : '**not met**'} |`,
  );
  p();
  const variants = ['rx-strip', 'rx-stream', 'rx-paged', 'rx-semi4']
    .filter((id) => contenders.some((c) => c.id === id))
    .map(
      (id) =>
        `${id}: CPU ${times(div(cpu(id), cpu('client-node')))} / ${times(div(cpu(id), bestGo(cpu)?.value))}, sync ${times(div(sync(id), bestGo(sync)?.value))}, heap ${times(div(heap(id), bestGo(heap)?.value))}, peak RSS ${times(div(peak(id), bestGo(peak)?.value))}`,
    );
  const floors = (['get-json', 'get-protobuf', 'floor-parse'] as const).filter((id) => sync(id) !== undefined).map((id) => `${id} ${fmt(sync(id))} ms`);
  if (variants.length > 0) p(`Other rx variants against the same denominators (client-node; client-go's best of each figure): ${variants.join('; ')}.`);
  if (floors.length > 0) p(`Floors at N = ${fmt(nMax)}: ${floors.join(', ')}.`);
  if (variants.length > 0 || floors.length > 0) p();
  p('The seeds\' figures (issue 17, the same control plane and objects, medians of 3–6 fresh processes), for comparison:');
  p();
  p('| figure | rx | rx + strip | client-node 2.x | client-go JSON | client-go protobuf |');
  p('|---|---:|---:|---:|---:|---:|');
  p('| sync 10k / 50k / 100k, ms | 332 / 2,014 / 3,489 | 290 / 1,577 / 3,243 | 364 / 1,970 / 3,737 | 214 / 1,164 / 2,609 | 206 / 1,106 / 2,515 |');
  p('| heap retained at 100k, MiB | 241 | 118 | 238 | 267 | 267 |');
  p('| peak RSS at 100k, MiB | 960 | 936 | 844 | 420 | 419 |');
  p('| CPU per 1,000 events (N = 10k, 5,000 updates) | 94 ms | 90 ms | 64 ms | 66 ms | 70 ms |');
  p();
  p('The seeds\' scale for a real cluster (≈100k pods): 10–20 s to sync, 200–300 MB, event latency in the tens of ms.');
  p();
  const runsOf = (id: string, n: number): number => of(id, n).length;
  p(`Runs that completed (per size): ${contenders.map((c) => `${c.id} ${config.sizes.map((n) => runsOf(c.id, n)).join('/')}`).join(', ')}.`);
  if (results.failures.length > 0) {
    p();
    p('Failures:');
    p();
    for (const f of results.failures) p(`- ${f.contender} at N = ${fmt(f.n)}, run ${f.run + 1}: ${f.error}`);
  }
  p();
  return `${out.join('\n')}\n`;
}
