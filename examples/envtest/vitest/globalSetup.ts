/**
 * vitest's global setup: one control plane for the run, with the example CRDs established; the
 * tests get its kubeconfig path through `inject('kubeConfigPath')`. The returned function stops it.
 */
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startControlPlane } from 'rx-informer/envtest';

declare module 'vitest' {
  export interface ProvidedContext {
    kubeConfigPath: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const plane = await startControlPlane({ crds: [fileURLToPath(new URL('../crds/', import.meta.url))] });
  project.provide('kubeConfigPath', plane.kubeConfigPath);
  return () => plane.stop();
}
