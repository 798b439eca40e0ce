import type { KubeConfig } from '@kubernetes/client-node';
import { defer } from 'rxjs';
import { informer } from '../informer/informer.js';
import { listWatch } from '../sources/listWatch.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { FleetProvider } from './clusterEngagement.js';
import { loadKubeConfig } from './loadKubeConfig.js';
import { objectClusters } from './objectClusters.js';

/** A Secret as the provider reads it. */
export interface KubeconfigSecret extends KubeObject {
  /** The Secret's entries, base64-encoded; the kubeconfig is under `dataKey`. */
  readonly data?: Readonly<Record<string, string>>;
}

/** Options of {@link kubeconfigSecrets}. */
export interface KubeconfigSecretsOptions {
  /** The namespace of the Secrets; all namespaces when absent. */
  readonly namespace?: string;
  /** Which Secrets are clusters; default `sigs.k8s.io/multicluster-runtime-kubeconfig=true`, multicluster-runtime's label. */
  readonly labelSelector?: string;
  /** The data key holding the kubeconfig; default `kubeconfig` (Cluster API's `<cluster>-kubeconfig` Secrets use `value`). */
  readonly dataKey?: string;
  /** The cluster's name; default the Secret's name (for Cluster API, its `cluster.x-k8s.io/cluster-name` label). */
  readonly clusterName?: (secret: KubeconfigSecret) => string | undefined;
  /** Told of a Secret whose kubeconfig is missing or cannot be used (it is skipped; an engaged cluster keeps its credentials). */
  readonly onInvalid?: (key: string, error: unknown) => void;
}

/** multicluster-runtime's kubeconfig provider label. */
export const kubeconfigSecretLabel = 'sigs.k8s.io/multicluster-runtime-kubeconfig';

/**
 * A provider of the clusters whose kubeconfigs are Secrets in a hub cluster, selected by label
 * (the shape of multicluster-runtime's `kubeconfig` provider: label
 * `sigs.k8s.io/multicluster-runtime-kubeconfig: "true"`, the kubeconfig in `data.kubeconfig`, the
 * cluster named after the Secret). A Secret created engages its cluster, a changed kubeconfig
 * re-engages it, a Secret deleted or unlabelled releases it. The Secrets are followed with an
 * informer of the provider's own (one per subscription) over `hub`; it ends the provider when it
 * gives up for good, and retries otherwise.
 *
 * For Cluster API's Secrets:
 * ```ts
 * import type { KubeConfig } from '@kubernetes/client-node';
 * import { kubeconfigSecrets } from 'rx-informer/fleet';
 *
 * declare const hub: KubeConfig; // assuming: the management cluster's credentials
 * const clusters = kubeconfigSecrets(hub, {
 *   labelSelector: 'cluster.x-k8s.io/cluster-name',
 *   dataKey: 'value',
 *   clusterName: (secret) => secret.metadata?.labels?.['cluster.x-k8s.io/cluster-name'],
 * });
 * ```
 *
 * @param hub the credentials of the cluster that holds the Secrets.
 * @param options where the Secrets are and how they are read.
 */
export function kubeconfigSecrets(hub: KubeConfig, options: KubeconfigSecretsOptions = {}): FleetProvider {
  const dataKey = options.dataKey ?? 'kubeconfig';
  const clusterName = options.clusterName ?? ((secret: KubeconfigSecret) => secret.metadata?.name);
  const resource = { version: 'v1', plural: 'secrets', ...(options.namespace !== undefined ? { namespace: options.namespace } : {}) };
  const labelSelector = options.labelSelector ?? `${kubeconfigSecretLabel}=true`;
  return defer(() => informer<KubeconfigSecret>(listWatch<KubeconfigSecret>(hub, resource, { labelSelector }), { name: 'kubeconfig secrets (fleet provider)' }).changes$).pipe(
    objectClusters<KubeconfigSecret>((secret) => {
      const cluster = clusterName(secret);
      if (cluster === undefined || cluster === '') return undefined;
      const encoded = secret.data?.[dataKey];
      const where = `Secret ${secret.metadata?.namespace ?? ''}/${secret.metadata?.name ?? ''}`;
      if (encoded === undefined) throw new TypeError(`[fleet] ${where}: no data.${dataKey}`);
      return { cluster, identity: encoded, kubeConfig: () => loadKubeConfig(Buffer.from(encoded, 'base64').toString('utf8'), where) };
    }, options.onInvalid),
  );
}
