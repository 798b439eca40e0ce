/**
 * `T` deeply read-only: the type of every object an informer's cache hands out.
 *
 * The cache deep-freezes what it stores (`Object.freeze` on the object and everything reachable
 * from it), so a write throws a `TypeError` at run time; `Frozen<T>` makes the same write a type
 * error. Every property becomes `readonly`, arrays become `readonly` arrays of frozen elements,
 * index signatures (`labels`, `annotations`) only permit reading, through every level. Primitives,
 * `Date`s, functions, `unknown` and `any` stay as they are; optional properties stay optional and
 * `undefined` stays in a property's type where it was. Idempotent: `Frozen<Frozen<T>>` is
 * `Frozen<T>`, and a `T` (of a concrete type) can be passed where a `Frozen<T>` is expected.
 *
 * To change a cached object, draft it: immer's `produce(object, (draft) => …)` (its `Draft<T>`
 * removes the `readonly`s again, and the result is a new object, the cache keeps its own) or
 * `editPatch` of `rx-informer/controller`, which also gives the JSON Patch to send. Or take a deep
 * copy: `structuredClone(object) as Json<V1Pod>` is a fresh object, yours to change (the one place
 * a cast is the truth). A `transform` of `listWatch()` gets `T`, not `Frozen<T>`: it runs on the
 * parsed object before the store freezes it.
 *
 * TypeScript does not check `readonly` on properties when an object is passed to a parameter of
 * the mutable type, only readonly arrays: type the parameters of helpers that take a cached object
 * `Frozen<…>` (or a readonly view of the fields they read).
 *
 * Why not immer's `Immutable<T>`, the same idea: the name says what the cache does at run time
 * (`Object.freeze`), the main entry's types need nothing from immer, and the cache only holds JSON,
 * so there are no `Map`/`Set`/`Promise` branches to evaluate at every level. The two are
 * assignable to each other for JSON types, so immer's functions take a `Frozen<T>` as they are.
 *
 * ## Example
 * ```ts
 * import type { V1ConfigMap } from '@kubernetes/client-node';
 * import type { Frozen, Informer, Json } from 'rx-informer';
 * declare const configMaps: Informer<Json<V1ConfigMap>>; // assuming: a synced informer holding ns/a with data { key: '1' }
 *
 * const cm: Frozen<Json<V1ConfigMap>> = configMaps.snapshot.get('ns', 'a')!;
 * console.log(cm.data?.['key']); // reading compiles
 * // @ts-expect-error writing does not (and would throw a TypeError)
 * cm.data!['key'] = '2';
 * // Logs: 1
 * ```
 *
 * @typeParam T the type of an object as it was parsed, such as `Json<V1Pod>`.
 */
export type Frozen<T> = T extends object // distributes over unions; primitives, `unknown` (and `any`, as itself) fall through
  ? T extends Date | RegExp | ((...args: never[]) => unknown) // left as they are: freezing does not reach inside them, or they are not JSON
    ? T
    : { readonly [K in keyof T]: Frozen<T[K]> } // homomorphic: keeps ?, arrays and tuples (made readonly)
  : T;
// `T` is the checked type of both conditions (never the `extends` side): TypeScript then relates
// `Frozen<A>` to `Frozen<B>` when A is assignable to B, so `Snapshot<Json<V1Pod>>` still passes for a `Snapshot<KubeObject>`.
