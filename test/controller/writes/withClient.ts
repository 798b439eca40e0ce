/** A test API server serving a Widget CRD (with /status) and a resource client for it, closed after `run`. */
import { resourceClient, type ResourceClient } from '../../../src/client/resourceClient.js';
import { createTestApiServer, type TestApiServer } from '../../../src/testServer/index.js';

export const widgets = { group: 'demo.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, statusSubresource: true } as const;

export async function withClient(run: (server: TestApiServer, client: ResourceClient) => Promise<void>): Promise<void> {
  const server = await createTestApiServer({ resources: [widgets] });
  const client = resourceClient(server.kubeConfig, { fieldManager: 'tests' });
  try {
    await run(server, client);
  } finally {
    client.close();
    await server.close();
  }
}
