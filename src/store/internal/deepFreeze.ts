/**
 * Freezes a JSON-like value and everything reachable from it, skipping parts already frozen (so
 * objects shared with an earlier snapshot cost nothing). Faster than a general deep freeze because
 * Kubernetes objects are plain JSON: own enumerable string keys, arrays, no cycles.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) freezeTree(value as object);
  return value;
}

function freezeTree(object: object): void {
  Object.freeze(object);
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++) {
      const child: unknown = object[i];
      if (child !== null && typeof child === 'object' && !Object.isFrozen(child)) freezeTree(child);
    }
    return;
  }
  for (const key in object) {
    const child: unknown = (object as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object' && !Object.isFrozen(child)) freezeTree(child);
  }
}
