/**
 * Applies an RFC 7386 JSON merge patch: objects merge recursively, `null` deletes a member, anything
 * else (arrays included) replaces. Strategic merge patches are applied the same way by the test
 * server, which is enough for labels, annotations, data and status.
 *
 * @returns A new value; `target` is not modified.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else Object.defineProperty(base, key, { value: mergePatch(base[key], value), enumerable: true, writable: true, configurable: true });
  }
  return base;
}
