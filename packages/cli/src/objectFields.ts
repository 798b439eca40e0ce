/*
 * Reading the JSON of an object for a table cell: every field may be missing or of another type,
 * so each reader checks and falls back instead of throwing.
 */

type Json = Readonly<Record<string, unknown>>;

/** The value at `path` in `object`, or undefined when any step is missing. */
export function field(object: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json)[key] : undefined), object);
}

/** `value` if it is an array of objects (its non-objects dropped), else `[]`. */
export function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value.filter((v) => v !== null && typeof v === 'object') as Json[]) : [];
}

/** A string or a number as text; `fallback` (kubectl's `<none>`) for anything else or an empty string. */
export function text(value: unknown, fallback = '<none>'): string {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : fallback;
}

/** A count: the number, or 0. */
export function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A map of strings as kubectl's `labels.FormatLabels` prints it: `a=1,b=2` by key, `<none>` when empty. */
export function labelsText(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '<none>';
  const pairs = Object.entries(value as Json).filter(([, v]) => typeof v === 'string').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return pairs.length === 0 ? '<none>' : pairs.map(([k, v]) => `${k}=${String(v)}`).join(',');
}

/**
 * A `metav1.LabelSelector` as kubectl prints it: requirements by key, `app=web`, `tier in (a,b)`,
 * `tier notin (c)`, `key`, `!key`; `<none>` for an empty one.
 */
export function selectorText(selector: unknown): string {
  const requirements: Array<[string, string]> = [];
  const matchLabels = field(selector, 'matchLabels');
  if (matchLabels !== null && typeof matchLabels === 'object') {
    for (const [key, value] of Object.entries(matchLabels as Json)) if (typeof value === 'string') requirements.push([key, `${key}=${value}`]);
  }
  for (const expression of list(field(selector, 'matchExpressions'))) {
    const key = text(expression['key'], '');
    const values = (Array.isArray(expression['values']) ? (expression['values'] as unknown[]).filter((v) => typeof v === 'string') : []).sort().join(',');
    const operator = expression['operator'];
    if (operator === 'In') requirements.push([key, `${key} in (${values})`]);
    else if (operator === 'NotIn') requirements.push([key, `${key} notin (${values})`]);
    else if (operator === 'Exists') requirements.push([key, key]);
    else if (operator === 'DoesNotExist') requirements.push([key, `!${key}`]);
  }
  requirements.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return requirements.length === 0 ? '<none>' : requirements.map(([, r]) => r).join(',');
}

/** The pod template's containers' names and images, comma-separated (kubectl's wide CONTAINERS and IMAGES). */
export function templateContainers(object: unknown, part: 'name' | 'image'): string {
  const containers = list(field(object, 'spec', 'template', 'spec', 'containers'));
  return containers.length === 0 ? '<none>' : containers.map((c) => text(c[part], '')).join(',');
}
