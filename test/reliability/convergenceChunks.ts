/**
 * The chunks of the convergence property (issue 7 §1): 6 × 50 = 300 cases with fixed seeds, spread
 * over two spec files (convergence.property.spec.ts takes chunks 0–2, convergence2.property.spec.ts
 * 3–5) so that they run in two workers, on two cores, instead of one after the other in one thread
 * (issue 25 item 7). `FC_SEED=<n>` picks other seeds.
 */
import test from 'ava';
import fc from 'fast-check';
import { runScenario, scenarioArb, type CaseResult } from './convergenceCase.js';

const baseSeed = Number(process.env['FC_SEED'] ?? 4242);
const runsPerChunk = 50;

/** Declares the tests of chunks `from` to `to` (inclusive), each `runsPerChunk` cases from seed `baseSeed + chunk`. */
export function convergenceChunks(from: number, to: number): void {
  for (let chunk = from; chunk <= to; chunk++) {
    const seed = baseSeed + chunk;
    test(`convergence under random writes and faults: ${runsPerChunk} cases, seed ${seed}`, async (t) => {
      t.timeout(180_000);
      const totals = { cases: 0, faults: 0, writes: 0, lists: 0, notifications: 0 };
      await fc.assert(
        fc.asyncProperty(scenarioArb, async (scenario) => {
          const r: CaseResult = await runScenario(scenario, { convergeTimeoutMs: 15_000 });
          totals.cases++;
          totals.faults += r.faults;
          totals.writes += r.writes;
          totals.lists += r.lists;
          totals.notifications += r.notifications;
        }),
        // A divergence costs a convergence timeout per shrink step: cap the shrinking, report what it has.
        { numRuns: runsPerChunk, seed, interruptAfterTimeLimit: 100_000, markInterruptAsFailure: true, includeErrorInReport: true },
      );
      t.log(`${totals.cases} cases, ${totals.faults} faults injected, ${totals.writes} writes, ${totals.lists} LIST cycles, ${totals.notifications} notifications, 0 divergences`);
      t.true(totals.cases >= runsPerChunk, 'every case ran');
      t.true(totals.faults > runsPerChunk, 'faults were injected');
    });
  }
}
