import type { KubeConfig } from '@kubernetes/client-node';

/** @throws {TypeError} unless `kubeConfig` is a @kubernetes/client-node `KubeConfig`. */
export function checkKubeConfig(kubeConfig: KubeConfig): void {
  if (kubeConfig === null || typeof kubeConfig !== 'object' || typeof kubeConfig.applyToHTTPSOptions !== 'function') {
    throw new TypeError('[informer] kubeConfig must be a @kubernetes/client-node KubeConfig');
  }
}
