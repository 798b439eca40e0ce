/**
 * A @kubernetes/client-node `KubeConfig`, as far as rx-informer reads one: the current cluster's
 * server and `applyToHTTPSOptions` (credentials, TLS). Every function that takes a KubeConfig
 * declares this structural type instead of importing client-node's class, so the declarations a
 * web project compiles (`fetchListWatch`, the informer, the store) need no client-node installed,
 * even with `skipLibCheck: false`. A client-node 2.x `KubeConfig` is one; so is a stand-in with
 * these two methods (tests).
 */
export interface KubeConfigLike {
  /** The current context's cluster, or `null` when there is none. */
  getCurrentCluster(): { readonly server: string } | null;
  /** Fills in a `node:https` request's options: headers (bearer token, exec and OIDC credentials), TLS material, the agent. */
  applyToHTTPSOptions(options: object): Promise<void>;
}
