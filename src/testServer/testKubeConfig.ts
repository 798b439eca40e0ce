import { KubeConfig } from '@kubernetes/client-node';

/**
 * A client-node KubeConfig whose one context points at the test server on `url`, in `namespace`,
 * and the function that points it at a new bearer token (`undefined`: none). @internal
 */
export function testKubeConfig(url: string, namespace: string): { readonly kubeConfig: KubeConfig; load(token: string | undefined): void } {
  const kubeConfig = new KubeConfig();
  const load = (token: string | undefined): void => {
    kubeConfig.loadFromOptions({
      // client-node 2.x refuses plain http:// unless skipTLSVerify is set; kubectl accepts it too.
      clusters: [{ name: 'rx-informer-test', server: url, skipTLSVerify: true }],
      users: [token === undefined ? { name: 'rx-informer-test' } : { name: 'rx-informer-test', token }],
      contexts: [{ name: 'rx-informer-test', cluster: 'rx-informer-test', user: 'rx-informer-test', namespace }],
      currentContext: 'rx-informer-test',
    });
  };
  return { kubeConfig, load };
}
