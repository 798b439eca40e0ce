/**
 * The test API server the discovery tests resolve names against: the library's
 * (test/client/discoverResource.spec.ts) and the CLI's (packages/cli/test/discoverResource.spec.ts,
 * which runs from the workspace and imports this file by its path in the repository); it takes the
 * server from the entry point, as the CLI takes the library.
 */
import { createTestApiServer, type TestApiServer } from 'rx-informer/test-server';

/**
 * A test API server that serves, beside the built-in resources, a resource with a short name in a
 * named group (`deployments.apps`, `deploy`), a cluster-scoped custom resource (`widgets.example.com`,
 * `wd`) and a resource named like a core one in another group (`pods.metrics.k8s.io`). The caller
 * closes it.
 */
export function discoveryTestServer(): Promise<TestApiServer> {
  return createTestApiServer({
    resources: [
      { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'] },
      { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: false, shortNames: ['wd'] },
      // Another group with a resource named like a core one: the core group must win for bare names.
      { group: 'metrics.k8s.io', version: 'v1beta1', plural: 'pods', kind: 'PodMetrics', namespaced: true },
    ],
  });
}
