import type { ListResponse } from '../listerWatcher.js';

/**
 * A parsed list body as a {@link ListResponse}: its items with `kind`/`apiVersion` filled in from
 * the list's (`ConfigMapList` → `ConfigMap`), its resourceVersion, continue token and remaining count.
 *
 * @throws {TypeError} when the body is not a Kubernetes list.
 */
export function toListResponse<T>(body: unknown): ListResponse<T> {
  const list = body as {
    kind?: unknown;
    apiVersion?: unknown;
    items?: unknown;
    metadata?: { resourceVersion?: unknown; continue?: unknown; remainingItemCount?: unknown };
  } | null;
  if (list === null || typeof list !== 'object' || !Array.isArray(list.items)) {
    throw new TypeError('not a Kubernetes list');
  }
  const items = list.items as Array<Record<string, unknown>>;
  const listKind = typeof list.kind === 'string' && list.kind.endsWith('List') ? list.kind.slice(0, -4) : undefined;
  const apiVersion = typeof list.apiVersion === 'string' ? list.apiVersion : undefined;
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    if (item['kind'] === undefined && listKind) item['kind'] = listKind;
    if (item['apiVersion'] === undefined && apiVersion) item['apiVersion'] = apiVersion;
  }
  const meta = list.metadata ?? {};
  const response: { -readonly [K in keyof ListResponse<T>]: ListResponse<T>[K] } = {
    items: items as unknown as T[],
    resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '',
  };
  if (typeof meta.continue === 'string' && meta.continue !== '') response.continue = meta.continue;
  if (typeof meta.remainingItemCount === 'number') response.remainingItemCount = meta.remainingItemCount;
  return response;
}
