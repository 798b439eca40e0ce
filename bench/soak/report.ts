/**
 * Prints the Markdown tables of RELIABILITY.md from a soak's results file (SOAK_OUT of
 * `npm run soak:cluster`): `node --import=tsx bench/soak/report.ts results.json`. The figures go
 * into the note as printed, so none is copied by hand.
 */
import { readFileSync } from 'node:fs';

interface Spread {
  readonly n: number;
  readonly p50: number | null;
  readonly max: number | null;
}
interface Results {
  readonly seed: number;
  readonly seconds: number;
  readonly objects: number;
  readonly replicas: number;
  readonly load?: { samples: number; min: number; median: number; max: number };
  readonly writes: { sent: number; ok: number; failed: number; skipped: number; byOp: Record<string, number> };
  readonly eventsDelivered: number;
  readonly reconcileRuns: number;
  readonly faults: number;
  readonly byKind: Record<string, { count: number; recovery: Spread; unrecovered: number; informers?: Spread; operator?: Spread; afterBurst?: Spread; stacked?: number }>;
  readonly relists: Record<string, number>;
  readonly divergences: number;
  readonly childMismatches: number;
  readonly overlaps: number;
  readonly cleanups: { guardedDeletions: number; once: number; missing: string[]; repeatedInTerm: string[]; repeatedAfterHandover: string[]; unexpected: string[] };
  readonly heap: { flat: boolean; worstDrift: number; checkpointMs?: number; unjudged?: string[]; byProcess?: Record<string, { flat: boolean; worstDrift: number; windowsMiB: number[] | Record<string, number[]> }> };
  readonly leaks: Array<{ process: string; open: string[] }>;
  readonly memory: Array<{ process: string; at: number; heapUsed: number; rss: number }>;
}

const path = process.argv[2];
if (!path) throw new Error('usage: node --import=tsx bench/soak/report.ts <results.json>');
const r = JSON.parse(readFileSync(path, 'utf8')) as Results;
const s = (ms: number | null): string => (ms === null || Number.isNaN(ms) ? '–' : (ms / 1000).toFixed(1));
const n = (x: number): string => x.toLocaleString('en-US');
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
const rows: string[] = [];
const row = (...cells: Array<string | number>): number => rows.push(`| ${cells.join(' | ')} |`);

row('what', 'figure');
row('---', '---');
row('seed', `${r.seed} (replay: \`SOAK_SEED=${r.seed}\`)`);
row('churn', `${n(r.seconds)} s over ${n(r.objects)} ConfigMaps, ${r.replicas} operator replicas`);
if (r.load) row('load average (1 min) during the churn', `median ${r.load.median.toFixed(1)}, min ${r.load.min.toFixed(1)}, max ${r.load.max.toFixed(1)} (${r.load.samples} samples)`);
row('writes sent / answered 2xx / failed / skipped', `${n(r.writes.sent)} / ${n(r.writes.ok)} / ${n(r.writes.failed)} / ${n(r.writes.skipped)}`);
row('writes by kind', Object.entries(r.writes.byOp).map(([op, count]) => `${op} ${n(count)}`).join(', '));
row('changes delivered to the plain informers', n(r.eventsDelivered));
row('reconcile runs (all replicas)', n(r.reconcileRuns));
row('relists of the plain informers, by reason', Object.entries(r.relists).map(([reason, count]) => `${reason} ${count}`).join(', ') || 'none');
row('faults', r.faults);
row('cache divergences from a fresh LIST (object by object, and the index)', r.divergences);
row('sets whose ConfigMaps differ from the spec', r.childMismatches);
row('runs of one set at once (doubled reconciles)', r.overlaps);
row('finalizer-guarded deletions', r.cleanups.guardedDeletions);
row('… cleaned up once', r.cleanups.once);
row('… cleaned up again after a handover (another replica or term)', r.cleanups.repeatedAfterHandover.length);
row('… cleaned up twice within one term / never / unexpectedly', `${r.cleanups.repeatedInTerm.length} / ${r.cleanups.missing.length} / ${r.cleanups.unexpected.length}`);
row('heap flat (±10 % between checkpoints)', `${r.heap.flat ? 'yes' : 'no'}, worst drift ${(r.heap.worstDrift * 100).toFixed(1)} %`);
row('handles left open at the end', r.leaks.filter((l) => l.open.length > 0).map((l) => `${l.process}: ${l.open.join(', ')}`).join('; ') || `none (${r.leaks.length} processes)`);
console.log(rows.join('\n'));

const split = Object.values(r.byKind).some((k) => k.operator !== undefined);
if (!split) {
  console.log('\n| fault | count | recovery p50 s | recovery max s | not recovered in 120 s |\n|---|---|---|---|---|');
  for (const [kind, k] of Object.entries(r.byKind)) console.log(`| ${kind} | ${k.count} | ${s(k.recovery.p50)} | ${s(k.recovery.max)} | ${k.unrecovered} |`);
} else {
  // Times from the fault's own end, p50 / max; "in a burst": the next fault landed before its probe was through.
  console.log('\n| fault | count | in a burst | informers saw the probe, s | operator reconciled it, s | both, s | both, from the burst\'s end, s | not recovered in 120 s of its burst\'s end |\n|---|---|---|---|---|---|---|---|');
  const pm = (x: Spread | undefined): string => (x === undefined ? '–' : `${s(x.p50)} / ${s(x.max)}`);
  for (const [kind, k] of Object.entries(r.byKind)) console.log(`| ${kind} | ${k.count} | ${k.stacked ?? '–'} | ${pm(k.informers)} | ${pm(k.operator)} | ${pm(k.recovery)} | ${pm(k.afterBurst)} | ${k.unrecovered} |`);
}

console.log('\n| process | heap MiB per checkpoint window (median after GC) | worst drift | RSS MiB first → last |\n|---|---|---|---|');
for (const [name, f] of Object.entries(r.heap.byProcess ?? {})) {
  const own = r.memory.filter((m) => m.process === name);
  console.log(`| ${name} | ${Array.isArray(f.windowsMiB) ? f.windowsMiB.join(', ') : Object.entries(f.windowsMiB).map(([role, medians]) => (role === 'all' ? medians.join(', ') : `${role}: ${medians.join(', ')}`)).join('; ')} | ${(f.worstDrift * 100).toFixed(1)} % | ${mib(own[0]!.rss)} → ${mib(own.at(-1)!.rss)} |`);
}
if ((r.heap.unjudged ?? []).length > 0) console.log(`\nNot judged (no role held for a whole checkpoint window): ${r.heap.unjudged!.join(', ')}.`);
