/*
 * The merge of a fleet's informers on virtual time (fleetUpdates): engage, a reader before and
 * after a cluster syncs, re-engage with new credentials (a new informer under the same name),
 * leave, leave before syncing, and the informers let go when a cluster leaves.
 */
import test from 'ava';
import { map, mergeMap, from, of, type Observable } from 'rxjs';
import type { RunHelpers } from 'rxjs/testing';
import { fleetUpdates, type FleetUpdate } from '../../src/fleet/fleetUpdates.js';
import { informer, type Informer } from '../../src/informer/informer.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { added, listEvents } from '../../src/testing/events.js';
import { runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';
import { changeView } from '../helpers/views.js';

type E = RawEvent<KubeObject>;
const cm = (name: string, rv: string) => configMap(name, { namespace: 'ns', resourceVersion: rv });
const view = (update: FleetUpdate<KubeObject>) => `${update.cluster}${update.snapshot === undefined ? ' left' : ''}: ${update.changes.map((c) => `${c.cluster}/${changeView(c)}`).join(', ')}`;

/** A cluster whose informer runs over marbles; `source` is the cold to check subscriptions on. */
function cluster(cold: RunHelpers['cold'], marbles: string, values: Record<string, E | readonly E[]>): { informer: Informer<KubeObject>; source: ReturnType<RunHelpers['cold']> } {
  const source = cold(marbles, values as Record<string, E | E[]>);
  const events$: Observable<E> = source.pipe(mergeMap((value) => (Array.isArray(value) ? from(value as E[]) : of(value as E))));
  return { informer: informer(events$), source };
}

test('clusters engage and leave: each first list arrives as initial adds, live changes follow, a cluster that leaves is a delete per object and its informer is let go', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const a = cluster(cold, '-L---x', { L: listEvents([cm('a1', '1')], '1'), x: added(cm('a2', '2')) });
    const b = cluster(cold, '-L', { L: listEvents([cm('b1', '1')], '1') });
    const clusters$ = cold('a--b---c-|', { a: new Map([['a', a]]), b: new Map([['a', a], ['b', b]]), c: new Map([['b', b]]) });
    const updates$ = fleetUpdates(clusters$, (c) => c.informer);
    expectObservable(updates$.pipe(map(view))).toBe('-x--yz-w-(v|)', {
      x: 'a: a/add ns/a1@1 initial',
      y: 'b: b/add ns/b1@1 initial',
      z: 'a: a/add ns/a2@2',
      w: 'a left: a/delete ns/a1@1, a/delete ns/a2@2',
      v: 'b left: b/delete ns/b1@1',
    });
    expectSubscriptions(a.source.subscriptions).toBe('^------!');
    expectSubscriptions(b.source.subscriptions).toBe('---^-----!');
  }));

test('a reader that comes after a cluster synced gets its cache as initial adds, as one that came before got its first list: no timing loses an add', (t) =>
  runMarbles(t, ({ cold, hot, expectObservable }) => {
    const a = cluster(cold, '-L----x', { L: listEvents([cm('a1', '1'), cm('a2', '1')], '1'), x: added(cm('a3', '2')) });
    const clusters$ = hot('a', { a: new Map([['a', a]]) });
    const updates$ = fleetUpdates(clusters$, (c) => c.informer).pipe(map(view));
    expectObservable(updates$).toBe('-f----x', { f: 'a: a/add ns/a1@1 initial, a/add ns/a2@1 initial', x: 'a: a/add ns/a3@2' });
    // Another engagement of the map (the hot clusters$ replays nothing: this reader sees the cluster from its own start on).
    const late$ = fleetUpdates(hot('---a', { a: new Map([['a', a]]) }), (c) => c.informer).pipe(map(view));
    expectObservable(late$, '--^').toBe('---f--x', { f: 'a: a/add ns/a1@1 initial, a/add ns/a2@1 initial', x: 'a: a/add ns/a3@2' });
  }));

test('re-engaged with new credentials: the reader keeps what it saw until the new informer syncs, then is told the difference as a relist would; the old informer is let go at once', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const before = cluster(cold, '-L', { L: listEvents([cm('x', '1'), cm('y', '1'), cm('z', '1')], '1') });
    const after = cluster(cold, '--L', { L: listEvents([cm('x', '1'), cm('y', '2'), cm('w', '1')], '2') });
    const clusters$ = cold('a---b--|', { a: new Map([['c', before]]), b: new Map([['c', after]]) });
    expectObservable(fleetUpdates(clusters$, (c) => c.informer).pipe(map(view))).toBe('-a----b(c|)', {
      a: 'c: c/add ns/x@1 initial, c/add ns/y@1 initial, c/add ns/z@1 initial',
      b: 'c: c/update ns/x@1->1 sync, c/update ns/y@1->2, c/add ns/w@1 initial, c/delete ns/z@1',
      c: 'c left: c/delete ns/x@1, c/delete ns/y@2, c/delete ns/w@1',
    });
    expectSubscriptions(before.source.subscriptions).toBe('^---!');
    expectSubscriptions(after.source.subscriptions).toBe('----^--!');
  }));

test('a cluster that leaves before it synced tells nothing and is let go', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const a = cluster(cold, '----L', { L: listEvents([cm('a1', '1')], '1') });
    const clusters$ = cold('a-b-|', { a: new Map([['a', a]]), b: new Map() });
    expectObservable(fleetUpdates(clusters$, (c) => c.informer).pipe(map(view))).toBe('----|');
    expectSubscriptions(a.source.subscriptions).toBe('^-!');
  }));

test('unsubscribing a reader lets every cluster informer go without telling deletes', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const a = cluster(cold, '-L', { L: listEvents([cm('a1', '1')], '1') });
    const clusters$ = cold('a', { a: new Map([['a', a]]) });
    expectObservable(fleetUpdates(clusters$, (c) => c.informer).pipe(map(view)), '^--!').toBe('-x-', { x: 'a: a/add ns/a1@1 initial' });
    expectSubscriptions(a.source.subscriptions).toBe('^--!');
  }));

test("an empty cluster's sync and leave are told too (no notification), so a reader's snapshots gain and lose it", (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const e = cluster(cold, '-L', { L: listEvents([], '1') });
    const clusters$ = cold('a--b|', { a: new Map([['e', e]]), b: new Map() });
    expectObservable(fleetUpdates(clusters$, (c) => c.informer).pipe(map(view))).toBe('-s-l|', { s: 'e: ', l: 'e left: ' });
  }));
