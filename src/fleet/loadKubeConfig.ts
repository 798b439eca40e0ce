import { KubeConfig } from '@kubernetes/client-node';

/**
 * A client-node KubeConfig from kubeconfig text (YAML or JSON), checked to name a current
 * cluster with a server, so that bad credentials are refused when they are found and not at the
 * first request. @throws {TypeError} naming `source`.
 */
export function loadKubeConfig(text: string, source: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromString(text);
  } catch (cause) {
    throw new TypeError(`[fleet] ${source}: not a kubeconfig: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (typeof kubeConfig.getCurrentCluster()?.server !== 'string' || kubeConfig.getCurrentCluster()!.server === '') {
    throw new TypeError(`[fleet] ${source}: the kubeconfig's current context names no cluster with a server`);
  }
  return kubeConfig;
}
