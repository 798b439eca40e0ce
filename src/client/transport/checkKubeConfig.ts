import type { KubeConfig } from '@kubernetes/client-node';
import { checkNodeVersion } from './nodeFloor.js';

/**
 * Checked by every function that takes a KubeConfig, at the call.
 *
 * @throws {Error} on a Node older than the HTTP stack needs ({@link checkNodeVersion}).
 * @throws {TypeError} unless `kubeConfig` is a @kubernetes/client-node `KubeConfig`.
 */
export function checkKubeConfig(kubeConfig: KubeConfig): void {
  checkNodeVersion('rx-informer', 'to talk to an API server');
  if (kubeConfig === null || typeof kubeConfig !== 'object' || typeof kubeConfig.applyToHTTPSOptions !== 'function') {
    throw new TypeError('[informer] kubeConfig must be a @kubernetes/client-node KubeConfig');
  }
}
