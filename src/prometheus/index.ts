/**
 * rx-informer/prometheus: informer and controller metrics for prom-client (an optional peer
 * dependency): `registerInformerMetrics` (rx_informer_*), `leaderElectionMetrics` (client-go's
 * leader_election_master_status), `controllerMetrics` (controller-runtime's
 * controller_runtime_* and workqueue_* names).
 *
 * @module rx-informer/prometheus
 */
export { registerInformerMetrics } from './registerInformerMetrics.js';
export type { NamedMetricsSource } from './registerInformerMetrics.js';
export { controllerMetrics } from './controllerMetrics.js';
export type { ControllerMetricsConfig } from './controllerMetrics.js';
export { leaderElectionMetrics } from './leaderElectionMetrics.js';
export type { LeaderElectionMetricsConfig } from './leaderElectionMetrics.js';
