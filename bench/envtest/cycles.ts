/**
 * Start/stop cycles of rx-informer/envtest (issue 42's targets): N times (ENVTEST_CYCLES, default
 * 100) start a control plane with the test CRDs established, then stop it. Prints start-to-ready
 * and teardown (median, p95, max) and fails when a process or a temporary folder is left behind.
 * Binaries: KUBEBUILDER_ASSETS when set, else the ones `test/cluster/env.sh build` made, laid out as
 * setup-envtest lays them. Heavy: run it under the machine's lock.
 *
 *   flock /tmp/rx-heavy.lock npm run bench:envtest
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from '../../src/envtest/index.js';
import { envtestAssets } from '../../test/cluster/envtest/assets.js';

const cycles = Number(process.env['ENVTEST_CYCLES'] ?? 100);
const crds = fileURLToPath(new URL('../../examples/envtest/crds/', import.meta.url));
const assets = process.env['KUBEBUILDER_ASSETS'] ? undefined : envtestAssets();
if (assets) process.env['KUBEBUILDER_ASSETS'] = assets.dir;

const ours = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('rx-envtest-') && !name.startsWith('rx-envtest-assets-'));
const processesNamingEnvtest = (): number[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((entry) => {
      try {
        return /\0--(data|cert)-dir=[^\0]*\/rx-envtest-|watchdog\.[jt]s\0[^\0]*rx-envtest-/.test(readFileSync(`/proc/${entry}/cmdline`, 'latin1'));
      } catch {
        return false;
      }
    })
    .map(Number);

const before = { dirs: ours().length, processes: processesNamingEnvtest().length };
const starts: number[] = [];
const stops: number[] = [];
for (let i = 0; i < cycles; i++) {
  const plane = await startControlPlane({ crds: [crds] });
  starts.push(plane.startupMs);
  const t0 = performance.now();
  await plane.stop();
  stops.push(performance.now() - t0);
  if ((i + 1) % 10 === 0) process.stdout.write(`  ${i + 1}/${cycles}: last start ${plane.startupMs} ms, teardown ${Math.round(stops.at(-1)!)} ms\n`);
}
assets?.remove();

const stats = (values: number[]): string => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
};
const left = { dirs: ours().length - before.dirs, processes: processesNamingEnvtest().length - before.processes };
console.log(`envtest cycles: ${cycles}`);
console.log(`  start to ready (2 CRDs established): ${stats(starts)}`);
console.log(`  teardown:                            ${stats(stops)}`);
console.log(`  left behind: ${left.processes} processes, ${left.dirs} temporary folders`);
if (left.dirs !== 0 || left.processes !== 0) process.exitCode = 1;
