/*
 * Property-based, model-based convergence of informer(listWatch(...)) against the test API server
 * under random writes and faults (issue 7 §1). 6 × 50 = 300 cases here; `npm run test:fuzz` runs
 * 10,000. Seeds are fixed so a CI failure reproduces; `FC_SEED=<n>` picks others.
 */
import test from 'ava';
import fc from 'fast-check';
import { runScenario, type CaseResult } from './convergenceCase.js';
import { scenarioArb } from './convergenceCase.js';

const baseSeed = Number(process.env['FC_SEED'] ?? 4242);
const chunks = 6;
const runsPerChunk = 50;

for (let chunk = 0; chunk < chunks; chunk++) {
  const seed = baseSeed + chunk;
  test(`convergence under random writes and faults: ${runsPerChunk} cases, seed ${seed}`, async (t) => {
    t.timeout(180_000);
    const totals = { cases: 0, faults: 0, writes: 0, lists: 0, notifications: 0 };
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const r: CaseResult = await runScenario(scenario, { convergeTimeoutMs: 4_000 });
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
