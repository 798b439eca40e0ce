import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { ReconcileMetrics } from '../metrics/reconcileMetrics.js';
import { optionChecks } from '../options/optionChecks.js';
import { depthByPriority } from './depthByPriority.js';

/** Options of {@link controllerMetrics}. */
export interface ControllerMetricsConfig {
  /** The `controller` label (and the work queue's `name`); one per controller. */
  readonly controller: string;
  /** The clock of the controller (its `scheduler`), for the running-time gauges read at scrape time. */
  readonly scheduler?: SchedulerLike;
}

/** controller-runtime's `reconcile_time_seconds` buckets (5 ms to 60 s). */
const reconcileBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60];
/** client-go's work queue buckets: `ExponentialBuckets(10e-9, 10, 12)`, 10 ns to 1,000 s. */
const queueBuckets = Array.from({ length: 12 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)));

/** What a controller is running now, read at scrape time. */
interface Running {
  readonly controller: string;
  readonly clock: SchedulerLike;
  readonly since: Map<string, number>;
}
const runningByRegistry = new WeakMap<Registry, Set<Running>>();

/**
 * Work queue and reconcile metrics of one controller under controller-runtime's names and labels,
 * registered with `registry` (shared by every controller registered with it). Pass the result as
 * the `metrics` option of `controller()`, `reconcileObjects()` or `reconcile()`.
 *
 * - `controller_runtime_reconcile_total{controller, result}` (`success`, `error`, `requeue_after`;
 *   a terminal error counts as `error`), `controller_runtime_reconcile_errors_total{controller}`,
 *   `controller_runtime_terminal_reconcile_errors_total{controller}`,
 *   `controller_runtime_reconcile_time_seconds{controller}` (histogram, controller-runtime's
 *   buckets), `controller_runtime_max_concurrent_reconciles{controller}`,
 *   `controller_runtime_active_workers{controller}`.
 * - `workqueue_adds_total`, `workqueue_queue_duration_seconds`,
 *   `workqueue_work_duration_seconds` (histograms, client-go's buckets),
 *   `workqueue_unfinished_work_seconds`, `workqueue_longest_running_processor_seconds`,
 *   `workqueue_retries_total`, all `{name, controller}`, and `workqueue_depth{name, controller,
 *   priority}` as controller-runtime's priority queue labels it: the keys waiting at each priority
 *   (`"0"`, `"-100"` for the initial list; `""` when the queue ignores priorities; a raised key moves
 *   to its new priority; past 25 distinct priorities all count as `exceeded_cardinality_limit`).
 * - `controller_runtime_reconcile_timeouts_total{controller}` (runs aborted by `timeoutMs`), and
 *   for read-your-own-writes (no controller-runtime name yet):
 *   `rx_informer_reconcile_freshness_waits_total{controller}` (runs held for the cache) and
 *   `rx_informer_reconcile_stale_starts_total{controller}` (runs started when the wait ran out).
 *
 * Durations come from the controller's scheduler, so they follow virtual time in tests.
 *
 * ## Example
 * ```ts
 * import { Registry } from 'prom-client';
 * import { controllerMetrics } from 'rx-informer/prometheus';
 * import { controller } from 'rx-informer/controller';
 * import type { Informer, KubeObject } from 'rx-informer';
 *
 * declare const sets: Informer<KubeObject>; // assuming: the primary informer
 * const registry = new Registry();
 * controller(sets, { reconcile: () => undefined, metrics: controllerMetrics(registry, { controller: 'configmapset' }) }).subscribe();
 * // serve `await registry.metrics()` on /metrics
 * ```
 *
 * @param registry the prom-client registry.
 * @param config the controller's name and clock.
 * @returns the hooks the controller's queue calls.
 */
export function controllerMetrics(registry: Registry, config: ControllerMetricsConfig): ReconcileMetrics {
  const check = optionChecks('controllerMetrics', config, false);
  const { controller, scheduler }: Required<ControllerMetricsConfig> = {
    controller: check.nonEmptyString('controller', config.controller) ?? check.fail('controller is required'),
    scheduler: config.scheduler ?? asyncScheduler,
  };
  const labels = { controller };
  const queue = { name: controller, controller };
  const running: Running = { controller, clock: scheduler, since: new Map() };
  let all = runningByRegistry.get(registry);
  if (all === undefined) runningByRegistry.set(registry, (all = new Set()));
  all.add(running);
  const runs = all;
  // A controller is read at scrape time only while it runs: stopped() takes it out (its series
  // stay, at 0), started() puts it back, so metrics built per term do not pile up in the registry.
  const m = metricsOf(registry, () => runs);
  const addedAt = new Map<string, number>();
  const depth = depthByPriority(m.depth, queue);
  m.maxConcurrent.set(labels, 1);
  m.activeWorkers.set(labels, 0);

  return {
    started(concurrency) {
      runs.add(running);
      m.maxConcurrent.set(labels, concurrency);
    },
    added(key, now, priority) {
      m.adds.inc(queue);
      depth.inc(priority);
      if (!addedAt.has(key)) addedAt.set(key, now);
    },
    raised(_key, from, to) {
      depth.dec(from);
      depth.inc(to);
    },
    taken(key, now, priority) {
      depth.dec(priority);
      const since = addedAt.get(key);
      if (since !== undefined) m.queueDuration.observe(queue, (now - since) / 1000);
      addedAt.delete(key);
      running.since.set(key, now);
      m.activeWorkers.inc(labels);
    },
    done(key, now, result) {
      const since = running.since.get(key);
      if (since !== undefined) {
        m.workDuration.observe(queue, (now - since) / 1000);
        m.reconcileTime.observe(labels, (now - since) / 1000);
        running.since.delete(key);
        m.activeWorkers.dec(labels);
      }
      m.reconcileTotal.inc({ controller, result: result === 'terminal' ? 'error' : result });
      if (result === 'error' || result === 'terminal') m.reconcileErrors.inc(labels);
      if (result === 'terminal') m.terminalErrors.inc(labels);
    },
    retried() {
      m.retries.inc(queue);
    },
    timedOut() {
      m.timeouts.inc(labels);
    },
    held() {
      m.held.inc(labels);
    },
    startedBehind() {
      m.behind.inc(labels);
    },
    stopped() {
      addedAt.clear();
      running.since.clear();
      depth.reset();
      m.activeWorkers.set(labels, 0);
      runs.delete(running);
      m.unfinished.set(queue, 0);
      m.longest.set(queue, 0);
    },
  };
}

/** @internal How many controllers `registry` reads at scrape time (those not stopped). */
export function runningControllers(registry: Registry): number {
  return runningByRegistry.get(registry)?.size ?? 0;
}

/** The metrics in `registry`, made on first use (so several controllers share them). */
function metricsOf(registry: Registry, runs: () => ReadonlySet<Running>) {
  const registers = [registry];
  const existing = <M>(name: string): M | undefined => registry.getSingleMetric(name) as M | undefined;
  const counter = (name: string, help: string, labelNames: string[]): Counter<string> => existing(name) ?? new Counter({ name, help, labelNames, registers });
  const gauge = (name: string, help: string, labelNames: string[]): Gauge<string> => existing(name) ?? new Gauge({ name, help, labelNames, registers });
  const histogram = (name: string, help: string, labelNames: string[], buckets: number[]): Histogram<string> => existing(name) ?? new Histogram({ name, help, labelNames, buckets, registers });
  const runningGauge = (name: string, help: string, value: (running: Running) => number): Gauge<string> =>
    existing(name) ??
    new Gauge({
      name,
      help,
      labelNames: ['name', 'controller'],
      registers,
      collect() {
        for (const running of runs()) this.set({ name: running.controller, controller: running.controller }, value(running));
      },
    });
  const ages = (running: Running): number[] => [...running.since.values()].map((since) => (running.clock.now() - since) / 1000);
  return {
    reconcileTotal: counter('controller_runtime_reconcile_total', 'Total number of reconciliations per controller', ['controller', 'result']),
    reconcileErrors: counter('controller_runtime_reconcile_errors_total', 'Total number of reconciliation errors per controller', ['controller']),
    terminalErrors: counter('controller_runtime_terminal_reconcile_errors_total', 'Total number of terminal reconciliation errors per controller', ['controller']),
    reconcileTime: histogram('controller_runtime_reconcile_time_seconds', 'Length of time per reconciliation per controller', ['controller'], reconcileBuckets),
    maxConcurrent: gauge('controller_runtime_max_concurrent_reconciles', 'Maximum number of concurrent reconciles per controller', ['controller']),
    activeWorkers: gauge('controller_runtime_active_workers', 'Number of currently used workers per controller', ['controller']),
    depth: gauge('workqueue_depth', 'Current depth of workqueue by workqueue and priority', ['name', 'controller', 'priority']),
    adds: counter('workqueue_adds_total', 'Total number of adds handled by workqueue', ['name', 'controller']),
    queueDuration: histogram('workqueue_queue_duration_seconds', 'How long in seconds an item stays in workqueue before being requested', ['name', 'controller'], queueBuckets),
    workDuration: histogram('workqueue_work_duration_seconds', 'How long in seconds processing an item from workqueue takes', ['name', 'controller'], queueBuckets),
    unfinished: runningGauge(
      'workqueue_unfinished_work_seconds',
      'How many seconds of work has been done that is in progress and hasn’t been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.',
      (running) => ages(running).reduce((sum, age) => sum + age, 0),
    ),
    longest: runningGauge('workqueue_longest_running_processor_seconds', 'How many seconds has the longest running processor for workqueue been running.', (running) => Math.max(0, ...ages(running))),
    retries: counter('workqueue_retries_total', 'Total number of retries handled by workqueue', ['name', 'controller']),
    timeouts: counter('controller_runtime_reconcile_timeouts_total', 'Total number of reconciliation timeouts per controller', ['controller']),
    held: counter('rx_informer_reconcile_freshness_waits_total', 'Runs held because the cache was behind this process\'s own writes (read-your-own-writes)', ['controller']),
    behind: counter('rx_informer_reconcile_stale_starts_total', 'Runs started from a cache still behind this process\'s own writes, after the read-your-own-writes wait ran out', ['controller']),
  };
}
