import type { KubeObject } from './kubeObject.js';

/** The object's `metadata.resourceVersion`, or `undefined` when it has none. Opaque: compare only with `===`. */
export function resourceVersionOf(object: unknown): string | undefined {
  const rv = (object as KubeObject | null | undefined)?.metadata?.resourceVersion;
  return typeof rv === 'string' ? rv : undefined;
}
