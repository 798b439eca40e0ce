import { defer, ignoreElements, interval, mergeMap, type Observable } from 'rxjs';
import { holderOf, leaseType, type Lease } from '../coordination/lease.js';
import { memberKeyOf } from './memberObservations.js';
import type { ResolvedShardingConfig } from './shardingConfig.js';

/**
 * @internal Deletes member Leases whose holder has been out of the live set (released, or confirmed
 * dead) at two checks in a row, `4 × leaseDuration` apart: every term has a Lease of its own, and
 * terms that ended never come back. The delete is guarded by the resourceVersion seen, so a Lease
 * that changed meanwhile stays. The sharder collects in label mode; in server mode, the first of
 * the live members (`collecting`), so that one replica deletes rather than all.
 *
 * @param leases the ring's member Leases as last seen.
 * @param live the holders live now.
 * @param collecting whether this replica collects at this check (default: always).
 */
export function collectDeadMembers(c: ResolvedShardingConfig, leases: { readonly snapshot: Iterable<Lease> }, live: () => ReadonlySet<string>, collecting: () => boolean = () => true): Observable<never> {
  return defer(() => {
    let suspects = new Map<string, string>(); // lease key → resourceVersion seen dead once
    return interval(4 * c.leaseDurationMs, c.scheduler).pipe(
      mergeMap(() => {
        const alive = live();
        const dead = new Map<string, Lease>();
        if (collecting()) {
          for (const lease of leases.snapshot) {
            const holder = holderOf(lease);
            if (holder === undefined || !alive.has(holder)) dead.set(memberKeyOf(lease), lease);
          }
        }
        const again = [...dead].filter(([key, lease]) => suspects.get(key) === lease.metadata?.resourceVersion);
        suspects = new Map([...dead].map(([key, lease]) => [key, lease.metadata?.resourceVersion ?? '']));
        return again.map(([, lease]) => lease);
      }),
      mergeMap(async (lease) => {
        const resourceVersion = lease.metadata?.resourceVersion;
        try {
          await c.client.delete({ ...leaseType, namespace: c.namespace, name: lease.metadata!.name! }, resourceVersion ? { preconditions: { resourceVersion } } : {});
        } catch (error) {
          c.onError?.(error); // a conflict: it changed; anything else: next time
        }
      }, 4),
      ignoreElements(),
    );
  });
}
