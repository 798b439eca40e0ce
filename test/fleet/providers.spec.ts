/*
 * The providers against real things (real time; waits on conditions, never a set time): kubeconfig
 * files in a temporary directory, kubeconfig Secrets in a test-server hub, namespaces as clusters.
 */
import test from 'ava';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import type { ClusterEngagement } from '../../src/fleet/clusterEngagement.js';
import { fleetFactory } from '../../src/fleet/fleetFactory.js';
import { kubeconfigDirectory } from '../../src/fleet/kubeconfigDirectory.js';
import { kubeconfigSecretLabel, kubeconfigSecrets } from '../../src/fleet/kubeconfigSecrets.js';
import { namespaceClusters } from '../../src/fleet/namespaceClusters.js';
import { clusterProfiles } from '../../src/fleet/clusterProfiles.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

/** Follows a provider: the engaged clusters by name, with the server of their latest credentials. */
function follow(provider: import('../../src/fleet/clusterEngagement.js').FleetProvider): { readonly clusters: Map<string, string>; readonly engagements: number; readonly subscription: Subscription; failed: unknown } {
  const clusters = new Map<string, string>();
  const state = { clusters, engagements: 0, failed: undefined as unknown, subscription: undefined as unknown as Subscription };
  state.subscription = provider.subscribe({
    next: (e: ClusterEngagement) => {
      state.engagements++;
      e.credentials$.subscribe({ next: (kc) => clusters.set(e.cluster, kc.getCurrentCluster()!.server), complete: () => clusters.delete(e.cluster) });
    },
    error: (error: unknown) => (state.failed = error),
  });
  return state;
}

test.serial('kubeconfig files in a directory: a file added engages, changed re-engages, removed releases; a half-written file is reported and read again', async (t) => {
  const directory = await mkdtemp(join(tmpdir(), 'rx-informer-fleet-'));
  const [east, west] = await Promise.all([createTestApiServer(), createTestApiServer()]);
  try {
    await east.writeKubeConfig(join(directory, 'east.yaml'));
    const invalid: string[] = [];
    const followed = follow(kubeconfigDirectory(directory, { onInvalid: (file) => invalid.push(file) }));
    await until(() => followed.clusters.get('east') === east.url, 'east engaged from the first scan');

    await west.writeKubeConfig(join(directory, '.west.tmp'));
    await rename(join(directory, '.west.tmp'), join(directory, 'west.kubeconfig')); // an atomic write
    await until(() => followed.clusters.get('west') === west.url, 'west engaged when its file appeared');

    await writeFile(join(directory, 'east.yaml'), 'clusters: [');
    await until(() => invalid.includes('east.yaml'), 'the half-written file reported');
    t.is(followed.clusters.get('east'), east.url, 'east keeps its credentials meanwhile');
    await west.writeKubeConfig(join(directory, 'east.yaml'));
    await until(() => followed.clusters.get('east') === west.url, 'east re-engaged with the new credentials');
    t.is(followed.engagements, 2, 'a re-engagement is a new value of the same engagement');

    await rm(join(directory, 'west.kubeconfig'));
    await until(() => !followed.clusters.has('west'), 'west released when its file went');
    t.deepEqual([...followed.clusters.keys()], ['east']);
    followed.subscription.unsubscribe();
    t.is(followed.failed, undefined);
  } finally {
    await Promise.all([east.close(), west.close(), rm(directory, { recursive: true, force: true })]);
  }
});

test.serial('a missing directory ends the provider with its error', async (t) => {
  const followed = follow(kubeconfigDirectory(join(tmpdir(), 'rx-informer-fleet-missing-directory')));
  t.truthy(followed.failed);
});

test.serial('kubeconfig Secrets in a hub, selected by label: created engages, changed re-engages, unlabelled or deleted releases; a fleet over them follows each cluster', async (t) => {
  const [hub, east, west] = await Promise.all([createTestApiServer({ resources: [{ group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true }] }), createTestApiServer(), createTestApiServer()]);
  try {
    east.seed('configmaps', [{ metadata: { name: 'in-east', namespace: 'default' } }]);
    west.seed('configmaps', [{ metadata: { name: 'in-west', namespace: 'default' } }]);
    const secret = (name: string, text: string, labelled = true) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace: 'fleet', ...(labelled ? { labels: { [kubeconfigSecretLabel]: 'true' } } : {}) },
      data: { kubeconfig: Buffer.from(text).toString('base64') },
    });
    hub.create('secrets', secret('east', east.kubeConfigText()));
    hub.create('secrets', secret('ignored', west.kubeConfigText(), false));
    const fleet = fleetFactory(kubeconfigSecrets(hub.kubeConfig, { namespace: 'fleet' }));
    const configMaps = fleet.informer({ version: 'v1', plural: 'configmaps' });
    await until(() => fleet.clusters.has('east'), 'east engaged');
    t.deepEqual([...fleet.clusters.keys()], ['east']);
    await configMaps.whenSynced();
    t.deepEqual([...configMaps.cluster('east')!.snapshot.keys()], ['default/in-east']);

    hub.patch('secrets', 'fleet', 'east', { data: { kubeconfig: Buffer.from(west.kubeConfigText()).toString('base64') } });
    await until(() => fleet.clusters.get('east')?.kubeConfig.getCurrentCluster()?.server === west.url, 'east re-engaged with new credentials');
    await configMaps.whenSynced();
    t.deepEqual([...configMaps.cluster('east')!.snapshot.keys()], ['default/in-west']);
    await until(() => east.openWatchCount === 0, "the old server's watch to end");

    hub.patch('secrets', 'fleet', 'ignored', { metadata: { labels: { [kubeconfigSecretLabel]: 'true' } } });
    await until(() => fleet.clusters.has('ignored'), 'a Secret labelled later engaged');
    hub.patch('secrets', 'fleet', 'ignored', { metadata: { labels: { [kubeconfigSecretLabel]: null } } });
    await until(() => !fleet.clusters.has('ignored'), 'a Secret unlabelled released');
    hub.delete('secrets', 'fleet', 'east');
    await until(() => fleet.clusters.size === 0, 'east released');
    fleet.dispose();
    await until(() => west.openWatchCount === 0 && hub.openWatchCount === 0, 'every watch to end');
  } finally {
    await Promise.all([hub.close(), east.close(), west.close()]);
  }
});

test.serial('namespaces as clusters: each namespace a cluster whose informers read in it; a namespace deleted leaves', async (t) => {
  const server = await createTestApiServer();
  try {
    for (const ns of ['team-a', 'team-b']) server.create('namespaces', { metadata: { name: ns, labels: { fleet: 'demo' } } });
    server.create('namespaces', { metadata: { name: 'other' } });
    server.create('configmaps', { metadata: { name: 'a1', namespace: 'team-a' } });
    server.create('configmaps', { metadata: { name: 'b1', namespace: 'team-b' } });
    const fleet = fleetFactory(namespaceClusters(server.kubeConfig, { labelSelector: 'fleet=demo' }));
    const configMaps = fleet.informer({ version: 'v1', plural: 'configmaps' });
    const told: string[] = [];
    configMaps.changes$.subscribe((c) => told.push(`${c.cluster} ${c.type} ${c.key}`));
    await until(() => fleet.clusters.size === 2, 'two namespaces engaged');
    await configMaps.whenSynced();
    await until(() => told.length === 2, 'the two adds');
    t.deepEqual(told.sort(), ['team-a add team-a/a1', 'team-b add team-b/b1']);
    server.delete('namespaces', undefined, 'team-a');
    await until(() => told.length === 3, 'the delete of team-a');
    t.is(told[2], 'team-a delete team-a/a1');
    fleet.dispose();
    await until(() => server.openWatchCount === 0, 'every watch to end');
  } finally {
    await server.close();
  }
});

test.serial('ClusterProfiles with status.accessProviders and an exec plugin: the plugin gets the cluster in KUBERNETES_EXEC_INFO and its token reaches the cluster; a new server re-engages, a deleted profile releases', async (t) => {
  const [hub, target, moved] = await Promise.all([
    createTestApiServer({ resources: [{ group: 'multicluster.x-k8s.io', version: 'v1alpha1', plural: 'clusterprofiles', kind: 'ClusterProfile', namespaced: true }] }),
    createTestApiServer({ token: 'from-the-profile' }),
    createTestApiServer({ token: 'from-the-profile' }),
  ]);
  try {
    target.seed('configmaps', [{ metadata: { name: 'on-target', namespace: 'default' } }]);
    moved.seed('configmaps', [{ metadata: { name: 'on-moved', namespace: 'default' } }]);
    const profile = (server: string) => ({
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      kind: 'ClusterProfile',
      metadata: { name: 'member-1', namespace: 'fleet', labels: { 'x-k8s.io/cluster-manager': 'test' } },
      spec: { clusterManager: { name: 'test' } },
      status: {
        accessProviders: [
          { name: 'unknown-to-us', cluster: { server: 'https://127.0.0.1:1' } },
          { name: 'token-plugin', cluster: { server, 'insecure-skip-tls-verify': true, extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { token: 'from-the-profile' } }] } },
        ],
      },
    });
    hub.create('clusterprofiles.multicluster.x-k8s.io', profile(target.url));
    // The plugin answers with the token it finds in the cluster info client-go would hand it.
    const plugin = `const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO); console.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: info.spec.cluster.config.token } }))`;
    const fleet = fleetFactory(
      clusterProfiles(hub.kubeConfig, { providers: [{ name: 'token-plugin', execConfig: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: ['-e', plugin], provideClusterInfo: true } }] }, { namespace: 'fleet' }),
    );
    const configMaps = fleet.informer({ version: 'v1', plural: 'configmaps' });
    await until(() => fleet.clusters.has('member-1'), 'the profile engaged');
    await configMaps.whenSynced({ timeoutMs: 30_000 });
    t.deepEqual([...configMaps.cluster('member-1')!.snapshot.keys()], ['default/on-target'], 'listed with the exec token');

    hub.patch('clusterprofiles.multicluster.x-k8s.io', 'fleet', 'member-1', { status: { conditions: [{ type: 'ControlPlaneHealthy', status: 'True' }] } });
    hub.patch('clusterprofiles.multicluster.x-k8s.io', 'fleet', 'member-1', { status: { accessProviders: profile(moved.url).status.accessProviders } });
    await until(() => fleet.clusters.get('member-1')?.kubeConfig.getCurrentCluster()?.server === moved.url, 'the profile re-engaged on its new server');
    await configMaps.whenSynced({ timeoutMs: 30_000 });
    t.deepEqual([...configMaps.cluster('member-1')!.snapshot.keys()], ['default/on-moved']);

    hub.delete('clusterprofiles.multicluster.x-k8s.io', 'fleet', 'member-1');
    await until(() => fleet.clusters.size === 0, 'the profile released');
    fleet.dispose();
    await until(() => target.openWatchCount + moved.openWatchCount + hub.openWatchCount === 0, 'every watch to end');
  } finally {
    await Promise.all([hub.close(), target.close(), moved.close()]);
  }
});
