import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/**
 * Server URL and per-request options (auth headers, TLS, agent) from a KubeConfig. The options are
 * applied afresh for every request, as client-node does for its own API calls: exec / OIDC / token
 * file / client-certificate credentials come from client-node's `applyToHTTPSOptions` (its
 * authenticators cache tokens until they expire; the agent is cached per cluster and user). So a
 * request retried after a 401 always carries credentials reloaded from the KubeConfig, and an
 * expiring exec token is renewed before it causes a 401 at all.
 */
export interface RequestContext {
  readonly server: () => URL;
  readonly options: () => Promise<RequestOptions>;
}

/** The server URL and per-request options (auth, TLS, agent) from a KubeConfig, re-read on every request so refreshed credentials apply. */
export function createRequestContext(kubeConfig: KubeConfig): RequestContext {
  const context: RequestContext = {
    server() {
      const cluster = kubeConfig.getCurrentCluster();
      if (!cluster) throw new TypeError('[informer] the KubeConfig has no current cluster');
      return new URL(cluster.server);
    },
    async options() {
      const options: RequestOptions = {};
      try {
        await kubeConfig.applyToHTTPSOptions(options);
      } catch (error) {
        // client-node refuses plain http unless skipTLSVerify is set; kubectl does not. Allow it
        // for loopback servers only (test servers, `kubectl proxy`): the options (headers) are
        // already filled in when it throws while creating the agent.
        if (isLoopbackHttp(context.server()) && /HTTP protocol is not allowed/.test(String((error as Error)?.message))) {
          delete options.agent;
          return options;
        }
        throw error;
      }
      return options;
    },
  };
  return context;
}

function isLoopbackHttp(server: URL): boolean {
  return server.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(server.hostname);
}
