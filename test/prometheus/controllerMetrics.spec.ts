/** controllerMetrics(): controller-runtime's names, fed by reconcile() on virtual time, read from the registry. */
import test from 'ava';
import { Registry } from 'prom-client';
import { map, NEVER, of, Subject, throwError, timer, VirtualTimeScheduler } from 'rxjs';
import type { ReconcileRequest } from '../../src/controller/reconcile.js';
import { reconcile } from '../../src/controller/reconcile.js';
import { terminal } from '../../src/controller/terminal.js';
import { controllerMetrics } from '../../src/prometheus/index.js';
import { runningControllers } from '../../src/prometheus/controllerMetrics.js';
import { runMarbles } from '../../src/testing/marbles.js';

async function values(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const out: Record<string, number> = {};
  for (const v of (metric?.values ?? []) as { labels: Record<string, string | number>; value: number; metricName?: string }[]) {
    const label = Object.entries(v.labels).filter(([k]) => k !== 'controller' && k !== 'name').map(([k, x]) => `${k}=${x}`).join(',');
    out[`${v.metricName ?? name}{${label}}`] = v.value;
  }
  return out;
}

test('reconcile results, errors, terminal errors and times under controller-runtime names', async (t) => {
  const registry = new Registry();
  const metrics = controllerMetrics(registry, { controller: 'sets' });
  runMarbles(t, ({ cold, expectObservable }) => {
    let run = 0;
    const handler = (key: string) => {
      if (key === 'bad') throw terminal(new Error('invalid'));
      return run++ === 0 ? throwError(() => new Error('x')) : timer(250).pipe(map(() => ({ requeueAfterMs: 1_000 })));
    };
    expectObservable(cold('-a-b', { a: 'a', b: 'bad' }).pipe(reconcile(handler, { metrics, concurrency: 2 }), map((o) => o.result)), '^ 300ms !').toBe('-e-t 252ms r', { e: 'error', t: 'terminal', r: 'success' });
  });
  t.deepEqual(await values(registry, 'controller_runtime_reconcile_total'), {
    'controller_runtime_reconcile_total{result=error}': 2,
    'controller_runtime_reconcile_total{result=requeue_after}': 1,
  });
  t.deepEqual(await values(registry, 'controller_runtime_reconcile_errors_total'), { 'controller_runtime_reconcile_errors_total{}': 2 });
  t.deepEqual(await values(registry, 'controller_runtime_terminal_reconcile_errors_total'), { 'controller_runtime_terminal_reconcile_errors_total{}': 1 });
  t.deepEqual(await values(registry, 'controller_runtime_max_concurrent_reconciles'), { 'controller_runtime_max_concurrent_reconciles{}': 2 });
  const time = await values(registry, 'controller_runtime_reconcile_time_seconds');
  t.is(time['controller_runtime_reconcile_time_seconds_count{}'], 3);
  t.is(time['controller_runtime_reconcile_time_seconds_sum{}'], 0.25);
  t.is(time['controller_runtime_reconcile_time_seconds_bucket{le=0.25}'], 3);
  t.is(time['controller_runtime_reconcile_time_seconds_bucket{le=0.2}'], 2);
  t.deepEqual(await values(registry, 'workqueue_retries_total'), { 'workqueue_retries_total{}': 2 }, 'one backoff retry, one requeue');
  t.deepEqual(await values(registry, 'workqueue_adds_total'), { 'workqueue_adds_total{}': 3 });
  t.deepEqual(await values(registry, 'workqueue_depth'), { 'workqueue_depth{priority=0}': 0 }, 'unsubscribed: nothing left');
});

test('queue duration, unfinished work and the longest running processor follow the scheduler', async (t) => {
  const registry = new Registry();
  const scheduler = new VirtualTimeScheduler();
  const metrics = controllerMetrics(registry, { controller: 'slow', scheduler });
  const keys = of('a', 'b', 'c');
  const subscription = keys.pipe(reconcile(() => NEVER, { metrics, concurrency: 2, scheduler })).subscribe();
  scheduler.schedule(() => undefined, 3_000);
  scheduler.flush();
  t.deepEqual(await values(registry, 'workqueue_unfinished_work_seconds'), { 'workqueue_unfinished_work_seconds{}': 6 }, 'two workers, 3 s each');
  t.deepEqual(await values(registry, 'workqueue_longest_running_processor_seconds'), { 'workqueue_longest_running_processor_seconds{}': 3 });
  t.deepEqual(await values(registry, 'workqueue_depth'), { 'workqueue_depth{priority=0}': 1 }, 'c waits');
  t.deepEqual(await values(registry, 'controller_runtime_active_workers'), { 'controller_runtime_active_workers{}': 2 });
  const queued = await values(registry, 'workqueue_queue_duration_seconds');
  t.is(queued['workqueue_queue_duration_seconds_count{}'], 2);
  subscription.unsubscribe();
  t.deepEqual(await values(registry, 'workqueue_unfinished_work_seconds'), { 'workqueue_unfinished_work_seconds{}': 0 });
});

test('two controllers share one registry, each under its own labels; a name is required', async (t) => {
  const registry = new Registry();
  const a = controllerMetrics(registry, { controller: 'a' });
  const b = controllerMetrics(registry, { controller: 'b' });
  a.added('k', 0);
  b.added('k', 0);
  b.added('l', 0);
  const text = await registry.metrics();
  t.true(text.includes('workqueue_depth{name="a",controller="a",priority=""} 1'), text);
  t.true(text.includes('workqueue_depth{name="b",controller="b",priority=""} 2'));
  t.throws(() => controllerMetrics(registry, {} as never), { instanceOf: TypeError, message: /controller/ });
});

test('a stopped controllerMetrics leaves the scrape: metrics built and stopped per term do not pile up', async (t) => {
  const registry = new Registry();
  for (let term = 0; term < 5; term++) {
    const metrics = controllerMetrics(registry, { controller: 'per-term' });
    metrics.started?.(1);
    await registry.metrics();
    metrics.stopped?.();
  }
  t.is(runningControllers(registry), 0, 'no stopped term is walked at scrape time');
  t.deepEqual(await values(registry, 'workqueue_unfinished_work_seconds'), { 'workqueue_unfinished_work_seconds{}': 0 });
  const live = controllerMetrics(registry, { controller: 'per-term' });
  live.started?.(1);
  t.is(runningControllers(registry), 1);
  live.stopped?.();
  t.is(runningControllers(registry), 0);
  live.started?.(1);
  t.is(runningControllers(registry), 1, 'started again (resubscribed): read again');
});

test('timeouts under controller-runtime\'s name; read-your-own-writes holds and stale starts under rx_informer names', async (t) => {
  const registry = new Registry();
  const metrics = controllerMetrics(registry, { controller: 'sets' });
  runMarbles(t, ({ cold, expectObservable }) => {
    // a never ends by itself (its timeout aborts it); b's cache stays behind until the wait runs out.
    const freshness = { isFresh: (key: string) => key !== 'b', changed$: NEVER };
    const handler = (key: string) => (key === 'a' ? NEVER : of(undefined));
    const out = cold('-ab').pipe(reconcile(handler, { metrics, concurrency: 2, timeoutMs: 5, freshness, freshnessWaitMs: 3 }), map((o) => o.key));
    expectObservable(out, '^---------!').toBe('-----b', { b: 'b' });
  });
  t.deepEqual(await values(registry, 'controller_runtime_reconcile_timeouts_total'), { 'controller_runtime_reconcile_timeouts_total{}': 1 });
  t.deepEqual(await values(registry, 'rx_informer_reconcile_freshness_waits_total'), { 'rx_informer_reconcile_freshness_waits_total{}': 1 });
  t.deepEqual(await values(registry, 'rx_informer_reconcile_stale_starts_total'), { 'rx_informer_reconcile_stale_starts_total{}': 1 });
});

test('workqueue_depth carries the priority keys wait at, as controller-runtime\'s priority queue: a raised key moves to its new priority', async (t) => {
  const registry = new Registry();
  const scheduler = new VirtualTimeScheduler();
  const metrics = controllerMetrics(registry, { controller: 'sets', scheduler });
  const requests = new Subject<ReconcileRequest>();
  // One worker, busy with `busy` for good: everything after it waits in the line.
  const subscription = requests.pipe(reconcile((key) => (key === 'busy' ? NEVER : of(undefined)), { metrics, concurrency: 1, scheduler })).subscribe();
  requests.next({ key: 'busy' });
  requests.next({ key: 'a', priority: -100 });
  requests.next({ key: 'b', priority: -100 });
  t.deepEqual(await values(registry, 'workqueue_depth'), { 'workqueue_depth{priority=-100}': 2, 'workqueue_depth{priority=0}': 0 }, 'two unchanged objects of the initial list (busy left priority 0)');
  requests.next({ key: 'a', priority: 0 });
  t.deepEqual(await values(registry, 'workqueue_depth'), { 'workqueue_depth{priority=-100}': 1, 'workqueue_depth{priority=0}': 1 }, 'a real change raised a');
  requests.next({ key: 'a', priority: -100 });
  t.deepEqual(await values(registry, 'workqueue_depth'), { 'workqueue_depth{priority=-100}': 1, 'workqueue_depth{priority=0}': 1 }, 'a lower priority does not lower it');
  t.deepEqual(await values(registry, 'workqueue_adds_total'), { 'workqueue_adds_total{}': 3 }, 'a raise is no new add');
  subscription.unsubscribe();
  t.deepEqual(await values(registry, 'workqueue_depth'), { 'workqueue_depth{priority=-100}': 0, 'workqueue_depth{priority=0}': 0 });
});

test('workqueue_depth: a key held for read-your-own-writes counts at its priority, raised there too, and leaves it when it starts', async (t) => {
  const registry = new Registry();
  const scheduler = new VirtualTimeScheduler();
  const metrics = controllerMetrics(registry, { controller: 'sets', scheduler });
  const requests = new Subject<ReconcileRequest>();
  const caughtUp = new Subject<string>();
  let fresh = false;
  const freshness = { isFresh: () => fresh, changed$: caughtUp };
  const subscription = requests.pipe(reconcile(() => NEVER, { metrics, concurrency: 1, scheduler, freshness, freshnessWaitMs: 1_000 })).subscribe();
  requests.next({ key: 'a', priority: -100 });
  t.deepEqual(await values(registry, 'rx_informer_reconcile_freshness_waits_total'), { 'rx_informer_reconcile_freshness_waits_total{}': 1 }, 'a is held');
  t.deepEqual(await values(registry, 'workqueue_depth'), { 'workqueue_depth{priority=-100}': 1 });
  requests.next({ key: 'a', priority: 5 });
  t.deepEqual(await values(registry, 'workqueue_depth'), { 'workqueue_depth{priority=-100}': 0, 'workqueue_depth{priority=5}': 1 }, 'raised while held');
  fresh = true;
  caughtUp.next('a');
  t.deepEqual(await values(registry, 'workqueue_depth'), { 'workqueue_depth{priority=-100}': 0, 'workqueue_depth{priority=5}': 0 }, 'started from priority 5');
  t.deepEqual(await values(registry, 'controller_runtime_active_workers'), { 'controller_runtime_active_workers{}': 1 });
  subscription.unsubscribe();
});

test('workqueue_depth: priority "" when the queue ignores priorities; past 25 priorities every key counts as exceeded_cardinality_limit', async (t) => {
  const registry = new Registry();
  const scheduler = new VirtualTimeScheduler();
  const plain = controllerMetrics(registry, { controller: 'plain', scheduler });
  const requests = new Subject<ReconcileRequest>();
  const subscription = requests.pipe(reconcile(() => NEVER, { metrics: plain, concurrency: 1, scheduler, priority: false })).subscribe();
  for (const key of ['a', 'b', 'c']) requests.next({ key, priority: 7 });
  t.true((await registry.metrics()).includes('workqueue_depth{name="plain",controller="plain",priority=""} 2'));
  subscription.unsubscribe();

  const many = controllerMetrics(registry, { controller: 'many' });
  for (let p = 0; p < 25; p++) many.added(`k${p}`, 0, p);
  many.taken('k0', 0, 0);
  const before = await values(registry, 'workqueue_depth');
  t.is(before['workqueue_depth{priority=24}'], 1);
  t.is(before['workqueue_depth{priority=0}'], 0);
  many.added('k25', 0, 25);
  many.taken('k1', 0, 1);
  const text = await registry.metrics();
  t.true(text.includes('workqueue_depth{name="many",controller="many",priority="exceeded_cardinality_limit"} 24'), text);
  t.true(text.includes('workqueue_depth{name="many",controller="many",priority="24"} 0'), 'the counts moved, so the sum stays the depth');
  t.false(text.includes('workqueue_depth{name="many",controller="many",priority="25"}'));
});
