import type { Frozen } from './frozen.js';

/**
 * `T` as JSON: the type of an object typed `T` once it has been through `JSON.stringify` and
 * `JSON.parse`, which is what the API server sends and what an informer's cache holds.
 *
 * Objects in rx-informer are plain JSON, never class instances: client-node's models (`V1Pod`,
 * `V1ConfigMap`, …) are classes whose timestamps are typed `Date`, but on the wire, and so in the
 * cache, they are RFC 3339 text. `informer<V1Pod>` would let `creationTimestamp.getTime()` compile
 * and then throw; `informer<Json<V1Pod>>` types it `string`, so `Date.parse(…)` is what compiles.
 *
 * Deep: every `Date` (and client-node's `V1MicroTime`, a `Date` subclass) becomes `string`, through
 * nested objects, arrays and tuples. Optional and readonly fields stay as they are, arrays keep
 * their readonly-ness, and what already is JSON (`string`, `number`, `boolean`, `null`,
 * client-node's `IntOrString`, maps of strings, `unknown`, `any`) is unchanged.
 *
 * The cache's objects are also frozen, and handed out as `Frozen<Json<V1Pod>>` (see {@link Frozen}):
 * draft or copy one to change it, and type the parameters of helpers that take one `Frozen<…>`.
 * To send one back through a client-node API call typed with the model, its serializer passes
 * timestamp strings through unchanged, so a cast (`body: pod as unknown as V1Pod`) is all it takes.
 *
 * ## Example
 * ```ts
 * import type { V1Pod } from '@kubernetes/client-node';
 * import { informer, type Frozen, type Json } from 'rx-informer';
 * import { fakeListWatch, pod } from 'rx-informer/testing';
 *
 * const pods = informer<Json<V1Pod>>(fakeListWatch([pod('web-1')]).events$);
 * const ageMs = (p: Frozen<Json<V1Pod>>) => Date.now() - Date.parse(p.metadata?.creationTimestamp ?? '');
 * pods.changes$.subscribe((change) => change.type === 'add' && console.log(change.key, ageMs(change.object)));
 * ```
 *
 * @typeParam T a type whose values are sent as JSON, such as a client-node model.
 */
export type Json<T> = unknown extends T
  ? T // `unknown` and `any` stay as they are
  : T extends Date
    ? string
    : T extends string | number | boolean | bigint | symbol | null | undefined
      ? T
      : { [K in keyof T]: Json<T[K]> }; // homomorphic: keeps ?, readonly, arrays and tuples
