import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { CliError, cliFailure } from './cliError.js';

/** Where to load the kubeconfig from; the environment is passed in so tests need not touch the process's. */
export interface LoadKubeConfigConfig {
  /** `--kubeconfig`: this file only. */
  readonly path?: string;
  /** `--context`: use this context instead of the file's current one. */
  readonly context?: string;
  /** `--server`: this address instead of the current cluster's; with no kubeconfig, this server with no credentials. */
  readonly server?: string;
  /** Default `process.env` (`KUBECONFIG`, `KUBERNETES_SERVICE_HOST`, `HOME`). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Loads the kubeconfig as kubectl finds it: `--kubeconfig`, else `$KUBECONFIG`, else
 * `~/.kube/config`, else the in-cluster service account. Unlike client-node's `loadFromDefault`,
 * finding none is an error instead of a silent `http://localhost:8080`.
 *
 * @param config path, context and environment.
 * @returns the KubeConfig with the chosen context current.
 * @throws {CliError} when there is no kubeconfig, it cannot be read, or the context does not exist.
 */
export async function loadKubeConfig(config: LoadKubeConfigConfig = {}): Promise<KubeConfig> {
  const env = config.env ?? process.env;
  const KubeConfigClass = await kubeConfigClass();
  const kubeConfig = new KubeConfigClass();
  const fromEnv = (env['KUBECONFIG'] ?? '').split(delimiter).filter((file) => file !== '');
  const home = env['HOME'] ?? homedir();
  const defaultFile = home ? join(home, '.kube', 'config') : undefined;
  try {
    if (config.path !== undefined) {
      if (!existsSync(config.path)) throw cliFailure(`no kubeconfig at ${config.path} (from --kubeconfig)`);
      kubeConfig.loadFromFile(config.path);
    } else if (fromEnv.some((file) => existsSync(file))) {
      // As kubectl: the files that exist, merged, the first one's current context winning.
      const [first, ...rest] = fromEnv.filter((file) => existsSync(file));
      kubeConfig.loadFromFile(first!);
      for (const file of rest) {
        const more = new KubeConfigClass();
        more.loadFromFile(file);
        kubeConfig.mergeConfig(more);
      }
    } else if (defaultFile !== undefined && existsSync(defaultFile)) {
      kubeConfig.loadFromFile(defaultFile);
    } else if (env['KUBERNETES_SERVICE_HOST']) {
      kubeConfig.loadFromCluster();
    } else if (config.server !== undefined) {
      kubeConfig.loadFromOptions({ clusters: [{ name: 'server', server: config.server }], users: [{ name: 'anonymous' }], contexts: [{ name: 'server', cluster: 'server', user: 'anonymous' }], currentContext: 'server' });
    } else {
      const looked = [...fromEnv.map((file) => `${file} ($KUBECONFIG)`), ...(defaultFile ? [defaultFile] : [])].join(', ');
      throw cliFailure(
        `no kubeconfig found (looked in ${looked || 'nowhere: no $KUBECONFIG and no home directory'}); pass --kubeconfig <path>, set KUBECONFIG, or try rx-informer demo`,
      );
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw cliFailure(`cannot read the kubeconfig: ${(error as Error).message}`, error);
  }
  if (config.context !== undefined) {
    if (!kubeConfig.getContextObject(config.context)) {
      const known = kubeConfig.getContexts().map((c) => c.name);
      throw cliFailure(`context was not found for specified context: ${config.context} (the kubeconfig has: ${known.join(', ') || 'none'})`);
    }
    kubeConfig.setCurrentContext(config.context);
  }
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) {
    throw cliFailure(`the kubeconfig's context ${JSON.stringify(kubeConfig.getCurrentContext())} names no cluster; pass --context <name>`);
  }
  if (config.server !== undefined && cluster.server !== config.server) {
    // As kubectl's --server: the current context's cluster at another address, its user unchanged.
    const clusters = kubeConfig.clusters.map((c) => (c.name === cluster.name ? { ...c, server: config.server! } : c));
    kubeConfig.loadFromOptions({ clusters, users: kubeConfig.users, contexts: kubeConfig.contexts, currentContext: kubeConfig.currentContext });
  }
  return kubeConfig;
}

/** The namespace of the kubeconfig's current context, or `default`. */
export function contextNamespace(kubeConfig: KubeConfig): string {
  return kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace || 'default';
}

/** client-node's `KubeConfig` class, loaded when the CLI first needs it (the demo does not). */
async function kubeConfigClass(): Promise<typeof KubeConfig> {
  return (await import('./kubeConfigClass.js')).KubeConfig;
}
