/**
 * The acceptance scenarios of the production controller runtime (issue 22), over real HTTP against
 * the in-process API server. Each counts what happened (runs, their order, their outcomes), never
 * how long it took; each runs once with the feature and once without, so it shows what it fixes.
 */
import test from 'ava';
import type { Subscription } from 'rxjs';
import { resourceClient } from '../../src/client/resourceClient.js';
import { controller } from '../../src/controller/controller.js';
import type { ControllerOutcome } from '../../src/controller/reconcileObjects.js';
import { finalizer } from '../../src/controller/writes/finalizer.js';
import { ControllerError } from '../../src/errors.js';
import { informerFactory } from '../../src/informer/informerFactory.js';
import { compareResourceVersions } from '../../src/store/compareResourceVersions.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

interface Widget extends KubeObject {
  readonly spec?: { readonly value?: string };
}
const widgets = { group: 'demo.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true } as const;
const widgetKind = { apiVersion: 'demo.example.com/v1', kind: 'Widget' } as const;
const widget = (name: string, extra: Record<string, unknown> = {}) => ({ ...widgetKind, metadata: { name, namespace: 'n', ...extra }, spec: { value: '0' } });
const isConflict = (o: ControllerOutcome) => o.result !== 'success' && o.error instanceof ControllerError && o.error.reason === 'conflict';

/** A primary edited by the locked draft edit at every run, re-triggered every 40 ms by a watched object, behind 300 ms of watch lag. */
async function lockedEditUnderLag(readYourWrites: boolean, runs: number) {
  const server = await createTestApiServer({ resources: [widgets] });
  server.create('widgets.demo.example.com', widget('a'));
  server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'tick', namespace: 'n' }, data: { n: '0' } });
  const factory = informerFactory(server.kubeConfig);
  const client = resourceClient(server.kubeConfig, { fieldManager: 'lag-test' });
  const primary = factory.informer<Widget>({ ...widgetKind, namespace: 'n' });
  const ticks = factory.informer({ version: 'v1', plural: 'configmaps', namespace: 'n' });
  let lastWritten: string | undefined;
  let started = 0;
  let startedStale = 0;
  const outcomes: ControllerOutcome[] = [];
  const subscription: Subscription = controller(primary, {
    watches: [{ informer: ticks, map: () => [{ namespace: 'n', name: 'a' }], name: 'tick' }],
    readYourWrites,
    reconcile: async (w, { signal }) => {
      if (w === undefined) return;
      started++;
      const have = w.metadata!.resourceVersion!;
      if (lastWritten !== undefined && compareResourceVersions(have, lastWritten)! < 0) startedStale++;
      const written = await client.edit(w, (draft) => void (draft.spec = { value: String(Number(draft.spec?.value ?? 0) + 1) }), { signal });
      lastWritten = written.metadata!.resourceVersion!;
    },
  }).subscribe((outcome) => outcomes.push(outcome));
  let tick = 0;
  try {
    await primary.whenSynced();
    await ticks.whenSynced();
    server.lagWatches(300, 'widgets');
    const ticker = setInterval(() => server.patch('configmaps', 'n', 'tick', { data: { n: String(++tick) } }), 40);
    try {
      await until(() => outcomes.length >= runs, `${runs} runs`);
    } finally {
      clearInterval(ticker);
    }
    return { started, startedStale, conflicts: outcomes.filter(isConflict).length, ticks: tick };
  } finally {
    subscription.unsubscribe();
    client.close();
    factory.dispose();
    await server.close();
  }
}

test('300 ms of watch lag, the locked draft edit, a trigger every 40 ms: no run starts from an object older than its own last write, no conflict', async (t) => {
  const on = await lockedEditUnderLag(true, 8);
  t.true(on.ticks > on.started, `triggers came faster than runs (${on.ticks} triggers, ${on.started} runs)`);
  t.is(on.startedStale, 0, 'runs started from an object older than the last write');
  t.is(on.conflicts, 0, 'conflict outcomes');
  t.log('with read-your-own-writes', on);
  const off = await lockedEditUnderLag(false, 8);
  t.log('without', off);
  t.true(off.startedStale > 0, `without read-your-own-writes some runs start stale (${off.startedStale} of ${off.started})`);
  t.true(off.conflicts > 0, `without read-your-own-writes they end in conflicts (${off.conflicts})`);
});

/** A widget with a finalizer is deleted; during its cleanup another writer patches it; the watch lags 300 ms. */
async function cleanupWithAnotherWriter(readYourWrites: boolean) {
  const server = await createTestApiServer({ resources: [widgets] });
  server.create('widgets.demo.example.com', widget('a', { finalizers: ['demo.example.com/cleanup'] }));
  const factory = informerFactory(server.kubeConfig);
  const client = resourceClient(server.kubeConfig, { fieldManager: 'finalizer-test' });
  const primary = factory.informer<Widget>({ ...widgetKind, namespace: 'n' });
  let cleanups = 0;
  let undefinedRuns = 0;
  const outcomes: ControllerOutcome[] = [];
  const subscription = controller(primary, {
    readYourWrites,
    reconcile: async (w, { signal }) => {
      if (w === undefined) return void undefinedRuns++;
      await finalizer(
        client,
        'demo.example.com/cleanup',
        w,
        {
          apply: () => undefined,
          cleanup: async () => {
            cleanups++;
            if (cleanups > 1) return;
            // Another writer changes the object while the cleanup runs; wait until the cache saw it, so a run is due after this one.
            server.patch('widgets.demo.example.com', 'n', 'a', { metadata: { labels: { touched: 'yes' } } });
            await until(() => primary.snapshot.get('n/a')?.metadata?.labels?.['touched'] === 'yes', 'the other write in the cache');
          },
        },
        { signal },
      );
    },
  }).subscribe((outcome) => outcomes.push(outcome));
  try {
    await primary.whenSynced();
    await until(() => outcomes.length >= 1, 'the first run');
    server.lagWatches(300, 'widgets');
    server.delete('widgets.demo.example.com', 'n', 'a');
    await until(() => server.get('widgets.demo.example.com', 'n', 'a') === undefined, 'the widget gone');
    // Either way, the deletion reaches the cache in the end and the object is reconciled as gone.
    await until(() => undefinedRuns >= 1, 'a run of the deleted object');
    return { cleanups, conflicts: outcomes.filter(isConflict).length };
  } finally {
    subscription.unsubscribe();
    client.close();
    factory.dispose();
    await server.close();
  }
}

test('a finalizer cleanup runs once when another writer patched during it', async (t) => {
  const on = await cleanupWithAnotherWriter(true);
  t.is(on.cleanups, 1);
  t.is(on.conflicts, 0);
  t.log('with read-your-own-writes', on);
  // Without read-your-own-writes the stale cache hands the run the version from before the
  // finalizer's removal; finalizer() asks the write record, which every resourceClient() write
  // still goes to, sees that this process finalized that uid and leaves it alone (before it
  // checked, the cleanup ran twice and the removal was a conflict).
  const off = await cleanupWithAnotherWriter(false);
  t.log('without', off);
  t.is(off.cleanups, 1, `without read-your-own-writes the write record still keeps the cleanup to one (${off.cleanups} cleanups)`);
  t.is(off.conflicts, 0, 'and no removal is tried again');
});

/** 3,000 synced primaries, a 2 ms reconciler, one worker; one primary changes while the initial backlog drains. */
async function freshChangeDuringBacklog(priority: boolean) {
  const n = 3_000;
  const server = await createTestApiServer();
  for (let i = 0; i < n; i++) server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'n' }, data: { v: '0' } });
  const factory = informerFactory(server.kubeConfig);
  const primary = factory.informer({ version: 'v1', plural: 'configmaps', namespace: 'n' });
  const order: string[] = [];
  let changedAt = -1;
  const subscription = controller(primary, {
    priority,
    reconcile: async (cm, { reasons }) => {
      order.push(reasons.some((r) => r.type === 'changed') ? `changed ${cm?.metadata?.name}` : String(cm?.metadata?.name));
      await new Promise((resolve) => setTimeout(resolve, 2));
    },
  }).subscribe();
  try {
    await until(() => order.length >= 100, 'the backlog draining');
    changedAt = order.length;
    server.patch('configmaps', 'n', `cm-${n - 1}`, { data: { v: '1' } });
    await until(() => order.includes(`changed cm-${n - 1}`), 'the changed object reconciled');
    const ranAt = order.indexOf(`changed cm-${n - 1}`);
    return { backlog: n - changedAt, before: ranAt - changedAt };
  } finally {
    subscription.unsubscribe();
    factory.dispose();
    await server.close();
  }
}

test('after the sync of 3,000 primaries a fresh change runs ahead of the backlog: within 10 % of it', async (t) => {
  const on = await freshChangeDuringBacklog(true);
  t.true(on.before <= on.backlog / 10, `${on.before} runs of the ${on.backlog}-run backlog came before the change`);
  t.log('with priority', on);
  const off = await freshChangeDuringBacklog(false);
  t.log('without', off);
  t.true(off.before > off.backlog / 2, `first come first served: ${off.before} of ${off.backlog} came before it`);
});
