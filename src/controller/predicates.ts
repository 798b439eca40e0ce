import type { Frozen } from '../store/frozen.js';
import type { KubeObject } from '../store/kubeObject.js';

/**
 * Reduces an object to the part a controller cares about; two objects with the same value are the
 * same to it. `undefined` means "cannot tell": such an update is never dropped.
 */
export type Predicate<T> = (object: Frozen<T>) => string | undefined;

function canonical(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item) ?? 'null').join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key]) ?? 'null'}`);
  return `{${entries.join(',')}}`;
}

/**
 * Ready-made predicates in the manner of kube-rs's `predicates`, and ways to combine them.
 *
 * ## Example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { predicateFilter, predicates, type KubeObject, type Notification } from 'rx-informer';
 * declare const changes$: Observable<Notification<KubeObject>>; // assuming: an informer's changes$
 *
 * // Reconcile on spec changes (generation), or on any change for kinds without a generation:
 * changes$.pipe(predicateFilter(predicates.fallback(predicates.generation, predicates.resourceVersion)));
 * ```
 */
export const predicates = Object.freeze({
  /** `metadata.generation`: changes with the spec, not with status. */
  generation: ((object: KubeObject) => canonical(object.metadata?.generation)) as Predicate<KubeObject>,
  /** `metadata.resourceVersion`: any change at all. */
  resourceVersion: ((object: KubeObject) => object.metadata?.resourceVersion) as Predicate<KubeObject>,
  /** `metadata.labels`, order-insensitive. */
  labels: ((object: KubeObject) => canonical(object.metadata?.labels ?? {})) as Predicate<KubeObject>,
  /** `metadata.annotations`, order-insensitive. */
  annotations: ((object: KubeObject) => canonical(object.metadata?.annotations ?? {})) as Predicate<KubeObject>,
  /** `metadata.finalizers`. */
  finalizers: ((object: KubeObject & { readonly metadata?: { readonly finalizers?: readonly string[] } }) => canonical(object.metadata?.finalizers ?? [])) as Predicate<KubeObject>,
  /** Changed when any of `list` changed; "cannot tell" when any of them cannot. */
  combine<T>(...list: Predicate<T>[]): Predicate<T> {
    return (object) => {
      const values: string[] = [];
      for (const predicate of list) {
        const value = predicate(object);
        if (value === undefined) return undefined;
        values.push(value);
      }
      return JSON.stringify(values);
    };
  },
  /** `primary`, or `secondary` where `primary` cannot tell (e.g. generation, else resourceVersion). */
  fallback<T>(primary: Predicate<T>, secondary: Predicate<T>): Predicate<T> {
    return (object) => {
      const value = primary(object);
      if (value !== undefined) return `=${value}`;
      const other = secondary(object);
      return other === undefined ? undefined : `~${other}`;
    };
  },
});
