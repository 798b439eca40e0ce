/*
 * Objects that describe clusters → engagements, on virtual time: engage, a no-op update, new
 * credentials, a renamed cluster, a delete, an object that stops describing a cluster, a bad
 * object, the source's error (clusters stay engaged) and completion (clusters released).
 */
import test from 'ava';
import { endWith, map, mergeMap, Subject } from 'rxjs';
import type { ClusterEngagement } from '../../src/fleet/clusterEngagement.js';
import { loadKubeConfig } from '../../src/fleet/loadKubeConfig.js';
import { objectClusters } from '../../src/fleet/objectClusters.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import type { Notification } from '../../src/store/notification.js';
import type { Frozen } from '../../src/store/frozen.js';
import { runMarbles } from '../../src/testing/marbles.js';

interface Holder extends KubeObject {
  readonly spec: { readonly cluster?: string; readonly server?: string };
}
const holder = (name: string, cluster: string | undefined, server: string | undefined): Frozen<Holder> => ({ metadata: { name, namespace: 'hub' }, spec: { ...(cluster ? { cluster } : {}), ...(server ? { server } : {}) } }) as Frozen<Holder>;
const add = (object: Frozen<Holder>): Notification<Holder> => ({ type: 'add', key: `hub/${object.metadata!.name!}`, object, isInInitialList: false });
const update = (object: Frozen<Holder>): Notification<Holder> => ({ type: 'update', key: `hub/${object.metadata!.name!}`, oldObject: object, object, sync: false });
const del = (object: Frozen<Holder>): Notification<Holder> => ({ type: 'delete', key: `hub/${object.metadata!.name!}`, object });
const kubeconfigText = (server: string) =>
  JSON.stringify({ clusters: [{ name: 'c', cluster: { server } }], users: [{ name: 'u', user: {} }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' });

const describe = (object: Frozen<Holder>) =>
  object.spec.cluster === undefined ? undefined : { cluster: object.spec.cluster, identity: object.spec.server ?? '', kubeConfig: () => loadKubeConfig(object.spec.server === 'bad' ? 'not: [a kubeconfig' : kubeconfigText(object.spec.server ?? ''), 'test') };

/** Each engagement's life as text: `cluster@server` per credentials, `cluster left` at the end. */
const lives = (engagements: ReturnType<ReturnType<typeof objectClusters<Holder>>>) =>
  engagements.pipe(mergeMap((e) => e.credentials$.pipe(map((kc) => `${e.cluster}@${kc.getCurrentCluster()!.server}`), endWith(`${e.cluster} left`))));

test('an object engages its cluster, new credentials re-engage it, the same ones do not, a delete releases it', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const notifications = cold<Notification<Holder>>('a-b-c-d-e-|', {
      a: add(holder('s1', 'east', 'https://e1')),
      b: update(holder('s1', 'east', 'https://e1')),
      c: update(holder('s1', 'east', 'https://e2')),
      d: add(holder('s2', 'west', 'https://w1')),
      e: del(holder('s1', 'east', 'https://e2')),
    });
    expectObservable(lives(notifications.pipe(objectClusters(describe)))).toBe('a---c-d-e-(f|)', {
      a: 'east@https://e1',
      c: 'east@https://e2',
      d: 'west@https://w1',
      e: 'east left',
      f: 'west left',
    });
  }));

test('an object that names another cluster releases the old name and engages the new one; one that names none releases it', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const notifications = cold<Notification<Holder>>('a-b---c', {
      a: add(holder('s1', 'east', 'https://e1')),
      b: update(holder('s1', 'north', 'https://e1')),
      c: update(holder('s1', undefined, 'https://e1')),
    });
    expectObservable(lives(notifications.pipe(objectClusters(describe)))).toBe('a-(bc)d', { a: 'east@https://e1', b: 'east left', c: 'north@https://e1', d: 'north left' });
  }));

test('a bad kubeconfig is reported and skipped: an engaged cluster keeps its credentials', (t) => {
  const invalid: string[] = [];
  runMarbles(t, ({ cold, expectObservable }) => {
    const notifications = cold<Notification<Holder>>('a-b-c-d', {
      a: add(holder('s0', 'first', 'bad')),
      b: add(holder('s1', 'east', 'https://e1')),
      c: update(holder('s1', 'east', 'bad')),
      d: update(holder('s1', 'east', 'https://e3')),
    });
    expectObservable(lives(notifications.pipe(objectClusters(describe, (key) => invalid.push(key))))).toBe('--b---d', { b: 'east@https://e1', d: 'east@https://e3' });
  });
  t.deepEqual(invalid, ['hub/s0', 'hub/s1']);
});

test("the source's error ends the engagements stream and leaves the clusters engaged (a hub that cannot be read does not take the fleet down)", (t) => {
  const source = new Subject<Notification<Holder>>();
  const engagements: ClusterEngagement[] = [];
  let failed: unknown;
  source.pipe(objectClusters(describe)).subscribe({ next: (e) => engagements.push(e), error: (e: unknown) => (failed = e) });
  source.next(add(holder('s1', 'east', 'https://e1')));
  source.error(new Error('hub gone'));
  t.is((failed as Error).message, 'hub gone');
  const told: string[] = [];
  engagements[0]!.credentials$.subscribe({ next: (kc) => told.push(kc.getCurrentCluster()!.server), complete: () => told.push('left') });
  t.deepEqual(told, ['https://e1'], 'still engaged on its last credentials');
});
