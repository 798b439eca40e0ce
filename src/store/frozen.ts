/** Objects a {@link Frozen} type leaves as they are: freezing does not reach inside them (a `Date`) or they are not JSON. */
type Opaque = Date | RegExp | ((...args: never[]) => unknown);

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
 * removes the `readonly`s again) or `editPatch` of `rx-informer/controller`, which also gives the
 * JSON Patch; or copy it (`structuredClone(object)`, which is of type `Frozen<T>` still: type the
 * copy). immer's `Immutable<T>` is the same idea; the two are assignable to each other for JSON
 * types. TypeScript does not check `readonly` on properties when an object is passed to a
 * parameter of the mutable type (only readonly arrays are caught), so type helper functions'
 * parameters `Frozen<…>` too.
 *
 * ## Example
 * ```ts
 * import type { V1ConfigMap } from '@kubernetes/client-node';
 * import type { Frozen, Json } from 'rx-informer';
 *
 * declare const cm: Frozen<Json<V1ConfigMap>>; // what snapshot.get('ns', 'a') returns
 * console.log(cm.data?.['key']); // reading compiles
 * // cm.data!['key'] = 'x';      // a type error (and a TypeError at run time)
 * ```
 *
 * @typeParam T the type of an object as it was parsed, such as `Json<V1Pod>`.
 */
export type Frozen<T> = T extends object // distributes over unions; primitives, `unknown` (and `any`, as itself) fall through
  ? T extends Opaque
    ? T
    : { readonly [K in keyof T]: Frozen<T[K]> } // homomorphic: keeps ?, arrays and tuples (made readonly)
  : T;
// `T` is the checked type of both conditions (never the `extends` side): TypeScript then relates
// `Frozen<A>` to `Frozen<B>` when A is assignable to B, so `Snapshot<Json<V1Pod>>` still passes for a `Snapshot<KubeObject>`.
