import { KubeConfig } from '@kubernetes/client-node';
import { informer, listWatch, stripManagedFields } from 'rx-informer';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault(); // $KUBECONFIG, ~/.kube/config, or in-cluster
const source = listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, {
  transform: stripManagedFields,
  onStatus: (status) => status.type === 'ERROR' && console.error(status.error.message),
});
const configMaps = informer(source);
configMaps.changes$.subscribe((change) => console.log(change.type, change.key));
configMaps.whenSynced().then((snapshot) => console.log(`synced: ${snapshot.size} ConfigMaps`));
