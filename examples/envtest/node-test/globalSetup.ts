/**
 * node:test's global setup (`node --test --test-global-setup=…`): one control plane for the whole
 * run, with the example CRDs established; every test file finds it through KUBECONFIG.
 */
import { fileURLToPath } from 'node:url';
import { startControlPlane, type ControlPlane } from 'rx-informer/envtest';

let plane: ControlPlane | undefined;

export async function globalSetup(): Promise<void> {
  plane = await startControlPlane({ crds: [fileURLToPath(new URL('../crds/', import.meta.url))] });
  process.env['KUBECONFIG'] = plane.kubeConfigPath; // the test files' processes inherit it
}

export async function globalTeardown(): Promise<void> {
  await plane?.stop();
}
