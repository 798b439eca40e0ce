import { KubeConfig } from '@kubernetes/client-node';
import { informer, listWatch, stripManagedFields } from 'rx-informer';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault(); // $KUBECONFIG, ~/.kube/config, or in-cluster
const configMaps = informer(listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, { transform: stripManagedFields }));
// status$ never errors: ERROR is a fault the source retries, FAILED one it gave up on (the other streams then error).
configMaps.status$.subscribe((status) => (status.type === 'ERROR' || status.type === 'FAILED') && console.error(status.type, status.error.message));
configMaps.changes$.subscribe({ next: (change) => console.log(change.type, change.key), error: () => (process.exitCode = 1) });
configMaps.connect(); // list, then watch, until the subscription it returns is unsubscribed
const synced = await configMaps.whenSynced({ timeoutMs: 60_000 }).catch(() => undefined); // rejects after 60 s or when the source gives up
if (synced) console.log(`synced: ${synced.size} ConfigMaps`);
