import type { Informer } from '../informer/informer.js';
import type { KubeObject } from '../store/kubeObject.js';
import { currentStatus } from './currentStatus.js';
import type { HealthCheck } from './healthProbes.js';
import { argumentError } from '../options/optionChecks.js';

/** What {@link informersReady} reads of an informer: its snapshot's synced flag and its status; `name` is used in the failure reason (else its position). */
export type ReadinessSource = Pick<Informer<KubeObject>, 'snapshot' | 'status$'> & {
  /** Names the informer in the failure reason. Default `informer #<position from 1>`. */
  readonly name?: string;
};

const notAlive = new Set(['BACKING_OFF', 'ERROR', 'FAILED']);

/**
 * A readiness check over a controller's informers: ready when every one has applied its first list
 * and its latest status (what `status$` replays at the time of the check) is not a failure or a
 * backoff: its watch is alive.
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
 * @param informers the informers to check.
 * @returns a {@link HealthCheck} that throws, naming the first informer that is not ready.
 */
export function informersReady(informers: readonly ReadinessSource[]): HealthCheck {
  if (!Array.isArray(informers) || informers.some((i) => i === null || typeof i !== 'object' || !('snapshot' in i) || typeof i.status$?.subscribe !== 'function')) {
    throw argumentError('informersReady', 'expected an array of informers');
  }
  return () => {
    informers.forEach((informer, i) => {
      const name = informer.name ?? `informer #${i + 1}`;
      if (!informer.snapshot.synced) throw new Error(`${name} has not synced`);
      const status = currentStatus(informer)?.type;
      if (status !== undefined && notAlive.has(status)) throw new Error(`${name} is not watching (${status})`);
    });
  };
}
