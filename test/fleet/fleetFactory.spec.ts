/*
 * The fleet factory over test servers, one per cluster (real time; waits on conditions): engage,
 * a handler registered before the clusters engage, leave (deletes, then 0 watches and the
 * process's handles back to where they were), re-engage with new credentials, the same cluster
 * from two providers, a provider error and bad credentials. Serial: handles are process-wide.
 */
import test from 'ava';
import type { KubeConfig } from '@kubernetes/client-node';
import { concat, merge, NEVER, throwError, timer, mergeMap } from 'rxjs';
import { clusterList } from '../../src/fleet/clusterList.js';
import { fleetFactory } from '../../src/fleet/fleetFactory.js';
import type { FleetError } from '../../src/fleet/fleetError.js';
import { createTestApiServer, createTestServerFleet } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';
import { isTombstone } from '../../src/store/delta.js';

const configMaps = { version: 'v1', plural: 'configmaps' } as const;
const cms = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}${i}`, namespace: 'default' } }));
const handles = (): Map<string, number> => {
  const m = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
};
const extra = (base: Map<string, number>): string[] => [...handles()].filter(([k, v]) => v > (base.get(k) ?? 0)).map(([k, v]) => `${k}×${v - (base.get(k) ?? 0)}`);

test.serial('a handler registered before any cluster engages sees every first list; a cluster that leaves is a delete per object, then 0 watches; dispose leaves no watch, socket or timer', async (t) => {
  const servers = await createTestServerFleet(3);
  try {
    for (const [name, server] of servers.servers) server.seed('configmaps', cms(`${name}-`, 5));
    const base = handles();
    const list = clusterList();
    const fleet = fleetFactory(list.provider);
    const informer = fleet.informer(configMaps);
    const seen = new Set<string>();
    const initial: string[] = [];
    informer.addHandler({
      onAdd: (cluster, object, isInInitialList) => {
        seen.add(`${cluster}/${object.metadata!.name!}`);
        if (isInInitialList) initial.push(cluster);
      },
      onDelete: (cluster, object) => seen.delete(`${cluster}/${isTombstone(object) ? object.key : object.metadata!.name!}`),
    });
    let latest: ReadonlyMap<string, { readonly size: number }> = new Map();
    informer.snapshots$.subscribe((snapshots) => (latest = snapshots));
    for (const [name, server] of servers.servers) list.engage(name, server.kubeConfig);
    await fleet.whenAllSynced();
    await until(() => seen.size === 15, 'the 15 initial adds');
    t.is(initial.length, 15);
    t.deepEqual([...fleet.clusters.keys()].sort(), ['cluster-0', 'cluster-1', 'cluster-2']);
    t.is(informer.cluster('cluster-1')?.snapshot.size, 5, "each cluster's own informer is at hand");
    t.is(informer.snapshot.get('cluster-2')?.size, 5);
    await until(() => latest.size === 3, 'snapshots$ with the three clusters');
    t.deepEqual([...latest].map(([name, snapshot]) => [name, snapshot.size]).sort(), [['cluster-0', 5], ['cluster-1', 5], ['cluster-2', 5]]);

    // A handler registered after the sync gets the caches as initial adds.
    let late = 0;
    const lateHandler = informer.addHandler({ onAdd: (_c, _o, isInInitialList) => void (isInInitialList && late++) });
    t.is(late, 15);
    lateHandler.unsubscribe();

    const leaving = servers.servers.get('cluster-1')!;
    await until(() => leaving.openWatchCount === 1, "cluster-1's watch");
    list.release('cluster-1');
    t.is(seen.size, 10, 'the deletes are told at once, before the watch ends');
    t.false([...seen].some((key) => key.startsWith('cluster-1/')));
    t.deepEqual([...latest.keys()].sort(), ['cluster-0', 'cluster-2'], 'snapshots$ without the cluster that left');
    await until(() => leaving.openWatchCount === 0, "cluster-1's watch to end");

    fleet.dispose();
    t.is(seen.size, 0, 'dispose tells every delete');
    await until(() => servers.openWatchCount === 0, 'every watch to end');
    await until(() => extra(base).length === 0, 'the handles back to the baseline').catch(() => undefined);
    t.deepEqual(extra(base), []);
  } finally {
    await servers.close();
  }
});

test.serial('re-engaged with new credentials: the readers are told the difference, and the old server is let go', async (t) => {
  const [first, second] = await Promise.all([createTestApiServer(), createTestApiServer()]);
  try {
    first.seed('configmaps', cms('same', 2).concat(cms('gone', 1)));
    second.seed('configmaps', cms('same', 2).concat(cms('new', 1)));
    const list = clusterList();
    const fleet = fleetFactory(list.provider);
    const informer = fleet.informer(configMaps);
    const told: string[] = [];
    informer.changes$.subscribe((c) => told.push(`${c.cluster} ${c.type} ${c.key}`));
    list.engage('moving', first.kubeConfig);
    await fleet.whenAllSynced();
    told.length = 0;
    list.engage('moving', second.kubeConfig);
    await fleet.whenAllSynced();
    await until(() => told.length === 4, 'the difference');
    t.deepEqual(told.sort(), ['moving add default/new0', 'moving delete default/gone0', 'moving update default/same0', 'moving update default/same1']);
    await until(() => first.openWatchCount === 0, 'the old watch to end');
    await until(() => second.openWatchCount === 1, 'the new watch');
    fleet.dispose();
    await until(() => second.openWatchCount === 0, 'the new watch to end');
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});

test.serial('the same cluster from two providers: the first wins, the second is reported and takes over when the first leaves', async (t) => {
  const [one, two] = await Promise.all([createTestApiServer(), createTestApiServer()]);
  try {
    one.seed('configmaps', cms('one', 1));
    two.seed('configmaps', cms('two', 1));
    const a = clusterList();
    const b = clusterList();
    const fleet = fleetFactory([a.provider, b.provider]);
    const errors: FleetError[] = [];
    fleet.errors$.subscribe((e) => errors.push(e));
    const informer = fleet.informer(configMaps);
    a.engage('x', one.kubeConfig);
    b.engage('x', two.kubeConfig);
    t.deepEqual(errors.map((e) => [e.reason, e.cluster]), [['duplicateCluster', 'x']]);
    await fleet.whenAllSynced();
    t.deepEqual([...informer.cluster('x')!.snapshot.keys()], ['default/one0']);
    a.release('x');
    t.is(fleet.clusters.get('x')?.kubeConfig, two.kubeConfig, 'the waiting engagement took over');
    await fleet.whenAllSynced();
    t.deepEqual([...informer.cluster('x')!.snapshot.keys()], ['default/two0']);
    await until(() => one.openWatchCount === 0, "the first's watch to end");
    b.release('x');
    t.is(fleet.clusters.size, 0);
    fleet.dispose();
    await until(() => two.openWatchCount === 0, "the second's watch to end");
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
});

test.serial('a provider error is reported and its clusters stay engaged and followed; bad credentials are reported and engage nothing', async (t) => {
  const server = await createTestApiServer();
  try {
    const list = clusterList();
    list.engage('kept', server.kubeConfig);
    const failing = merge(list.provider, timer(0).pipe(mergeMap(() => throwError(() => new Error('hub unreachable')))));
    const bad = concat([{ cluster: 'bad', credentials$: concat([{} as KubeConfig], NEVER) }], NEVER);
    const errors: FleetError[] = [];
    const fleet = fleetFactory([failing, bad], { onError: (e) => errors.push(e) });
    const informer = fleet.informer(configMaps);
    await until(() => errors.some((e) => e.reason === 'provider'), 'the provider error');
    t.deepEqual([...fleet.clusters.keys()], ['kept']);
    t.true(errors.some((e) => e.reason === 'credentials' && e.cluster === 'bad'), errors.map((e) => e.message).join('\n'));
    await fleet.whenAllSynced();
    server.create('configmaps', cms('after', 1)[0]!);
    await until(() => informer.cluster('kept')!.snapshot.size === 1, 'the kept cluster still followed');
    fleet.dispose();
    await until(() => server.openWatchCount === 0, 'the watch to end');
  } finally {
    await server.close();
  }
});

test.serial("a throwing handler is reported with the cluster and the key, and goes on", async (t) => {
  const server = await createTestApiServer();
  try {
    server.seed('configmaps', cms('c', 2));
    const list = clusterList();
    const errors: FleetError[] = [];
    const fleet = fleetFactory(list.provider, { onError: (e) => errors.push(e) });
    const informer = fleet.informer(configMaps);
    const added: string[] = [];
    informer.addHandler({
      onAdd: (_cluster, object) => {
        added.push(object.metadata!.name!);
        if (added.length === 1) throw new Error('boom');
      },
    });
    list.engage('one', server.kubeConfig);
    await until(() => added.length === 2, 'both adds, the first one throwing');
    t.deepEqual(errors.map((e) => [e.reason, e.cluster]), [['handler', 'one']]);
    t.regex(errors[0]!.message, /cluster:\/\/one\/default\/c0: boom/);
    fleet.dispose();
    await until(() => server.openWatchCount === 0, 'the watch to end');
  } finally {
    await server.close();
  }
});
