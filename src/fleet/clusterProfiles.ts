import { KubeConfig } from '@kubernetes/client-node';
import { defer } from 'rxjs';
import { informer } from '../informer/informer.js';
import { listWatch } from '../sources/listWatch.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { FleetProvider } from './clusterEngagement.js';
import { objectClusters } from './objectClusters.js';

/** How to reach a cluster, as a ClusterProfile's access provider gives it (kubeconfig's `cluster` fields). */
export interface ClusterProfileCluster {
  /** The cluster's API server URL, e.g. `https://10.0.0.1:6443`. */
  readonly server?: string;
  /** The CA bundle that signs the server's certificate, base64 PEM. */
  readonly 'certificate-authority-data'?: string;
  /** Skip verifying the server's certificate (tests only). */
  readonly 'insecure-skip-tls-verify'?: boolean;
  /** The name to verify the server's certificate against, when it is not the host of `server`. */
  readonly 'tls-server-name'?: string;
  /** An HTTP(S) proxy to reach the server through. */
  readonly 'proxy-url'?: string;
  /** `client.authentication.k8s.io/exec`'s `extension` is handed to the exec plugin (with `provideClusterInfo`). */
  readonly extensions?: ReadonlyArray<{
    /** The extension's name, e.g. `client.authentication.k8s.io/exec`. */
    readonly name: string;
    /** The extension's content. */
    readonly extension?: unknown;
  }>;
}

/** A `ClusterProfile` (`multicluster.x-k8s.io/v1alpha1`, KEP-4322) as the provider reads it. */
export interface ClusterProfile extends KubeObject {
  /** What the cluster manager reports of the cluster: how to reach it. */
  readonly status?: {
    /** The ways to reach the cluster, by access provider name. */
    readonly accessProviders?: ReadonlyArray<{
      /** The access provider's name, matched with the consumer's `providers`. */
      readonly name: string;
      /** How to reach the cluster through it. */
      readonly cluster?: ClusterProfileCluster;
    }>;
    /** The deprecated name of `accessProviders`; read too, `accessProviders` preferred for a name in both. */
    readonly credentialProviders?: ReadonlyArray<{
      /** The access provider's name, matched with the consumer's `providers`. */
      readonly name: string;
      /** How to reach the cluster through it. */
      readonly cluster?: ClusterProfileCluster;
    }>;
  };
}

/** An exec credential plugin, as a kubeconfig user's `exec` names it. */
export interface ExecPluginConfig {
  /** The ExecCredential version the plugin speaks, e.g. `client.authentication.k8s.io/v1`. */
  readonly apiVersion: string;
  /** The program to run. */
  readonly command: string;
  /** Its arguments. Default: none. */
  readonly args?: readonly string[];
  /** Environment variables set for it. Default: none. */
  readonly env?: ReadonlyArray<{
    /** The variable's name. */
    readonly name: string;
    /** The variable's value. */
    readonly value: string;
  }>;
  /** Hand the plugin the cluster (server, CA, the profile's exec extension) in `KUBERNETES_EXEC_INFO`, as client-go does. */
  readonly provideClusterInfo?: boolean;
}

/**
 * The consumer's side: which access providers it can use and the exec plugin that gets credentials
 * for each (the shape of the Cluster Inventory API's provider file: `{ providers: [{ name,
 * execConfig }] }`). The first of these a profile offers is used.
 */
export interface ClusterProfileAccess {
  /** The access providers this consumer can use, in order of preference. */
  readonly providers: ReadonlyArray<{
    /** The access provider's name, as profiles list it in `accessProviders`. */
    readonly name: string;
    /** The exec plugin that gets credentials for clusters reached through it. */
    readonly execConfig: ExecPluginConfig;
  }>;
}

/** Options of {@link clusterProfiles}. */
export interface ClusterProfilesOptions {
  /** The namespace of the profiles (a ClusterSet is one namespace); all namespaces when absent. */
  readonly namespace?: string;
  /** Only the profiles with these labels (e.g. `x-k8s.io/cluster-manager=fleet-a`). */
  readonly labelSelector?: string;
  /** The cluster's name; default the profile's name. */
  readonly clusterName?: (profile: ClusterProfile) => string | undefined;
  /** Told of a profile that offers none of the consumer's access providers, or no server. */
  readonly onInvalid?: (key: string, error: unknown) => void;
}

const execExtension = 'client.authentication.k8s.io/exec';

/**
 * A provider of the clusters of the Cluster Inventory API: `ClusterProfile`s
 * (`multicluster.x-k8s.io/v1alpha1`) in a hub, with the access of `status.accessProviders` and
 * credentials from exec plugins. For each profile, the first of `access.providers` the profile
 * offers gives the server and CA (from the profile) and the exec plugin (from `access`); with
 * `provideClusterInfo`, the plugin gets the cluster and the profile's exec extension in
 * `KUBERNETES_EXEC_INFO`, as client-go hands it. A profile created engages its cluster, a change of
 * its access re-engages it (a status update that leaves the access alone does not), a profile
 * deleted releases it. The profiles are followed with an informer of the provider's own.
 *
 * @param hub the credentials of the cluster that holds the profiles.
 * @param access the consumer's access providers and their exec plugins.
 * @param options where the profiles are and how they are named.
 */
export function clusterProfiles(hub: KubeConfig, access: ClusterProfileAccess, options: ClusterProfilesOptions = {}): FleetProvider {
  const clusterName = options.clusterName ?? ((profile: ClusterProfile) => profile.metadata?.name);
  const resource = { group: 'multicluster.x-k8s.io', version: 'v1alpha1', plural: 'clusterprofiles', ...(options.namespace !== undefined ? { namespace: options.namespace } : {}) };
  const config = options.labelSelector !== undefined ? { labelSelector: options.labelSelector } : {};
  return defer(() => informer<ClusterProfile>(listWatch<ClusterProfile>(hub, resource, config), { name: 'cluster profiles (fleet provider)' }).changes$).pipe(
    objectClusters<ClusterProfile>((profile) => {
      const cluster = clusterName(profile as ClusterProfile);
      if (cluster === undefined || cluster === '') return undefined;
      const offered = new Map<string, ClusterProfileCluster | undefined>();
      for (const provider of profile.status?.credentialProviders ?? []) offered.set(provider.name, provider.cluster);
      for (const provider of profile.status?.accessProviders ?? []) offered.set(provider.name, provider.cluster);
      const where = `ClusterProfile ${profile.metadata?.namespace ?? ''}/${profile.metadata?.name ?? ''}`;
      const chosen = access.providers.find((provider) => offered.get(provider.name)?.server !== undefined);
      if (chosen === undefined) throw new TypeError(`[fleet] ${where}: offers none of the access providers ${access.providers.map((p) => p.name).join(', ')} with a server`);
      const target = offered.get(chosen.name)!;
      return { cluster, identity: JSON.stringify([chosen.name, target]), kubeConfig: () => profileKubeConfig(cluster, target, chosen.execConfig) };
    }, options.onInvalid),
  );
}

/** A KubeConfig for a profile's cluster with an exec plugin's credentials. */
function profileKubeConfig(name: string, target: ClusterProfileCluster, exec: ExecPluginConfig): KubeConfig {
  const env = [...(exec.env ?? [])];
  if (exec.provideClusterInfo === true) {
    const extension = target.extensions?.find((entry) => entry.name === execExtension)?.extension;
    const cluster = {
      server: target.server,
      ...(target['certificate-authority-data'] !== undefined ? { 'certificate-authority-data': target['certificate-authority-data'] } : {}),
      ...(target['insecure-skip-tls-verify'] !== undefined ? { 'insecure-skip-tls-verify': target['insecure-skip-tls-verify'] } : {}),
      ...(target['tls-server-name'] !== undefined ? { 'tls-server-name': target['tls-server-name'] } : {}),
      ...(extension !== undefined ? { config: extension } : {}),
    };
    env.push({ name: 'KUBERNETES_EXEC_INFO', value: JSON.stringify({ apiVersion: exec.apiVersion, kind: 'ExecCredential', spec: { cluster, interactive: false } }) });
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [
      {
        name,
        server: target.server!,
        ...(target['certificate-authority-data'] !== undefined ? { caData: target['certificate-authority-data'] } : {}),
        skipTLSVerify: target['insecure-skip-tls-verify'] === true,
        ...(target['tls-server-name'] !== undefined ? { tlsServerName: target['tls-server-name'] } : {}),
        ...(target['proxy-url'] !== undefined ? { proxyUrl: target['proxy-url'] } : {}),
      },
    ],
    users: [{ name, exec: { apiVersion: exec.apiVersion, command: exec.command, args: [...(exec.args ?? [])], env, interactiveMode: 'Never' } }],
    contexts: [{ name, cluster: name, user: name }],
    currentContext: name,
  });
  return kubeConfig;
}
