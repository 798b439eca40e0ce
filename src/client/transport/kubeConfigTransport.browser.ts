import type { KubeConfigLike } from '../kubeConfigLike.js';
import type { HttpTransport } from './httpTransport.js';
import { argumentError } from '../../options/optionChecks.js';

/**
 * What a browser bundle gets for `kubeConfigTransport.js` (the package's `browser` field maps it
 * here): a KubeConfig's credentials (client certificates, exec plugins, token files) need Node, so
 * the sources over a KubeConfig refuse with a clear error instead of pulling `node:http` into the bundle.
 *
 * @throws {TypeError} always.
 */
export function kubeConfigTransport(_kubeConfig: KubeConfigLike): HttpTransport {
  throw argumentError('kubeConfig', 'a KubeConfig needs Node (node:http, client certificates, exec plugins); in a browser, use fetchListWatch() over a kubectl proxy or your backend');
}
