/**
 * A label-selector view: the server filters with `labelSelector` (only matching ConfigMaps are
 * listed and watched), and the snapshot filters again on the client with `list({ labelSelector })`.
 *
 * Run: npx tsx examples/labelSelectorView.ts 'app=web' 'tier in (front)'   (uses $KUBECONFIG or ~/.kube/config)
 */
import { KubeConfig } from '@kubernetes/client-node';
import { informer, listWatch } from 'rx-informer';

const [serverSelector = 'app', clientSelector = ''] = process.argv.slice(2);
const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault();
const view = informer(listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, { labelSelector: serverSelector }));

view.changes$.subscribe((change) => {
  const matching = view.snapshot.list({ labelSelector: clientSelector });
  console.log(`${change.type} ${change.key}: ${view.snapshot.size} match "${serverSelector}", ${matching.length} of them also "${clientSelector}"`);
});
