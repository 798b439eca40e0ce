/**
 * Type-level tests of the test API server's control API (issue 12 item 13): the testing kit's
 * builders, client-node models and plain literals are all accepted by `create`, `update` and
 * `seed`; what is not an object is refused.
 */
import type { V1ConfigMap, V1Pod } from '@kubernetes/client-node';
import type { Json } from '../../src/index.js';
import { configMap, pod } from '../../src/testing/index.js';
import type { JsonObject, TestApiServer } from '../../src/testServer/index.js';

declare const server: TestApiServer;
declare function expectType<T>(value: T): void;

// The kit's own builders.
expectType<JsonObject>(server.create('pods', pod('web-1', { nodeName: 'node-a' })));
server.create('configmaps', configMap('settings', { data: { mode: 'fast' } }));
server.update('configmaps', configMap('settings', { resourceVersion: '2' }));
server.seed('pods', [pod('a'), pod('b')]);
// client-node models, as they are typed and as JSON.
declare const model: V1ConfigMap;
declare const cached: Json<V1Pod>;
server.create('configmaps', model);
server.create('pods', cached);
// Literals with any fields a resource has.
server.create('pods', { metadata: { name: 'p', namespace: 'default', ownerReferences: [] }, spec: { containers: [] }, status: { phase: 'Running' } });
server.seed('configmaps', [{ metadata: { name: 'a' }, data: { k: 'v' } }]);

// @ts-expect-error an object is required
server.create('pods', 'web-1');
// @ts-expect-error metadata.name is text
server.create('pods', { metadata: { name: 1 } });
// @ts-expect-error labels map to strings
server.create('configmaps', { metadata: { name: 'a', labels: { app: 1 } } });
