/**
 * Type-level tests of the public API (style.md rule 35). Checked by `npm run typecheck`, which
 * `npm test` runs first: a line marked `@ts-expect-error` that stops being an error fails the build.
 */
import type { Observable } from 'rxjs';
import {
  bufferByKey,
  dedupDeltas,
  indexReducer,
  informer,
  isTombstone,
  resync,
  toDeltas,
  type DeltaBatch,
  type Frozen,
  type DeltaEvent,
  type KubeObject,
  type Notification,
  type RawEvent,
  type Snapshot,
  type StoreUpdate,
} from '../../src/index.js';
import { fakeListWatch, pod, type PodObject } from '../../src/testing/index.js';

declare const raw$: Observable<RawEvent<PodObject>>;
declare function expectType<T>(value: T): void;

// The chain composes with plain pipe() and keeps the object type.
const updates$ = raw$.pipe(toDeltas(), resync(1000), bufferByKey(), dedupDeltas(), indexReducer({ indexers: { node: (p: Frozen<PodObject>) => [p.spec.nodeName ?? ''] } }));
expectType<Observable<StoreUpdate<PodObject>>>(updates$);
expectType<Observable<DeltaEvent<PodObject>>>(raw$.pipe(toDeltas()));
expectType<Observable<DeltaBatch<PodObject>>>(raw$.pipe(toDeltas(), bufferByKey()));

// informer() infers T from its source; snapshots, notifications and handlers are typed.
const pods = informer(fakeListWatch([pod('a')]).events$, { indexers: { node: (p) => [p.spec.nodeName ?? ''] } });
expectType<Observable<Snapshot<PodObject>>>(pods.snapshots$);
expectType<Observable<Notification<PodObject>>>(pods.changes$);
expectType<Frozen<PodObject> | undefined>(pods.snapshot.get('default', 'a'));
expectType<readonly Frozen<PodObject>[]>(pods.snapshot.byIndex('node', 'n1'));
pods.addHandler({
  onUpdate(oldObject, newObject) {
    expectType<Frozen<PodObject>>(oldObject);
    expectType<Frozen<PodObject>>(newObject);
  },
  onDelete(object) {
    if (isTombstone(object)) expectType<Frozen<PodObject> | undefined>(object.object);
    else expectType<Frozen<PodObject>>(object);
  },
});

// Notifications are a discriminated union.
declare const change: Notification<PodObject>;
if (change.type === 'update') expectType<boolean>(change.sync);
// @ts-expect-error `oldObject` exists only on updates
void change.oldObject;

// Snapshots are read-only.
declare const snapshot: Snapshot<KubeObject>;
// @ts-expect-error resourceVersion is readonly
snapshot.resourceVersion = '1';
// @ts-expect-error list() returns a readonly array
snapshot.list().push({});

// Index functions must return strings.
// @ts-expect-error a number is not an index value
informer(raw$, { indexers: { bad: (p: PodObject) => [p.spec.containers.length] } });

// Time-based operators take a scheduler; non-time ones do not.
// @ts-expect-error dedupDeltas takes no arguments
dedupDeltas(1);
