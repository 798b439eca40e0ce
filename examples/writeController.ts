import { firstValueFrom } from 'rxjs';
import { informerFactory, type KubeObject } from 'rx-informer';
import { byControllerOwner, controller, createOrUpdate, resourceClient } from 'rx-informer/controller';
import { createTestApiServer } from 'rx-informer/test-server';
type ConfigMap = KubeObject & { readonly data?: Readonly<Record<string, string>> };

const server = await createTestApiServer(); // or your own cluster: any KubeConfig
server.create('configmaps', { metadata: { name: 'app', namespace: 'demo', labels: { mirror: 'yes' } }, data: { mode: 'fast' } });
const factory = informerFactory(server.kubeConfig);
const sources = factory.informer<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo' }, { labelSelector: 'mirror=yes' });
const copies = factory.informer<ConfigMap>({ version: 'v1', plural: 'configmaps', namespace: 'demo' }, { indexers: { owner: byControllerOwner } });
const client = resourceClient(server.kubeConfig, { fieldManager: 'mirror-controller' });
const outcomes = controller(sources, {
  owns: [copies],
  reconcile: async (source) => {
    if (source === undefined) return; // deleted: the garbage collector takes its copy
    const copy = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${source.metadata!.name}-copy`, namespace: 'demo' }, data: source.data ?? {} };
    await createOrUpdate(client, copies.snapshot.get('demo', copy.metadata.name), copy, { owner: source });
  },
});
const { key, result } = await firstValueFrom(outcomes); // runs the controller until its first outcome
console.log(key, result, server.get('configmaps', 'demo', 'app-copy')?.['data']);
factory.dispose(); await server.close();
