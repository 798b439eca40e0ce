/**
 * One control plane per ava run: ava has no global setup, so this starts the control plane, runs
 * ava with KUBECONFIG pointing at it, and stops it when ava ends (also on Ctrl-C; a kill -9 is
 * cleaned up by envtest's watchdog). Arguments go to ava:
 *
 *   npx tsx examples/envtest/ava/withControlPlane.ts --config examples/envtest/ava/ava.config.mjs
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from 'rx-informer/envtest';

const plane = await startControlPlane({ crds: [fileURLToPath(new URL('../crds/', import.meta.url))] });
const ava = fileURLToPath(new URL('cli.mjs', import.meta.resolve('ava'))); // ava's bin, beside its main entry
const child = spawn(process.execPath, [ava, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, KUBECONFIG: plane.kubeConfigPath } });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code = await new Promise<number>((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
await plane.stop();
process.exitCode = code;
