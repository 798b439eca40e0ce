/**
 * The soak's end checks against the API server's truth (a fresh LIST): the informers' caches
 * object by object, and every ConfigMapSet's ConfigMaps against its spec.
 */

/** An object as a LIST returns it, with the fields the checks read. */
export interface ListedObject {
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly uid: string;
    readonly resourceVersion: string;
    readonly generation?: number;
    readonly labels?: Record<string, string>;
    readonly deletionTimestamp?: string;
    readonly ownerReferences?: ReadonlyArray<{ readonly uid: string; readonly controller?: boolean }>;
  };
  readonly spec?: { readonly configMaps?: Record<string, Record<string, string>> };
  readonly status?: { readonly observedGeneration?: number };
  readonly data?: Record<string, string>;
}

export interface CacheDump {
  readonly configmaps: Record<string, string>;
  readonly sets: Record<string, string>;
  readonly groups: Record<string, number>;
}

const keyOf = (o: ListedObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Objects missing from a cache, left over in it, or at another resourceVersion; index sizes that differ. */
export function compareCaches(dump: CacheDump, configMaps: readonly ListedObject[], sets: readonly ListedObject[]): { divergences: number; details: string[] } {
  const details: string[] = [];
  const compare = (what: string, cached: Record<string, string>, listed: readonly ListedObject[]): void => {
    const truth = new Map(listed.map((o) => [keyOf(o), o.metadata.resourceVersion]));
    for (const [key, rv] of truth) if (cached[key] !== rv) details.push(`${what} ${key}: cache ${cached[key] ?? 'missing'}, server ${rv}`);
    for (const key of Object.keys(cached)) if (!truth.has(key)) details.push(`${what} ${key}: cached, deleted on the server`);
  };
  compare('ConfigMap', dump.configmaps, configMaps);
  compare('ConfigMapSet', dump.sets, sets);
  const groups = new Map<string, number>();
  for (const cm of configMaps) {
    const group = cm.metadata.labels?.['soak/group'] ?? 'none';
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  for (const [group, count] of groups) if (dump.groups[group] !== count) details.push(`index group=${group}: ${dump.groups[group] ?? 0} keys, server ${count}`);
  return { divergences: details.length, details };
}

/** Sets not yet reconciled to their generation, or whose owned ConfigMaps differ from their spec. */
export function specMismatches(sets: readonly ListedObject[], configMaps: readonly ListedObject[]): { mismatches: number; details: string[] } {
  const owned = new Map<string, ListedObject[]>();
  for (const cm of configMaps) {
    const owner = cm.metadata.ownerReferences?.find((ref) => ref.controller)?.uid;
    if (owner !== undefined) owned.set(owner, [...(owned.get(owner) ?? []), cm]);
  }
  const details: string[] = [];
  for (const set of sets) {
    const name = set.metadata.name;
    if (set.metadata.deletionTimestamp !== undefined) {
      details.push(`${name}: still deleting`);
      continue;
    }
    if (set.status?.observedGeneration !== set.metadata.generation) {
      details.push(`${name}: observedGeneration ${set.status?.observedGeneration} of ${set.metadata.generation}`);
      continue;
    }
    const wanted = new Map(Object.entries(set.spec?.configMaps ?? {}).map(([key, data]) => [`${name}-${key}`, JSON.stringify(data)]));
    const have = new Map((owned.get(set.metadata.uid) ?? []).map((cm) => [cm.metadata.name, JSON.stringify(cm.data ?? {})]));
    const wrong = [...wanted].filter(([child, data]) => have.get(child) !== data).map(([child]) => child);
    const extra = [...have.keys()].filter((child) => !wanted.has(child));
    if (wrong.length + extra.length > 0) details.push(`${name}: ${wrong.length} children unlike the spec, ${extra.length} extra`);
  }
  return { mismatches: details.length, details };
}
