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
  const context: RequestContext = {
    server() {
      const cluster = kubeConfig.getCurrentCluster();
      if (!cluster) throw new TypeError('[informer] the KubeConfig has no current cluster');
      return new URL(cluster.server);
    },
    options() {
      if (!cached) {
        const options: RequestOptions = {};
        const pending = kubeConfig.applyToHTTPSOptions(options).then(
          () => options,
          (error: unknown) => {
            // client-node refuses plain http unless skipTLSVerify is set; kubectl does not. Allow it
            // for loopback servers only (test servers, `kubectl proxy`): the options (headers) are
            // already filled in when it throws while creating the agent.
            if (isLoopbackHttp(context.server()) && /HTTP protocol is not allowed/.test(String((error as Error)?.message))) {
              delete options.agent;
              return options;
            }
            throw error;
          },
        );
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
  return context;
}

function isLoopbackHttp(server: URL): boolean {
  return server.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(server.hostname);
}
