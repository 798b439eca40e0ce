/**
 * Type-level tests of `Frozen<T>` (issue 17: "by default a subscriber cannot mutate the cache
 * without a type error"), checked by `npm run typecheck`. Each expected error below is a write
 * that compiled before `Frozen` and threw a TypeError at run time (the cache is deep-frozen), but
 * the `list().push` marked as already read-only. Without the `readonly` of `Frozen`'s mapped type,
 * tsc reports the other 30 as unused directives (TS2578).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { produce, type Draft, type Immutable } from 'immer';
import { map, type Observable } from 'rxjs';
import {
  informer,
  toDeltas,
  type Frozen,
  type Json,
  type KubeObject,
  type Notification,
  type RawEvent,
  type Snapshot,
} from '../../src/index.js';
import { controller, editPatch, ownedBy, predicates, reconcileObjects, toRefs, type WatchesConfig } from '../../src/controllerEntry.js';

type Pod = Json<V1Pod>;

/** `true` only when A and B are the same type (not merely assignable). */
type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type IsAny<T> = 0 extends 1 & T ? true : false;
declare function expectTrue<T extends true>(): T;
declare function expectType<T>(value: T): void;

declare const raw$: Observable<RawEvent<Pod>>;
const pods = informer(raw$, { indexers: { node: (p) => [p.spec?.nodeName ?? ''] } });
const container = { name: 'sidecar', image: 'busybox' };

// --- What the mapping is ------------------------------------------------------------------------

// Idempotent, also on client-node's models.
expectTrue<Equals<Frozen<Frozen<Pod>>, Frozen<Pod>>>();
expectTrue<Equals<Frozen<Frozen<{ a: { b: string[] }[] }>>, Frozen<{ a: { b: string[] }[] }>>>();
// Deep: properties readonly, arrays readonly arrays of frozen elements, index signatures read-only.
expectTrue<Equals<Frozen<{ a: { b: string[] }[] }>, { readonly a: readonly { readonly b: readonly string[] }[] }>>();
expectTrue<Equals<Frozen<{ [key: string]: string }>, { readonly [key: string]: string }>>();
expectTrue<Equals<Frozen<[string, { n: number }]>, readonly [string, { readonly n: number }]>>();
// Optional stays optional, `undefined` stays where it was (and is not added where it was not).
expectTrue<Equals<Frozen<{ a?: string }>, { readonly a?: string }>>();
expectTrue<Equals<Frozen<{ a: string | undefined }>, { readonly a: string | undefined }>>();
expectTrue<Equals<Frozen<{ a?: { b: number } | null }>, { readonly a?: { readonly b: number } | null }>>();
// Primitives and what freezing does not reach into stay as they are.
expectTrue<Equals<Frozen<string>, string>>();
expectTrue<Equals<Frozen<'a' | 1 | true | null | undefined>, 'a' | 1 | true | null | undefined>>();
expectTrue<Equals<Frozen<unknown>, unknown>>();
expectTrue<IsAny<Frozen<any>>>();
expectTrue<Equals<Frozen<Date>, Date>>();
expectTrue<Equals<Frozen<(x: number) => string>, (x: number) => string>>();
// A fresh (mutable) object can be passed where a frozen one is expected.
declare const fresh: Pod;
expectType<Frozen<Pod>>(fresh);
// The store's own types already were read-only: nothing changes for them.
expectTrue<Equals<Frozen<KubeObject>['metadata'], KubeObject['metadata']>>();

// --- A snapshot's objects -----------------------------------------------------------------------

const snapshot = pods.snapshot;
const cached = snapshot.get('ns', 'a')!;
expectType<Frozen<Pod> | undefined>(snapshot.get('ns/a'));
// @ts-expect-error a label of a cached object
cached.metadata!.labels!['x'] = 'y';
// @ts-expect-error an array of a cached object
cached.spec!.containers.push(container);
// @ts-expect-error a nested spec field
cached.spec!.nodeName = 'n2';
// @ts-expect-error an element of a nested array
cached.spec!.containers[0]!.image = 'evil';
// @ts-expect-error deleting a field is writing too
delete cached.status;
// @ts-expect-error the list() array itself (already a readonly array before Frozen)
snapshot.list().push(cached);
for (const each of snapshot) {
  // @ts-expect-error iterating a snapshot
  each.metadata!.annotations!['a'] = 'b';
}
for (const [, each] of snapshot.entries()) {
  // @ts-expect-error its entries
  each.spec!.containers.length = 0;
}
snapshot.forEach((each) => {
  // @ts-expect-error its forEach
  each.spec!.nodeName = '';
});
// @ts-expect-error byIndex's objects
snapshot.byIndex('node', 'n1')[0]!.spec!.containers.push(container);
// @ts-expect-error values()
[...snapshot.values()][0]!.spec!.nodeName = '';

// The namespaced lister, as a controller reads its cache.
const lister = snapshot.inNamespace('ns');
// @ts-expect-error a lister's get
lister.get('a')!.metadata!.labels!['x'] = 'y';
// @ts-expect-error a lister's list
lister.list('app=web')[0]!.spec!.containers.push(container);

// --- Streams, deltas and handlers ---------------------------------------------------------------

pods.changes$.subscribe((change) => {
  if (change.type === 'delete') return;
  // @ts-expect-error a changes$ value
  change.object.spec!.containers.push(container);
  if (change.type === 'update') {
    // @ts-expect-error an update's old object
    change.oldObject.metadata!.labels!['x'] = 'y';
  }
});
pods.snapshots$.pipe(map((s) => s.get('ns/a'))).subscribe((p) => {
  // @ts-expect-error a snapshots$ value's object
  p!.spec!.nodeName = '';
});
pods.updates$.subscribe(({ changes }) => {
  const first = changes[0]!;
  // @ts-expect-error updates$'s notifications
  if (first.type === 'add') first.object.metadata!.labels!['x'] = 'y';
});
void pods.whenSynced().then((synced) => {
  // @ts-expect-error whenSynced's snapshot
  synced.list()[0]!.spec!.containers.pop();
});
raw$.pipe(toDeltas()).subscribe((event) => {
  if (event.type === 'Added' || event.type === 'Updated') {
    // @ts-expect-error a delta's object (the store freezes it in place when it applies the batch)
    event.object.spec!.nodeName = '';
  }
});
pods.addHandler({
  onAdd(object) {
    // @ts-expect-error a handler's argument
    object.metadata!.labels!['x'] = 'y';
  },
  onUpdate(_old, object) {
    // @ts-expect-error a handler's argument
    object.spec!.containers.push(container);
  },
  onDelete(object) {
    // @ts-expect-error a deleted object, tombstone or not, is the cache's
    if (!('key' in object)) object.spec!.nodeName = '';
  },
});

// --- The controller toolkit ---------------------------------------------------------------------

// (a WatchesConfig<Pod> itself, since ControllerConfig takes WatchesConfig<KubeObject>, whose objects were read-only already)
export const watchPods: WatchesConfig<Pod> = {
  informer: pods,
  map: (pod) => {
    // @ts-expect-error what a watches mapper gets
    pod.spec!.nodeName = '';
    return [];
  },
};
controller(pods, {
  reconcile: (pod) => {
    // @ts-expect-error the object a reconcile gets
    pod!.spec!.containers.push(container);
    return undefined;
  },
  errorPolicy: (_error, pod) => {
    // @ts-expect-error the object an error policy gets
    pod!.metadata!.labels!['x'] = 'y';
    return { requeueAfterMs: 1000 };
  },
});
reconcileObjects(pods, (pod, { snapshot: cache }) => {
  // @ts-expect-error a reconciler's object
  pod!.spec!.nodeName = '';
  // @ts-expect-error and the context's snapshot
  cache.get('ns/b')!.spec!.nodeName = '';
  return undefined;
});
predicates.combine<Pod>((pod) => {
  // @ts-expect-error a predicate's object
  pod.spec!.nodeName = '';
  return undefined;
});
pods.changes$.pipe(
  toRefs((pod) => {
    // @ts-expect-error a toRefs mapper's object
    pod.metadata!.labels!['x'] = 'y';
    return [];
  }),
);
// @ts-expect-error ownedBy's children
ownedBy(snapshot, cached)[0]!.spec!.containers.push(container);

// --- What must compile --------------------------------------------------------------------------

// Reading, at any depth.
expectType<string | undefined>(cached.metadata?.labels?.['app']);
expectType<number>(cached.spec!.containers.length);
expectType<string | undefined>(cached.spec!.containers.map((c) => c.image)[0]);

// Passing a frozen object to a function that takes Frozen<T>, or a read-only view of it.
const image = (p: Frozen<Pod>): string | undefined => p.spec?.containers[0]?.image;
const labelsOf = (o: { readonly metadata?: { readonly labels?: Readonly<Record<string, string>> } }) => o.metadata?.labels ?? {};
const names = (cs: readonly { readonly name: string }[]) => cs.map((c) => c.name);
expectType<string | undefined>(image(cached));
expectType<Readonly<Record<string, string>>>(labelsOf(cached));
expectType<string[]>(names(cached.spec!.containers));
// ...but not to one that takes the mutable model (its arrays could be pushed to).
// @ts-expect-error a Frozen<Pod> is not a Pod
((p: Pod) => p)(cached);

// A snapshot of a model is still a snapshot of any object (Frozen keeps the assignability of T).
expectType<Snapshot<KubeObject>>(snapshot);
expectType<Observable<Notification<KubeObject>>>(pods.changes$);

// Drafting it: immer's Draft removes the readonly again, and produce gives back a frozen object.
const relabelled = produce(cached, (draft) => {
  draft.metadata!.labels = { ...draft.metadata!.labels, x: 'y' };
  draft.spec!.containers.push(container);
  draft.spec!.nodeName = 'n2';
});
expectType<Frozen<Pod>>(relabelled);
expectTrue<Equals<Draft<Frozen<Pod>>['spec'], Draft<Pod>['spec']>>();
// The controller's editPatch drafts it and gives the JSON Patch.
const edit = editPatch(cached, (draft) => {
  draft.metadata!.labels!['x'] = 'y';
  draft.spec!.containers.push(container);
});
expectType<Frozen<Pod>>(edit.object);
// A deep copy is a fresh, mutable object: say so once, then change it freely.
const copy = structuredClone(cached) as Pod;
copy.spec!.containers.push(container);

// immer's Immutable<T> is the same idea: the two are assignable to each other for a model.
declare const immutable: Immutable<Pod>;
expectType<Frozen<Pod>>(immutable);
expectType<Immutable<Pod>>(cached);
