import type { KubeConfigLike } from '../kubeConfigLike.js';
import { checkKubeConfig } from './checkKubeConfig.js';
import type { HttpTransport } from './httpTransport.js';
import { nodeTransport } from './nodeTransport.js';
import { createRequestContext } from './requestContext.js';

/**
 * The {@link HttpTransport} of a KubeConfig: `node:http`/`https` with the current context's server,
 * credentials (token, exec, OIDC, client certificates) and TLS. Node only: the package's `browser`
 * field swaps this module for `kubeConfigTransport.browser.js`, which refuses, so that a browser
 * bundle of the main entry holds no Node built-in (a browser uses {@link fetchTransport}).
 *
 * @throws {TypeError} unless `kubeConfig` is a @kubernetes/client-node `KubeConfig`.
 */
export function kubeConfigTransport(kubeConfig: KubeConfigLike): HttpTransport {
  checkKubeConfig(kubeConfig);
  return nodeTransport(createRequestContext(kubeConfig));
}
