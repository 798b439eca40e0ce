/*
 * `npm run test:fuzz`: runs the model-based convergence property for many cases, in chunks with
 * their own seeds, printing progress. Resumable: `FUZZ_FROM=<chunk>` starts at a chunk;
 * `FUZZ_RUNS` (default 10000), `FUZZ_CHUNK` (default 250), `FUZZ_SEED` (default 7007).
 * A failure prints the seed, path and shrunk counterexample, then exits 1.
 */
import fc from 'fast-check';
import { runScenario, scenarioArb, type CaseResult } from './convergenceCase.js';

const runs = Number(process.env['FUZZ_RUNS'] ?? 10_000);
const chunk = Number(process.env['FUZZ_CHUNK'] ?? 250);
const baseSeed = Number(process.env['FUZZ_SEED'] ?? 7007);
const from = Number(process.env['FUZZ_FROM'] ?? 0);
const chunks = Math.ceil(runs / chunk);
const started = Date.now();
let cases = 0;
let faults = 0;
let writes = 0;
let lists = 0;
let notifications = 0;
for (let c = from; c < chunks; c++) {
  const seed = baseSeed + c;
  const numRuns = Math.min(chunk, runs - c * chunk);
  const result = await fc.check(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const r: CaseResult = await runScenario(scenario);
      cases++;
      faults += r.faults;
      writes += r.writes;
      lists += r.lists;
      notifications += r.notifications;
    }),
    { numRuns, seed, includeErrorInReport: true },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (result.failed) {
    console.error(fc.defaultReportMessage(result));
    console.error(result.errorInstance);
    console.error(`FAILED in chunk ${c} (seed ${seed}); resume after a fix with FUZZ_FROM=${c}`);
    process.exit(1);
  }
  console.log(`chunk ${c + 1}/${chunks} seed ${seed}: ${cases} cases passed, ${faults} faults, ${writes} writes, ${lists} LISTs, ${notifications} notifications, 0 divergences, ${seconds}s`);
}
console.log(`fuzz: ${cases} cases, ${faults} faults injected, ${writes} writes, 0 divergences, ${((Date.now() - started) / 1000).toFixed(0)}s`);
