import type { ExecutionContext } from 'ava';
import fc from 'fast-check';

/**
 * Runs a fast-check property as one assertion of `t`: it passes when every run passes, and fails with
 * fast-check's own report (the seed, the path, the counterexample and the error), so a failure can be
 * replayed exactly (docs/testing.md, "Replaying a failed property").
 *
 * A property asserts with `node:assert/strict` or by returning `false`, never with `t`: a `t`
 * assertion that fails inside a run is what ava reports, in place of fast-check's report, and the seed
 * is lost (test/propertyReports.spec.ts keeps it so).
 *
 * Environment, for replaying and for sweeps (never set in CI):
 * - `FC_SEED` and `FC_PATH`: run from that seed (and straight to that path), as the report printed them;
 * - `FC_RUNS_FACTOR`: multiply each property's number of runs (e.g. 20 for a sweep over many seeds).
 */
export function assertProperty<Ts extends [unknown, ...unknown[]]>(t: ExecutionContext, property: fc.IProperty<Ts>, parameters: fc.Parameters<Ts> = {}): void {
  const details = fc.check(property, { includeErrorInReport: true, ...parameters, ...fromEnvironment(parameters) });
  if (details.failed) t.fail(fc.defaultReportMessage(details) ?? 'the property failed');
  else t.pass();
}

/** The parameters `FC_SEED`, `FC_PATH` and `FC_RUNS_FACTOR` set over `parameters`. */
function fromEnvironment<Ts>(parameters: fc.Parameters<Ts>): fc.Parameters<Ts> {
  const { FC_SEED: seed, FC_PATH: path, FC_RUNS_FACTOR: factor } = process.env;
  const out: fc.Parameters<Ts> = {};
  if (seed !== undefined && seed !== '') out.seed = Number(seed);
  if (path !== undefined && path !== '') out.path = path;
  if (factor !== undefined && factor !== '') out.numRuns = Math.round((parameters.numRuns ?? 100) * Number(factor));
  return out;
}
