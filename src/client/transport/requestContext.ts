import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent, type RequestOptions } from 'node:https';
import type { KubeConfigLike } from '../kubeConfigLike.js';
import { argumentError } from '../../options/optionChecks.js';

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
  /** Closes the idle keep-alive connections of the agents this context handed out (in-use ones are left alone). */
  readonly closeIdleConnections: () => void;
}

/** The server URL and per-request options (auth, TLS, agent) from a KubeConfig, re-read on every request so refreshed credentials apply. */
export function createRequestContext(kubeConfig: KubeConfigLike): RequestContext {
  const agents = new Set<HttpAgent>();
  const context: RequestContext = {
    server() {
      const cluster = kubeConfig.getCurrentCluster();
      if (!cluster) throw argumentError('kubeConfig', 'the KubeConfig has no current cluster');
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
          // Our own keep-alive agent rather than Node's global one, so closeIdleConnections reaches it.
          options.agent = loopbackAgent;
          agents.add(loopbackAgent);
          return options;
        }
        throw error;
      }
      const agent = keepAliveTwin(options.agent);
      if (agent === undefined) return options;
      agents.add(agent);
      return { ...options, agent };
    },
    closeIdleConnections() {
      const close = (): void => {
        for (const agent of agents) for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
      };
      close();
      // A response that has just ended hands its socket back to the agent on the next tick.
      setImmediate(close).unref();
    },
  };
  return context;
}

// client-node makes its http(s).Agent (one per cluster and user) without keepAlive, so every
// request, each LIST page included, opened a new TCP connection (and, against a real cluster, a new
// TLS session). Each such agent gets one keep-alive twin with the same TLS options. Proxy agents
// and anything else are left alone.
const twins = new WeakMap<object, HttpAgent>();
const loopbackAgent = new HttpAgent({ keepAlive: true });
function keepAliveTwin(agent: unknown): HttpAgent | undefined {
  if (agent === null || typeof agent !== 'object') return undefined;
  const Ctor = agent.constructor;
  if (Ctor !== HttpAgent && Ctor !== HttpsAgent) return undefined;
  if ((agent as { keepAlive?: boolean }).keepAlive) return agent as HttpAgent;
  let twin = twins.get(agent);
  if (twin === undefined) {
    const options = { ...(agent as { options?: object }).options, keepAlive: true };
    twin = Ctor === HttpsAgent ? new HttpsAgent(options) : new HttpAgent(options);
    twins.set(agent, twin);
  }
  return twin;
}

function isLoopbackHttp(server: URL): boolean {
  return server.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(server.hostname);
}
