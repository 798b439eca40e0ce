import test from 'ava';
import { ageColumn, nameColumn, namespaceColumn } from '../src/column.js';
import { columnsFor } from '../src/columnsFor.js';
import { formatAge } from '../src/formatAge.js';
import { formatIndexSummary, indexSummary } from '../src/indexSummary.js';
import { compileJsonPath } from '../src/compileJsonPath.js';
import { renderScreen } from '../src/renderScreen.js';
import { progressLine } from '../src/statusText.js';
import { tableRows } from '../src/tableRows.js';
import { createWatchState } from '../src/watchState.js';
import { informer, type KubeObject, type Notification, type Snapshot } from 'rx-informer';
import { fakeListWatch, pod } from 'rx-informer/testing';

const t0 = Date.parse('2026-11-29T12:00:00Z');
const created = '2026-11-29T11:55:00Z';
const node = compileJsonPath('.spec.nodeName');

function podOn(namespace: string, name: string, nodeName: string, phase = 'Running'): KubeObject {
  const base = pod(name, { namespace }) as unknown as { metadata: object };
  return {
    ...base,
    metadata: { ...base.metadata, creationTimestamp: created },
    spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] },
    status: { phase, containerStatuses: [{ name: 'c', ready: phase === 'Running', restartCount: 1, state: phase === 'Running' ? { running: {} } : {} }] },
  } as KubeObject;
}

async function snapshotOf(objects: readonly KubeObject[]): Promise<Snapshot<KubeObject>> {
  const api = fakeListWatch(objects);
  const cache = informer(api.events$, { indexers: { node: (o) => node(o) as string[] } });
  const subscription = cache.snapshots$.subscribe();
  const synced = await cache.whenSynced();
  subscription.unsubscribe();
  return synced;
}

const change = (type: 'add' | 'update' | 'delete', object: KubeObject, initial = false): Notification<KubeObject> => {
  const key = `${object.metadata!.namespace}/${object.metadata!.name}`;
  return type === 'add' ? { type, key, object, isInInitialList: initial } : type === 'update' ? { type, key, object, oldObject: object, sync: false } : { type, key, object };
};

test('formatAge follows kubectl', (t) => {
  const at = (seconds: number): string => formatAge(new Date(t0 - seconds * 1000).toISOString(), t0);
  t.deepEqual([0, 59, 119, 120, 312, 600, 3 * 3600 + 240, 9 * 3600, 2 * 86400 + 5 * 3600, 400 * 86400, 800 * 86400].map(at), ['0s', '59s', '119s', '2m', '5m12s', '10m', '3h4m', '9h', '2d5h', '400d', '2y70d']);
  t.is(formatAge(undefined, t0), '<unknown>');
  t.is(formatAge('yesterday', t0), '<unknown>');
});

test('watch state: list progress, phases, live counts and the event rate', (t) => {
  const state = createWatchState(t0);
  t.is(state.phase.type, 'resolving');
  state.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 0, itemsSoFar: 0 }, t0 + 10);
  state.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 2, itemsSoFar: 1000, remainingItemCount: 3000 }, t0 + 200);
  t.deepEqual(state.list, { page: 2, itemsSoFar: 1000, remainingItemCount: 3000, startedAt: t0 + 10 });
  t.is(progressLine(state.list, t0 + 410, 20), 'syncing [█████░░░░░░░░░░░░░░░] 25% · page 2 · 1,000 items · ~3,000 to go · 0.4s');
  t.is(progressLine({ page: 3, itemsSoFar: 1500, remainingItemCount: undefined, startedAt: t0 }, t0 + 1000), 'syncing · page 3 · 1,500 items · 1.0s');
  const p = podOn('a', 'x', 'n1');
  state.onChange(change('add', p, true), t0 + 300);
  state.onSynced(t0 + 300);
  state.onStatus({ type: 'WATCHING', resourceVersion: '7' }, t0 + 300);
  t.deepEqual(state.phase, { type: 'watching', resourceVersion: '7' });
  t.is(state.syncMs, 290, 'from the first LISTING');
  t.deepEqual(state.counts, { add: 0, update: 0, delete: 0 }, 'the initial list is not counted as live events');
  t.is(state.rate(t0 + 1000), 0);
  for (let i = 0; i < 100; i++) state.onChange(change('update', p), t0 + 1000 + i * 10); // 100 events in 1 s
  t.deepEqual(state.counts, { add: 0, update: 100, delete: 0 });
  t.true(Math.abs(state.rate(t0 + 2000) - 100) <= 10, String(state.rate(t0 + 2000)));
  t.is(state.rate(t0 + 5000), 0, 'the rate falls to 0 when events stop');
  state.onStatus({ type: 'BACKING_OFF', attempt: 2, delay: 1600, cause: new Error('[informer] watch failed: socket hang up'), next: 'rewatch' }, t0 + 6000);
  t.like(state.phase, { type: 'backingOff', until: t0 + 7600, attempt: 2 });
  state.onStatus({ type: 'RELISTING', reason: 'expired' }, t0 + 7600);
  t.is(state.relists, 1);
});

test('table rows: newest changes first, highlighted for a while; deletes stay struck for 3 s; the rest by key', async (t) => {
  const pods = [podOn('a', 'one', 'n1'), podOn('a', 'two', 'n1'), podOn('b', 'three', 'n2'), podOn('b', 'four', 'n2')];
  const snapshot = await snapshotOf(pods.slice(0, 3));
  const state = createWatchState(t0);
  state.onChange(change('update', pods[0]!), t0);
  state.onChange(change('delete', pods[3]!), t0 + 100);
  state.onChange(change('add', pods[2]!), t0 + 1000);
  const rows = (now: number, limit?: number) =>
    tableRows(snapshot, { columns: [namespaceColumn, nameColumn, ageColumn], now, recent: state.recent, ...(limit ? { limit } : {}) }).map((r) => `${r.mark ?? '-'} ${r.cells.join(' ')}`);
  t.deepEqual(rows(t0 + 1200), ['added b three 5m1s', 'deleted b four 5m1s', 'updated a one 5m1s', '- a two 5m1s']);
  t.deepEqual(rows(t0 + 2000), ['added b three 5m2s', 'deleted b four 5m2s', '- a one 5m2s', '- a two 5m2s'], 'the update is no longer highlighted');
  t.deepEqual(rows(t0 + 3200), ['- b three 5m3s', '- a one 5m3s', '- a two 5m3s'], 'the deleted row is gone');
  t.deepEqual(rows(t0 + 1200, 2), ['added b three 5m1s', 'deleted b four 5m1s']);
  t.deepEqual(tableRows(snapshot, { columns: [nameColumn, ageColumn], now: t0 }).map((r) => r.cells[0]), ['one', 'two', 'three'], 'without recent changes: by key');
  t.deepEqual(tableRows(snapshot, { columns: [nameColumn, ageColumn], now: t0, limit: 2 }).map((r) => r.cells[0]), ['one', 'two'], 'the first keys, limited');
  t.deepEqual(tableRows(snapshot, { columns: [nameColumn, ageColumn], now: t0 + 1200, limit: 2, recent: state.recent }).map((r) => r.cells[0]), ['three', 'four']);
});

test('index summary: values by count, cut to the width', async (t) => {
  const snapshot = await snapshotOf([podOn('a', '1', 'n1'), podOn('a', '2', 'n2'), podOn('a', '3', 'n2'), podOn('a', '4', 'n3'), podOn('a', '5', 'n2')]);
  const summary = indexSummary(snapshot, 'node');
  t.deepEqual(summary, { name: 'node', distinct: 3, top: [['n2', 3], ['n1', 1], ['n3', 1]] });
  t.is(formatIndexSummary(summary), 'index node (3 values): n2 3 · n1 1 · n3 1');
  t.is(formatIndexSummary(summary, 38), 'index node (3 values): n2 3 · n1 1 · …');
  t.is(formatIndexSummary(summary, 37), 'index node (3 values): n2 3 · …');
  t.is(formatIndexSummary(indexSummary(snapshot, 'node', 1)), 'index node (3 values): n2 3 · …');
  t.is(formatIndexSummary({ name: 'x', distinct: 0, top: [] }), 'index x (0 values): none yet');
});

test('a frame of the live view: title and clock, status, index summary, table, footer — within the screen', async (t) => {
  const snapshot = await snapshotOf([podOn('prod', 'web-1', 'node-1'), podOn('prod', 'web-2', 'node-2', 'Pending'), podOn('dev', 'api-1', 'node-1')]);
  const state = createWatchState(t0);
  state.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 1, itemsSoFar: 3 }, t0 + 100);
  state.onSynced(t0 + 250);
  state.onStatus({ type: 'WATCHING', resourceVersion: snapshot.resourceVersion }, t0 + 250);
  state.onChange(change('update', podOn('prod', 'web-2', 'node-2', 'Pending')), t0 + 900);
  const config = {
    width: 100,
    height: 10, // one row short of the whole table: the rest is cut
    now: t0 + 1000,
    title: 'rx-informer watch pods · all namespaces · kind @ https://127.0.0.1:6443',
    plural: 'pods',
    columns: columnsFor('Pod', { namespaced: true }),
    indexNames: ['node'],
    color: false,
  };
  const lines = renderScreen(state, snapshot, config);
  t.deepEqual(lines, [
    'rx-informer watch pods · all namespaces · kind @ https://127.0.0.1:6443                     12:00:01',
    `● watching at resourceVersion ${snapshot.resourceVersion} · 3 pods · synced in 0.1s (1 page)`, // 150 ms from the first LISTING
    '  4.0 events/s · add 0 · update 1 · delete 0',
    '',
    'index node (2 values): node-1 2 · node-2 1',
    '',
    '  NAMESPACE   NAME    READY   STATUS    RESTARTS   AGE',
    '~ prod        web-2   0/1     Pending   1          5m1s',
    '  dev         api-1   1/1     Running   1          5m1s',
    '2 of 3 shown · newest changes first · Ctrl-C to quit',
  ]);
  const small = renderScreen(state, snapshot, { ...config, width: 40, height: 9 });
  t.true(small.length <= 9);
  for (const line of small) t.true([...line].length <= 40, line);
  t.is(small.at(-1), '1 of 3 shown · newest changes first · C…');
  const colored = renderScreen(state, snapshot, { ...config, color: true });
  t.true(colored[7]!.startsWith('\x1b[33m~ prod'), 'a recent update is yellow');
});

test('the footer counts what the cache holds: a row kept for an object just deleted is not "shown" (not 4 of 3)', async (t) => {
  const snapshot = await snapshotOf([podOn('prod', 'web-1', 'node-1'), podOn('prod', 'web-2', 'node-2'), podOn('dev', 'api-1', 'node-1')]);
  const state = createWatchState(t0);
  state.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 1, itemsSoFar: 4 }, t0 + 100);
  state.onSynced(t0 + 250);
  state.onStatus({ type: 'WATCHING', resourceVersion: snapshot.resourceVersion }, t0 + 250);
  state.onChange(change('delete', podOn('prod', 'web-0', 'node-3')), t0 + 900);
  const config = { width: 100, height: 20, now: t0 + 1000, title: 't', plural: 'pods', columns: columnsFor('Pod', { namespaced: true }), indexNames: [], color: false };
  const lines = renderScreen(state, snapshot, config);
  t.true(lines.some((line) => /^- prod +web-0 /.test(line)), 'the deleted pod is still on screen, marked');
  t.is(lines.at(-1), '3 of 3 shown · newest changes first · Ctrl-C to quit');
  const short = renderScreen(state, snapshot, { ...config, height: 9 }); // room for the deleted row and one pod
  t.is(short.at(-1), '1 of 3 shown · newest changes first · Ctrl-C to quit');
});

test('the sync time is the first list\'s, from its first LISTING: discovery and start-up are not in it', (t) => {
  const state = createWatchState(t0);
  // Discovery took 2 s (a server that answered late); then the list, 300 ms over two pages.
  state.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 0, itemsSoFar: 0 }, t0 + 2000);
  state.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 2, itemsSoFar: 800 }, t0 + 2300);
  state.onSynced(t0 + 2300);
  t.is(state.syncMs, 300);
  // A relist later does not move it.
  state.onStatus({ type: 'RELISTING', reason: 'expired' }, t0 + 9000);
  state.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 0, itemsSoFar: 0 }, t0 + 9000);
  t.is(state.syncMs, 300);
  // No list reported (a source without statuses): from the start, as before.
  const silent = createWatchState(t0);
  silent.onSynced(t0 + 700);
  t.is(silent.syncMs, 700);
});

test('the sync progress replaces the error line until the first list is applied', async (t) => {
  const state = createWatchState(t0);
  state.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 0, itemsSoFar: 0 }, t0);
  state.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 4, itemsSoFar: 2000, remainingItemCount: 2000 }, t0 + 500);
  const empty = await snapshotOf([]).then(() => informer(fakeListWatch([]).events$, { indexers: { node: () => [] } }).snapshot);
  const lines = renderScreen(state, empty, { width: 120, height: 10, now: t0 + 500, title: 't', plural: 'pods', columns: [nameColumn, ageColumn], indexNames: [], color: false });
  t.is(lines[1], '● listing · 0 pods');
  t.is(lines[2], '  0.0 events/s · add 0 · update 0 · delete 0');
  t.is(lines[3], 'syncing [███████████████░░░░░░░░░░░░░░░] 50% · page 4 · 2,000 items · ~2,000 to go · 0.5s');
});
