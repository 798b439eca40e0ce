import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { InformerMetrics } from '../metrics/informerMetrics.js';
import { latencyBuckets, type LatencyHistogram } from '../metrics/latencyHistogram.js';

/** Something with metrics and a name for the `informer` label: a factory's shared informer is one. */
export interface NamedMetricsSource {
  /** The value of the `informer` label of its series. */
  readonly name: string;
  /** Reads its counters, at each scrape. */
  metrics(): InformerMetrics;
}

/**
 * Registers gauges and counters, read at scrape time, for each informer in `sources` (a function,
 * so informers created later are included).
 *
 * Metric names (all labelled `informer`): `rx_informer_objects`, `rx_informer_cache_estimated_bytes`
 * (see `metrics().estimatedBytes`), `rx_informer_synced`,
 * `rx_informer_sync_duration_seconds`, `rx_informer_last_event_age_seconds`,
 * `rx_informer_lists_total`, `rx_informer_list_pages_total`, `rx_informer_watches_total`,
 * `rx_informer_relists_total{reason}`, `rx_informer_backoffs_total`, `rx_informer_errors_total`,
 * `rx_informer_watch_events_total{type}`, `rx_informer_notifications_total{type}`,
 * `rx_informer_reconciles_total{result}`, `rx_informer_reconcile_queue_depth`; the histograms
 * `rx_informer_event_latency_seconds` (an event's arrival on the socket to its delivery to
 * subscribers) and `rx_informer_watch_lag_seconds` (the server's write, by `managedFields` time at
 * one-second resolution, to delivery), with buckets from 100 µs to 10 s; and, for informers with a
 * latency objective, `rx_informer_latency_objective_met` (1 met, 0 breached or alerting) and
 * `rx_informer_latency_objective_alert` (1 while a sample over `alertMs` is in the window). Unlabelled,
 * for all the informers together: `rx_informer_factory_objects` and
 * `rx_informer_factory_cache_estimated_bytes`.
 * A p95 over 5 minutes: `histogram_quantile(0.95, sum by (le) (rate(rx_informer_event_latency_seconds_bucket[5m])))`.
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
  const total = (name: string, help: string, value: (m: InformerMetrics) => number): void => {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read().reduce((sum, [, m]) => sum + value(m), 0));
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

  const histogram = (name: string, help: string, value: (m: InformerMetrics) => LatencyHistogram): void => {
    const metric = new Histogram({ name, help, labelNames: ['informer'], buckets: [...latencyBuckets], registers });
    // The histogram is read, not observed: its samples were counted by the informer's collector.
    const get = async () => ({
      name,
      help,
      type: 'histogram' as const,
      aggregator: 'sum' as const,
      values: read().flatMap(([informer, m]) => {
        const h = value(m);
        return [
          ...h.buckets.map((b) => ({ metricName: `${name}_bucket`, labels: { informer, le: b.le === Infinity ? '+Inf' : b.le }, value: b.count })),
          { metricName: `${name}_sum`, labels: { informer }, value: h.sum },
          { metricName: `${name}_count`, labels: { informer }, value: h.count },
        ];
      }),
    });
    Object.assign(metric, { get, getForPromString: get });
  };

  histogram('rx_informer_event_latency_seconds', 'Time from a watch event arriving on the socket to its delivery to subscribers.', (m) => m.eventLatency);
  histogram('rx_informer_watch_lag_seconds', 'Time from the server writing an object (newest managedFields time, 1 s resolution) to its delivery.', (m) => m.watchLag);
  gauge('rx_informer_latency_objective_met', '1 while the latency objective is met, 0 while breached or alerting (absent without data).', (m) =>
    m.objective === undefined || m.objective.state === 'noData' ? undefined : m.objective.state === 'met' ? 1 : 0,
  );
  gauge('rx_informer_latency_objective_alert', '1 while a latency over the alert threshold is in the window.', (m) => (m.objective === undefined ? undefined : m.objective.state === 'alert' ? 1 : 0));
  gauge('rx_informer_objects', 'Objects in the informer cache.', (m) => m.objects);
  gauge('rx_informer_cache_estimated_bytes', 'Estimated heap bytes of the objects in the informer cache (their JSON shape costed as V8 lays it out).', (m) => m.estimatedBytes);
  // The whole factory (every informer `sources` gives), unlabelled, as controller-runtime would report one cache.
  total('rx_informer_factory_objects', 'Objects in all the informer caches.', (m) => m.objects);
  total('rx_informer_factory_cache_estimated_bytes', 'Estimated heap bytes of the objects in all the informer caches.', (m) => m.estimatedBytes);
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
