/**
 * The envtest examples (examples/envtest/) run as their README says, on the binaries env.sh builds
 * laid out as setup-envtest lays them: node:test with its global setup, ava through its launcher.
 * Each starts one control plane for its run; nothing may be left behind.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { envtestAssets } from '../envtest/assets.js';

const run = promisify(execFile);
const root = new URL('../../../', import.meta.url);
const tsx = new URL('node_modules/.bin/tsx', root).pathname;
const planes = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('rx-envtest-') && !name.startsWith('rx-envtest-assets-'));

const assets = envtestAssets();
test.after.always(() => assets.remove());
const env = { ...process.env, KUBEBUILDER_ASSETS: assets.dir };

test('node:test: one control plane per run from --test-global-setup, a namespace per test', async (t) => {
  const before = planes().length;
  const { stdout } = await run(tsx, ['--test', '--test-global-setup=examples/envtest/node-test/globalSetup.ts', 'examples/envtest/node-test/widgets.test.ts'], { cwd: root, env, timeout: 120_000 });
  t.regex(stdout, /[#ℹ] pass 2\n[#ℹ] fail 0/); // tap or spec reporter, as the terminal decides
  t.is(planes().length, before, 'the control plane was stopped');
});

test('ava: one control plane per run from the launcher, a namespace per test', async (t) => {
  const before = planes().length;
  const { stdout, stderr } = await run(tsx, ['examples/envtest/ava/withControlPlane.ts', '--config', 'examples/envtest/ava/ava.config.mjs'], { cwd: root, env, timeout: 120_000 });
  t.regex(stdout + stderr, /2 tests passed/);
  t.is(planes().length, before, 'the control plane was stopped');
});
