import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/**
 * Server URL and per-request options (auth headers, TLS, agent) from a KubeConfig, computed once and
 * reused until {@link RequestContext.invalidate} (called on a 401) makes the next request re-read
 * the credentials: exec/OIDC/token/cert all come from client-node's `applyToHTTPSOptions`.
 */
export interface RequestContext {
  readonly server: () => URL;
  readonly options: () => Promise<RequestOptions>;
  readonly invalidate: () => void;
}

export function createRequestContext(kubeConfig: KubeConfig): RequestContext {
  let cached: Promise<RequestOptions> | undefined;
  return {
    server() {
      const cluster = kubeConfig.getCurrentCluster();
      if (!cluster) throw new TypeError('[informer] the KubeConfig has no current cluster');
      return new URL(cluster.server);
    },
    options() {
      if (!cached) {
        const options: RequestOptions = {};
        const pending = kubeConfig.applyToHTTPSOptions(options).then(() => options);
        pending.catch(() => {
          if (cached === pending) cached = undefined;
        });
        cached = pending;
      }
      return cached;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
