import { Gauge, type Registry } from 'prom-client';
import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Leadership } from '../coordination/electionState.js';
import { optionChecks } from '../options/optionChecks.js';

/** Options of {@link leaderElectionMetrics}. */
export interface LeaderElectionMetricsConfig {
  /** The `name` label: the lease (client-go labels it with the lock's name). */
  readonly name: string;
}

/**
 * client-go's `leader_election_master_status{name}` gauge (1 while this replica leads, 0 while it
 * follows), kept by the leadership values that pass through.
 *
 * ```text
 * leadership: --L------F----
 * leaderElectionMetrics(registry, { name: 'lock' })
 * output:     --L------F----      gauge: 1 from L, 0 from F
 * ```
 *
 * One gauge per registry, shared by every election registered with it.
 *
 * ## Example
 * ```ts
 * import { Registry } from 'prom-client';
 * import { leaderElection, leaseClient, whileLeading } from 'rx-informer/controller';
 * import { leaderElectionMetrics } from 'rx-informer/prometheus';
 * import type { KubeConfig } from '@kubernetes/client-node';
 * declare const kubeConfig: KubeConfig; // assuming: loaded from the default location
 *
 * const registry = new Registry();
 * const election = leaderElection({ leases: leaseClient(kubeConfig), lease: { namespace: 'demo', name: 'lock' } }).pipe(leaderElectionMetrics(registry, { name: 'lock' }));
 * election.subscribe();
 * ```
 *
 * @param registry the prom-client registry.
 * @param config the `name` label.
 * @returns an operator that passes leadership values through and records them.
 */
export function leaderElectionMetrics(registry: Registry, config: LeaderElectionMetricsConfig): MonoTypeOperatorFunction<Leadership> {
  const check = optionChecks('leaderElectionMetrics', config, false);
  const name = check.nonEmptyString('name', config.name) ?? check.fail('name is required');
  const existing = registry.getSingleMetric('leader_election_master_status');
  const gauge =
    existing instanceof Gauge
      ? (existing as Gauge<'name'>)
      : new Gauge({ name: 'leader_election_master_status', help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease.', labelNames: ['name'], registers: [registry] });
  return tap((leadership) => gauge.set({ name }, leadership.state === 'leading' ? 1 : 0));
}
