import type { Observable } from 'rxjs';
import type { HealthCheck } from './healthProbes.js';

/** What {@link informersReady} reads of an informer: its snapshot's synced flag and, when it has one, its status stream. */
export interface ReadinessSource {
  readonly snapshot: { readonly synced: boolean };
  /** A factory's informer has one: a watch backing off or failing makes it not ready. */
  readonly status$?: Observable<{ readonly type: string }>;
  /** Named in the failure reason (else its position). */
  readonly name?: string;
}

const notAlive = new Set(['BACKING_OFF', 'ERROR', 'FAILED']);

/**
 * A readiness check over a controller's informers: ready when every one has applied its first list
 * and, for those with a `status$`, its last status is not a failure or a backoff (its watch is
 * alive). Statuses are followed from the call on, so make the check when the informers are made.
 *
 * ## Example
 * ```ts
 * import { informersReady, serveHealthProbes } from 'rx-informer/controller';
 * import type { Informer, KubeObject } from 'rx-informer';
 *
 * declare const sets: Informer<KubeObject>, configMaps: Informer<KubeObject>; // assuming: the controller's informers
 * serveHealthProbes({ port: 8081, readiness: { informers: informersReady([sets, configMaps]) } }).subscribe();
 * ```
 *
 * @param informers the informers to watch.
 * @returns a {@link HealthCheck} that throws, naming the first informer that is not ready.
 */
export function informersReady(informers: readonly ReadinessSource[]): HealthCheck {
  if (!Array.isArray(informers) || informers.some((i) => i === null || typeof i !== 'object' || !('snapshot' in i))) throw new TypeError('[informer] informersReady: expected an array of informers');
  const last = informers.map(() => undefined as string | undefined);
  informers.forEach((informer, i) => informer.status$?.subscribe((status: { readonly type: string }) => (last[i] = status.type)));
  return () => {
    informers.forEach((informer, i) => {
      const name = informer.name ?? `informer #${i + 1}`;
      if (!informer.snapshot.synced) throw new Error(`${name} has not synced`);
      if (last[i] !== undefined && notAlive.has(last[i]!)) throw new Error(`${name} is not watching (${last[i]})`);
    });
  };
}
