import test from 'ava';
import { Registry } from 'prom-client';
import { Subscription, type SchedulerLike } from 'rxjs';
import { informerMetrics } from '../../src/metrics/informerMetrics.js';
import { registerInformerMetrics } from '../../src/prometheus/index.js';
import { applyBatch } from '../../src/store/applyBatch.js';
import { emptySnapshot } from '../../src/store/snapshot.js';
import { added } from '../../src/testing/events.js';
import { configMap } from '../../src/testing/objects.js';

test('exposes each informer under conventional names, read at scrape time', async (t) => {
  const pods = informerMetrics();
  const nodes = informerMetrics();
  const sources = [{ name: 'pods', metrics: () => pods.read() }];
  const registry = new Registry();
  registerInformerMetrics(registry, () => sources);

  pods.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 0, itemsSoFar: 0 });
  pods.onStatus({ type: 'RELISTING', reason: 'expired' });
  pods.onEvent(added(configMap('a')));
  pods.onUpdate(applyBatch(emptySnapshot(), { deltas: new Map([['default/a', [{ type: 'Added', key: 'default/a', object: configMap('a') }]]]), listed: true }));
  pods.onReconcile({ key: 'default/a', result: 'success', retries: 0, queueDepth: 2 });
  sources.push({ name: 'nodes', metrics: () => nodes.read() });

  const text = await registry.metrics();
  const line = (name: string) => text.split('\n').find((l) => l.startsWith(name));
  t.is(line('rx_informer_objects{informer="pods"}'), 'rx_informer_objects{informer="pods"} 1');
  t.is(line('rx_informer_objects{informer="nodes"}'), 'rx_informer_objects{informer="nodes"} 0', 'an informer added after registration is included');
  t.is(line('rx_informer_synced{informer="pods"}'), 'rx_informer_synced{informer="pods"} 1');
  t.is(line('rx_informer_lists_total{informer="pods"'), 'rx_informer_lists_total{informer="pods"} 1');
  t.is(line('rx_informer_relists_total{informer="pods",reason="expired"}'), 'rx_informer_relists_total{informer="pods",reason="expired"} 1');
  t.is(line('rx_informer_watch_events_total{informer="pods",type="added"}'), 'rx_informer_watch_events_total{informer="pods",type="added"} 1');
  t.is(line('rx_informer_notifications_total{informer="pods",type="add"}'), 'rx_informer_notifications_total{informer="pods",type="add"} 1');
  t.is(line('rx_informer_reconciles_total{informer="pods",result="success"}'), 'rx_informer_reconciles_total{informer="pods",result="success"} 1');
  t.is(line('rx_informer_reconcile_queue_depth{informer="pods"}'), 'rx_informer_reconcile_queue_depth{informer="pods"} 2');
  t.truthy(text.includes('# TYPE rx_informer_lists_total counter'));
  t.truthy(text.includes('# TYPE rx_informer_objects gauge'));
  const bytes = pods.read().estimatedBytes;
  t.true(bytes > 0);
  t.is(line('rx_informer_cache_estimated_bytes{informer="pods"}'), `rx_informer_cache_estimated_bytes{informer="pods"} ${bytes}`);
  t.is(line('rx_informer_factory_objects '), 'rx_informer_factory_objects 1', 'all informers together');
  t.is(line('rx_informer_factory_cache_estimated_bytes '), `rx_informer_factory_cache_estimated_bytes ${bytes}`);

  pods.onStatus({ type: 'RELISTING', reason: 'expired' });
  const again = await registry.metrics();
  t.true(again.includes('rx_informer_relists_total{informer="pods",reason="expired"} 2'), 'counters follow the collector between scrapes');
});

test('latency histograms and the objective under conventional names: cumulative buckets, _sum, _count; met and alert gauges', async (t) => {
  const clock = 1_000;
  const scheduler: SchedulerLike = { now: () => clock, schedule: () => new Subscription() };
  const pods = informerMetrics({ scheduler, objective: { quantile: 0.95, targetMs: 200, alertMs: 5000, windowMs: 60_000 } });
  const registry = new Registry();
  registerInformerMetrics(registry, () => [{ name: 'pods', metrics: () => pods.read() }]);
  const absent = await registry.metrics();
  t.false(absent.includes('rx_informer_latency_objective_met{'), 'no data: no met gauge yet');
  pods.onEvent({ type: 'MODIFIED', object: configMap('a'), receivedAt: clock - 3 });
  pods.onEvent({ type: 'MODIFIED', object: configMap('a'), receivedAt: clock - 300 });
  pods.onUpdate({ snapshot: emptySnapshot(), changes: [], errors: [] });
  const text = await registry.metrics();
  const line = (name: string) => text.split('\n').find((l) => l.startsWith(name));
  t.truthy(text.includes('# TYPE rx_informer_event_latency_seconds histogram'));
  t.is(line('rx_informer_event_latency_seconds_bucket{informer="pods",le="0.0025"}'), 'rx_informer_event_latency_seconds_bucket{informer="pods",le="0.0025"} 0');
  t.is(line('rx_informer_event_latency_seconds_bucket{informer="pods",le="0.005"}'), 'rx_informer_event_latency_seconds_bucket{informer="pods",le="0.005"} 1');
  t.is(line('rx_informer_event_latency_seconds_bucket{informer="pods",le="0.5"}'), 'rx_informer_event_latency_seconds_bucket{informer="pods",le="0.5"} 2');
  t.is(line('rx_informer_event_latency_seconds_bucket{informer="pods",le="+Inf"}'), 'rx_informer_event_latency_seconds_bucket{informer="pods",le="+Inf"} 2');
  t.is(line('rx_informer_event_latency_seconds_count{informer="pods"}'), 'rx_informer_event_latency_seconds_count{informer="pods"} 2');
  t.is(line('rx_informer_event_latency_seconds_sum{informer="pods"}'), 'rx_informer_event_latency_seconds_sum{informer="pods"} 0.303');
  t.truthy(text.includes('# TYPE rx_informer_watch_lag_seconds histogram'));
  t.is(line('rx_informer_watch_lag_seconds_count{informer="pods"}'), 'rx_informer_watch_lag_seconds_count{informer="pods"} 0');
  // 1 of 2 samples over 200 ms: 50 % > 5 %, breached
  t.is(line('rx_informer_latency_objective_met{informer="pods"}'), 'rx_informer_latency_objective_met{informer="pods"} 0');
  t.is(line('rx_informer_latency_objective_alert{informer="pods"}'), 'rx_informer_latency_objective_alert{informer="pods"} 0');
});
