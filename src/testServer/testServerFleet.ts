import { clusterList } from '../fleet/clusterList.js';
import type { FleetProvider } from '../fleet/clusterEngagement.js';
import { createTestApiServer } from './createTestApiServer.js';
import type { TestApiServer, TestApiServerConfig } from './testApiServer.js';
import { argumentError } from '../options/optionChecks.js';

/** Test servers serving the clusters of a fleet; see {@link createTestServerFleet}. */
export interface TestServerFleet {
  /** The servers by cluster name (`cluster-0`, `cluster-1`, …, and those added later). */
  readonly servers: ReadonlyMap<string, TestApiServer>;
  /** The provider of the servers' clusters: every server engaged now, then those engaged later. */
  readonly provider: FleetProvider;
  /** Starts one more server and engages its cluster (default name: `cluster-<n>`). */
  add(name?: string): Promise<TestApiServer>;
  /** Engages the cluster of a server that was released. */
  engage(name: string): void;
  /** Releases a cluster from the provider; its server keeps running (to check what the fleet left behind). */
  release(name: string): void;
  /** The sum of the servers' open watches. */
  readonly openWatchCount: number;
  /** Closes every server. */
  close(): Promise<void>;
}

/**
 * Starts `count` in-process test API servers, one per cluster, and a provider over them: a fleet
 * for tests, demos and benchmarks without a real one. Each cluster is a server of its own (its own
 * port, resourceVersions and faults), so a cluster can be slowed, broken or closed alone.
 *
 * ## Example
 * ```ts
 * import { fleetFactory } from 'rx-informer/fleet';
 * import { createTestServerFleet } from 'rx-informer/test-server';
 *
 * const servers = await createTestServerFleet(3);
 * const fleet = fleetFactory(servers.provider);
 * const configMaps = fleet.informer({ version: 'v1', plural: 'configmaps' });
 * await fleet.whenAllSynced();
 * // …
 * fleet.dispose();
 * await servers.close();
 * ```
 *
 * @param count how many servers to start.
 * @param config the options of every server.
 */
export async function createTestServerFleet(count: number, config: TestApiServerConfig = {}): Promise<TestServerFleet> {
  const list = clusterList();
  const servers = new Map<string, TestApiServer>();
  const add = async (name = `cluster-${servers.size}`): Promise<TestApiServer> => {
    if (servers.has(name)) throw argumentError('createTestServerFleet', `a server named ${name} exists already`);
    const server = await createTestApiServer(config);
    servers.set(name, server);
    list.engage(name, server.kubeConfig);
    return server;
  };
  for (let i = 0; i < count; i++) await add();
  return {
    servers,
    provider: list.provider,
    add,
    engage(name) {
      const server = servers.get(name);
      if (server === undefined) throw argumentError('createTestServerFleet', `no server named ${name}`);
      list.engage(name, server.kubeConfig);
    },
    release: (name) => list.release(name),
    get openWatchCount() {
      let open = 0;
      for (const server of servers.values()) open += server.openWatchCount;
      return open;
    },
    async close() {
      for (const name of list.clusters) list.release(name);
      await Promise.all([...servers.values()].map((server) => server.close()));
    },
  };
}
