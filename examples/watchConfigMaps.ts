import { KubeConfig } from '@kubernetes/client-node';
import { informer, listWatch, stripManagedFields } from 'rx-informer';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault(); // $KUBECONFIG, ~/.kube/config, or in-cluster
const configMaps = informer(listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, { transform: stripManagedFields }));
configMaps.status$.subscribe((status) => status.type === 'ERROR' && console.error(status.error.message));
configMaps.changes$.subscribe((change) => console.log(change.type, change.key));
configMaps.connect(); // list, then watch, until the subscription it returns is unsubscribed
await configMaps.whenSynced({ timeoutMs: 60_000 }); // rejects with the last error if the server cannot be reached
console.log(`synced: ${configMaps.snapshot.size} ConfigMaps`);
