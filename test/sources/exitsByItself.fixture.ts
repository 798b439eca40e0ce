// Run by listWatch.spec.ts in a child process: it must exit by itself after unsubscribing.
import { listWatch } from '../../src/sources/listWatch.js';
import { createTestApiServer } from '../../src/testServer/index.js';

const server = await createTestApiServer();
server.create('configmaps', { metadata: { name: 'a', namespace: 'default' } });
const subscription = listWatch(server.kubeConfig, { version: 'v1', plural: 'configmaps' }, {
  onStatus: (s) => {
    if (s.type === 'WATCHING') {
      console.log('watching');
      subscription.unsubscribe();
      console.log('unsubscribed');
      void server.close();
    }
  },
}).subscribe();
