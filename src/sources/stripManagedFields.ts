/**
 * A ready `transform`: drops `metadata.managedFields` (often most of an object's size) in place and
 * returns the same object. Idempotent.
 *
 * ## Example
 * ```ts
 * listWatch(kc, { version: 'v1', plural: 'pods' }, { transform: stripManagedFields });
 * ```
 */
export function stripManagedFields<T>(object: T): T {
  const meta = (object as { metadata?: Record<string, unknown> } | null)?.metadata;
  if (meta && typeof meta === 'object' && 'managedFields' in meta) delete meta['managedFields'];
  return object;
}
