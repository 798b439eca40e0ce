/** Latency histograms and the latency objective, on virtual time (latencies exact). */
import test from 'ava';
import { map, tap } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { informer } from '../../src/informer/informer.js';
import { latencyBuckets } from '../../src/metrics/latencyHistogram.js';
import { informerMetrics } from '../../src/metrics/informerMetrics.js';
import type { LatencyObjectiveStatus } from '../../src/metrics/latencyObjective.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { StoreUpdate } from '../../src/store/applyBatch.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { emptySnapshot } from '../../src/store/snapshot.js';
import { listEvents, modified } from '../../src/testing/events.js';
import { marbleSource } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';

type E = RawEvent<KubeObject>;
const nothing: StoreUpdate<KubeObject> = { snapshot: emptySnapshot(), changes: [], errors: [] };
const written = (iso: string) => ({ ...configMap('a', { namespace: 'ns', resourceVersion: iso }), metadata: { name: 'a', namespace: 'ns', resourceVersion: iso, managedFields: [{ manager: 'x', time: '1970-01-01T00:00:01Z' }, { manager: 'y', time: iso }] } });

test('eventLatency: from the arrival stamp to the delivery of the batch that holds the event, exact on virtual time', (t) => {
  const ts = new TestScheduler(() => undefined);
  ts.run(({ cold }) => {
    const metrics = informerMetrics({ scheduler: ts });
    // The list at 1; watch events at 10 and 12 (stamped on arrival), in a 5 ms batch window: delivered at 15.
    const source = marbleSource<E>(cold, '-L--------a-b--', { L: listEvents([configMap('a', { namespace: 'ns', resourceVersion: '1' })], '1'), a: modified(configMap('a', { namespace: 'ns', resourceVersion: '2' })), b: modified(configMap('a', { namespace: 'ns', resourceVersion: '3' })) }).pipe(
      map((event) => (event.type === 'MODIFIED' ? { ...event, receivedAt: ts.now() } : event)),
      tap((event) => metrics.onEvent(event)),
    );
    const inf = informer(source, { scheduler: ts, buffer: { windowMs: 5 }, onUpdate: metrics.onUpdate });
    const sub = inf.connect();
    ts.schedule(() => {
      const { eventLatency } = metrics.read();
      t.is(eventLatency.count, 2);
      t.is(eventLatency.sum, 0.005 + 0.003);
      // 3 ms and 5 ms: both in the (2.5 ms, 5 ms] bucket
      const le = (bound: number) => eventLatency.buckets.find((b) => b.le === bound)!.count;
      t.is(le(0.0025), 0);
      t.is(le(0.005), 2);
      t.is(eventLatency.buckets.at(-1)!.le, Infinity);
      t.is(eventLatency.buckets.length, latencyBuckets.length + 1);
      t.true(eventLatency.p50! > 0.0025 && eventLatency.p50! <= 0.005);
      sub.unsubscribe();
    }, 20);
  });
});

test('watchLag: from the newest managedFields time to delivery; objects without managedFields are not counted', (t) => {
  const ts = new TestScheduler(() => undefined);
  ts.run(() => {
    const metrics = informerMetrics({ scheduler: ts });
    ts.schedule(() => {
      metrics.onEvent({ type: 'MODIFIED', object: written('1970-01-01T00:00:10Z') });
      metrics.onEvent({ type: 'MODIFIED', object: configMap('b') });
      metrics.onUpdate(nothing);
    }, 12_500);
    ts.schedule(() => {
      const { watchLag, eventLatency } = metrics.read();
      t.is(watchLag.count, 1, 'the object without managedFields is not counted');
      t.is(watchLag.sum, 2.5);
      t.is(eventLatency.count, 0, 'no arrival stamps, no pipeline latency');
    }, 13_000);
  });
});

test('watchLag: the newest managedFields time is the latest instant, whatever the spelling of each time', (t) => {
  const ts = new TestScheduler(() => undefined);
  ts.run(() => {
    const metrics = informerMetrics({ scheduler: ts });
    const at = (...times: string[]) => ({ ...configMap('a', { namespace: 'ns' }), metadata: { name: 'a', namespace: 'ns', managedFields: times.map((time, i) => ({ manager: `m${i}`, time })) } });
    ts.schedule(() => {
      // An offset: 00:00:09+01:00 is 23:00:09Z of the day before, older than 00:00:05Z (lag 7.5 s).
      metrics.onEvent({ type: 'MODIFIED', object: at('1970-01-02T00:00:09+01:00', '1970-01-02T00:00:05Z') });
      // Fractional seconds: 00:00:05.900Z is newer than 00:00:05Z (lag 6.6 s).
      metrics.onEvent({ type: 'MODIFIED', object: at('1970-01-02T00:00:05Z', '1970-01-02T00:00:05.900Z') });
      // Canonical spellings: the newest of three (lag 2.5 s); unparsable ones are ignored, also one
      // shaped like a time that would sort last.
      metrics.onEvent({ type: 'MODIFIED', object: at('1970-01-02T00:00:02Z', 'yesterday', '1970-01-02T00:00:10Z', '1970-19-02T00:00:07Z', '1970-01-02T00:00:07Z') });
      metrics.onUpdate(nothing);
    }, 86_400_000 + 12_500);
    ts.schedule(() => {
      const { watchLag } = metrics.read();
      t.is(watchLag.count, 3);
      t.is(Math.round(watchLag.sum * 1000), 7_500 + 6_600 + 2_500);
    }, 86_400_000 + 13_000);
  });
});

test('before any sample the histograms are empty and their quantiles undefined', (t) => {
  const { eventLatency, watchLag, objective } = informerMetrics().read();
  t.like(eventLatency, { count: 0, sum: 0, p50: undefined, p95: undefined, p99: undefined });
  t.is(watchLag.count, 0);
  t.is(objective, undefined);
});

test('objective (p95 <= 200 ms, alert above 5 s, 1 s window): met, breached, alert, and back to noData as the window moves on', (t) => {
  const ts = new TestScheduler(() => undefined);
  ts.run(() => {
    const metrics = informerMetrics({ scheduler: ts, objective: { quantile: 0.95, targetMs: 200, alertMs: 5000, windowMs: 1000 } });
    const states: string[] = [];
    const watching = metrics.objective$.subscribe((s: LatencyObjectiveStatus) => states.push(`${ts.now()} ${s.state} ${s.samples}/${s.overTarget}/${s.overAlert}`));
    const deliver = (at: number, latencies: number[]) =>
      ts.schedule(() => {
        for (const ms of latencies) metrics.onEvent({ type: 'MODIFIED', object: configMap('a'), receivedAt: at - ms });
        metrics.onUpdate(nothing);
      }, at);
    deliver(100, [...Array(19).fill(10), 300]); // 1 of 20 over 200 ms: 5 %, met
    deliver(200, [250]); // 2 of 21: breached
    deliver(300, [6000]); // over 5 s: alert
    ts.schedule(() => t.like(metrics.read().objective, { state: 'alert', samples: 22, overTarget: 3, overAlert: 1, maxMs: 6000, targetMs: 200, quantile: 0.95 }), 350);
    // The window is 1 s in 50 ms slices: the samples of 100-149 leave at 1100, those of 300 at 1300.
    ts.schedule(() => metrics.onUpdate(nothing), 2000);
    ts.schedule(() => {
      t.deepEqual(states, ['0 noData 0/0/0', '100 met 20/1/0', '200 breached 21/2/0', '300 alert 22/3/1', '1300 noData 0/0/0']);
      t.is(metrics.read().objective?.state, 'noData');
    }, 2500);
    // objective$ keeps a timer while subscribed: the run ends once it is unsubscribed
    ts.schedule(() => watching.unsubscribe(), 2600);
  });
});

test('a bad objective is a TypeError naming the field, at the call', (t) => {
  t.throws(() => informerMetrics({ objective: { targetMs: -1 } }), { instanceOf: TypeError, message: /objective\.targetMs/ });
  t.throws(() => informerMetrics({ objective: { targetMs: 200, quantile: 1 } }), { instanceOf: TypeError, message: /objective\.quantile/ });
  t.throws(() => informerMetrics({ objective: { targetMs: 200, windowMs: 0 } }), { instanceOf: TypeError, message: /objective\.windowMs/ });
  t.throws(() => informerMetrics({ objective: { targetMs: 200, of: 'other' as 'pipeline' } }), { instanceOf: TypeError, message: /objective\.of/ });
});

test('many events in one delivery are each counted (the queue of arrivals grows as needed)', (t) => {
  const ts = new TestScheduler(() => undefined);
  ts.run(() => {
    const metrics = informerMetrics({ scheduler: ts });
    ts.schedule(() => {
      for (let i = 0; i < 5000; i++) metrics.onEvent({ type: 'MODIFIED', object: configMap('a'), receivedAt: i % 2 === 0 ? 0 : 50 });
      metrics.onUpdate(nothing);
      metrics.onEvent({ type: 'MODIFIED', object: configMap('a'), receivedAt: 100 });
      metrics.onUpdate(nothing);
    }, 100);
    ts.schedule(() => {
      const { eventLatency } = metrics.read();
      t.is(eventLatency.count, 5001);
      t.true(Math.abs(eventLatency.sum - (2500 * 0.1 + 2500 * 0.05)) < 1e-9, String(eventLatency.sum));
    }, 200);
  });
});

test('a run that ends with a batch open leaves no samples behind: the next run does not count the downtime as latency', (t) => {
  const ts = new TestScheduler(() => undefined);
  ts.run(({ cold }) => {
    const metrics = informerMetrics({ scheduler: ts, objective: { quantile: 0.95, targetMs: 200, alertMs: 500, windowMs: 10_000 } });
    // Each run: the list at +1, a watch event at +10, in a 5 ms batch window (delivered at +15).
    const source = marbleSource<E>(cold, '-L--------a----', { L: listEvents([configMap('a', { namespace: 'ns', resourceVersion: '1' })], '1'), a: modified(configMap('a', { namespace: 'ns', resourceVersion: '2' })) }).pipe(
      map((event) => (event.type === 'MODIFIED' ? { ...event, receivedAt: ts.now() } : event)),
      tap({ next: (event) => metrics.onEvent(event), finalize: () => metrics.onStop() }),
    );
    const inf = informer(source, { scheduler: ts, buffer: { windowMs: 5 }, onUpdate: metrics.onUpdate });
    // The first run stops at 12, with the event of 10 in the open batch: the store drops it.
    const first = inf.connect();
    ts.schedule(() => first.unsubscribe(), 12);
    // The second run starts at 2000 (list at 2001, event at 2010, delivered at 2015).
    ts.schedule(() => {
      const second = inf.connect();
      ts.schedule(() => {
        t.is(metrics.read().eventLatency.count, 0, 'the list delivered nothing of the first run');
      }, 3);
      ts.schedule(() => {
        const { eventLatency, objective } = metrics.read();
        t.is(eventLatency.count, 1, 'only the event of this run');
        t.is(eventLatency.sum, 0.005);
        t.is(objective?.state, 'met');
        second.unsubscribe();
      }, 20);
    }, 2000);
  });
});

test('a FAILED status ends the run for the latency queue too: what was not delivered is not counted later', (t) => {
  const ts = new TestScheduler(() => undefined);
  ts.run(() => {
    const metrics = informerMetrics({ scheduler: ts, objective: { quantile: 0.95, targetMs: 200, alertMs: 500, windowMs: 10_000 } });
    ts.schedule(() => {
      metrics.onEvent({ type: 'MODIFIED', object: configMap('a'), receivedAt: 10 });
      metrics.onStatus({ type: 'FAILED', error: new Error('gone') });
    }, 10);
    ts.schedule(() => {
      metrics.onEvent({ type: 'MODIFIED', object: configMap('a'), receivedAt: 5000 });
      metrics.onUpdate(nothing);
      const { eventLatency, objective } = metrics.read();
      t.is(eventLatency.count, 1);
      t.is(eventLatency.sum, 0);
      t.is(objective?.state, 'met');
    }, 5000);
  });
});
