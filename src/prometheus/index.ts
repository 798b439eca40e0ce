/**
 * rx-informer/prometheus: informer and controller metrics for prom-client (an optional peer
 * dependency): `registerInformerMetrics` (rx_informer_*), `leaderElectionMetrics` (client-go's
 * leader_election_master_status), `controllerMetrics` (controller-runtime's
 * controller_runtime_* and workqueue_* names).
 *
 * @module rx-informer/prometheus
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { InformerMetrics } from '../metrics/informerMetrics.js';

/** Something with metrics and a name for the `informer` label: a factory's shared informer is one. */
export interface NamedMetricsSource {
  readonly name: string;
  metrics(): InformerMetrics;
}

/**
 * Registers gauges and counters, read at scrape time, for each informer in `sources` (a function,
 * so informers created later are included).
 *
 * Metric names (all labelled `informer`): `rx_informer_objects`, `rx_informer_synced`,
 * `rx_informer_sync_duration_seconds`, `rx_informer_last_event_age_seconds`,
 * `rx_informer_lists_total`, `rx_informer_list_pages_total`, `rx_informer_watches_total`,
 * `rx_informer_relists_total{reason}`, `rx_informer_backoffs_total`, `rx_informer_errors_total`,
 * `rx_informer_watch_events_total{type}`, `rx_informer_notifications_total{type}`,
 * `rx_informer_reconciles_total{result}`, `rx_informer_reconcile_queue_depth`.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { Registry } from 'prom-client';
 * import { informerFactory } from 'rx-informer';
 * import { registerInformerMetrics } from 'rx-informer/prometheus';
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const factory = informerFactory(kubeConfig);
 * const registry = new Registry();
 * registerInformerMetrics(registry, () => factory.informers);
 * // reconcile results and queue depth: keys$.pipe(reconcile(handler), tap(pods.onReconcile))
 * // serve `await registry.metrics()` on /metrics
 * ```
 *
 * @param registry the prom-client registry to register with.
 * @param sources the informers to report, read at every scrape.
 */
export function registerInformerMetrics(registry: Registry, sources: () => readonly NamedMetricsSource[]): void {
  const read = (): [string, InformerMetrics][] => sources().map((source) => [source.name, source.metrics()]);
  const registers = [registry];

  const gauge = (name: string, help: string, value: (m: InformerMetrics) => number | undefined): void => {
    new Gauge({
      name,
      help,
      labelNames: ['informer'],
      registers,
      collect() {
        this.reset();
        for (const [informer, m] of read()) {
          const v = value(m);
          if (v !== undefined) this.set({ informer }, v);
        }
      },
    });
  };
  const counter = (name: string, help: string, extra: string | undefined, values: (m: InformerMetrics) => Record<string, number>): void => {
    new Counter({
      name,
      help,
      labelNames: extra ? ['informer', extra] : ['informer'],
      registers,
      collect() {
        this.reset();
        for (const [informer, m] of read()) {
          for (const [label, v] of Object.entries(values(m))) this.inc(extra ? { informer, [extra]: label } : { informer }, v);
        }
      },
    });
  };

  gauge('rx_informer_objects', 'Objects in the informer cache.', (m) => m.objects);
  gauge('rx_informer_synced', '1 once the first list has been applied.', (m) => (m.synced ? 1 : 0));
  gauge('rx_informer_sync_duration_seconds', 'Time to the first synced snapshot.', (m) => (m.syncDurationMs === undefined ? undefined : m.syncDurationMs / 1000));
  gauge('rx_informer_last_event_age_seconds', 'Time since the last event from the API server.', (m) => (m.lastEventAgeMs === undefined ? undefined : m.lastEventAgeMs / 1000));
  gauge('rx_informer_reconcile_queue_depth', 'Keys waiting to be reconciled after the last run.', (m) => m.reconciles.queueDepth);
  counter('rx_informer_lists_total', 'List cycles started (first list and relists).', undefined, (m) => ({ all: m.lists }));
  counter('rx_informer_list_pages_total', 'List pages received.', undefined, (m) => ({ all: m.listPages }));
  counter('rx_informer_watches_total', 'Watch streams opened.', undefined, (m) => ({ all: m.watches }));
  counter('rx_informer_relists_total', 'Relists, by reason.', 'reason', (m) => ({ ...m.relistReasons }) as Record<string, number>);
  counter('rx_informer_backoffs_total', 'Backoff waits.', undefined, (m) => ({ all: m.backoffs }));
  counter('rx_informer_errors_total', 'Errors reported by the source.', undefined, (m) => ({ all: m.errors }));
  counter('rx_informer_watch_events_total', 'Watch events, by type.', 'type', (m) => ({ ...m.events }));
  counter('rx_informer_notifications_total', 'Notifications delivered, by type.', 'type', (m) => ({ ...m.notifications }));
  counter('rx_informer_reconciles_total', 'Reconcile runs, by result.', 'result', (m) => ({ success: m.reconciles.successes, error: m.reconciles.failures }));
}

export { controllerMetrics } from './controllerMetrics.js';
export type { ControllerMetricsConfig } from './controllerMetrics.js';
export { leaderElectionMetrics } from './leaderElectionMetrics.js';
export type { LeaderElectionMetricsConfig } from './leaderElectionMetrics.js';
