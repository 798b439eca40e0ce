import type { KubeConfigLike } from '../kubeConfigLike.js';
import { checkNodeVersion } from './nodeFloor.js';
import { argumentError } from '../../options/optionChecks.js';

/**
 * Checked by every function that takes a KubeConfig, at the call.
 *
 * @throws {Error} on a Node older than the HTTP stack needs ({@link checkNodeVersion}).
 * @throws {TypeError} unless `kubeConfig` is a @kubernetes/client-node `KubeConfig`.
 */
export function checkKubeConfig(kubeConfig: KubeConfigLike): void {
  checkNodeVersion('rx-informer', 'to talk to an API server');
  if (kubeConfig === null || typeof kubeConfig !== 'object' || typeof kubeConfig.applyToHTTPSOptions !== 'function') {
    throw argumentError('kubeConfig', 'kubeConfig must be a @kubernetes/client-node KubeConfig');
  }
}
