/* The reconcile runs the in-process sharding tests record, and the check they share. */

/** One reconcile run of one key by one member: started, and ended once it settled. */
export interface Run { readonly key: string; readonly member: string; readonly rv: string | undefined; readonly start: number; end?: number }

/** Pairs of runs of one key by two members that overlap in time (an unfinished run lasts for ever). */
export function overlaps(runs: readonly Run[]): string[] {
  const byKey = new Map<string, Run[]>();
  for (const run of runs) byKey.set(run.key, [...(byKey.get(run.key) ?? []), run]);
  const found: string[] = [];
  for (const [key, list] of byKey) {
    for (const a of list) for (const b of list) {
      if (a.member < b.member && a.start < (b.end ?? Infinity) && b.start < (a.end ?? Infinity)) found.push(`${key}: ${a.member} × ${b.member}`);
    }
  }
  return found;
}
