/**
 * A ready `transform`: drops `metadata.managedFields` (often most of an object's size) and returns
 * the same object, with `metadata` replaced by a copy without the field. Idempotent.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { listWatch, stripManagedFields } from 'rx-informer';
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * listWatch(kubeConfig, { version: 'v1', plural: 'pods' }, { transform: stripManagedFields });
 * ```
 */
export function stripManagedFields<T>(object: T): T {
  const holder = object as { metadata?: Record<string, unknown> } | null;
  const meta = holder?.metadata;
  // Rebuild metadata rather than `delete` the field: a delete turns the object into V8's dictionary
  // mode, which retained ~380 B more per object in the benchmark (bench/NOTES.md).
  if (meta && typeof meta === 'object' && 'managedFields' in meta) {
    const { managedFields: _dropped, ...rest } = meta;
    holder!.metadata = rest;
  }
  return object;
}
