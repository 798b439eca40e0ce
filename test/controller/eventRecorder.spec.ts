/**
 * eventRecorder(): on virtual time with a recording client (series window, retries, give-up), and
 * against the in-process API server (the Events it stores).
 */
import test from 'ava';
import { getEventListeners } from 'node:events';
import { VirtualTimeScheduler } from 'rxjs';
import { eventRecorder, type EventToPublish } from '../../src/controller/eventRecorder.js';
import { resourceClient } from '../../src/client/resourceClient.js';
import { recordingClient } from './recordingClient.js';
import { KubeApiError } from '../../src/errors.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer } from '../../src/testServer/index.js';

const regarding: KubeObject = { apiVersion: 'demo.example.com/v1', kind: 'Set', metadata: { name: 's', namespace: 'n', uid: 'u1', resourceVersion: '7' } };
const created: EventToPublish = { type: 'Normal', reason: 'Created', action: 'CreateConfigMap', note: 'created c1', regarding };


/** Runs `work` while settling promises and running the virtual clock until both are idle. */
async function settle<T>(scheduler: VirtualTimeScheduler, work: Promise<T>): Promise<T> {
  let done = false;
  void work.finally(() => (done = true));
  for (let i = 0; i < 1000 && !done; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    scheduler.flush();
  }
  return work;
}
const advance = (scheduler: VirtualTimeScheduler, ms: number) => {
  scheduler.schedule(() => undefined, ms);
  scheduler.flush();
};

test('the first occurrence creates an Event with every field; a repeat within the window patches its series; the note is not part of the key', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const { client, calls } = recordingClient();
  const recorder = eventRecorder(client, { controller: 'demo.example.com/ctl', instance: 'pod-1', scheduler });
  advance(scheduler, 1_000);
  await settle(scheduler, recorder.publish(created));
  advance(scheduler, 60_000);
  await settle(scheduler, recorder.publish({ ...created, note: 'created c1 again', regarding: { ...regarding, metadata: { ...regarding.metadata, resourceVersion: '8' } } }));
  advance(scheduler, 60_000);
  await settle(scheduler, recorder.publish(created));
  t.is(calls.length, 3);
  const [create, first, second] = calls;
  t.like(create!.body, {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `s.${(1_000n * 1_000_000n).toString(16)}`, namespace: 'n' },
    eventTime: '1970-01-01T00:00:01.000000Z',
    reportingController: 'demo.example.com/ctl',
    reportingInstance: 'pod-1',
    action: 'CreateConfigMap',
    reason: 'Created',
    type: 'Normal',
    note: 'created c1',
    regarding: { apiVersion: 'demo.example.com/v1', kind: 'Set', name: 's', namespace: 'n', uid: 'u1' },
  });
  t.false('resourceVersion' in (create!.body['regarding'] as object), 'versions of one object fold together');
  t.deepEqual([first!.verb, first!.body, second!.body], ['patch', { series: { count: 2, lastObservedTime: '1970-01-01T00:01:01.000000Z' } }, { series: { count: 3, lastObservedTime: '1970-01-01T00:02:01.000000Z' } }]);
  t.deepEqual(first!.target, { apiVersion: 'events.k8s.io/v1', kind: 'Event', namespace: 'n', name: `s.${(1_000n * 1_000_000n).toString(16)}` });
});

test('after the window a repeat starts a new Event; another reason or type is another series', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const { client, calls } = recordingClient();
  const recorder = eventRecorder(client, { controller: 'ctl', scheduler, seriesWindowMs: 10_000 });
  await settle(scheduler, recorder.publish(created));
  advance(scheduler, 10_001);
  await settle(scheduler, recorder.publish(created));
  await settle(scheduler, recorder.publish({ ...created, type: 'Warning' }));
  await settle(scheduler, recorder.publish({ ...created, reason: 'Updated' }));
  t.deepEqual(calls.map((c) => c.verb), ['create', 'create', 'create', 'create']);
  t.is(new Set(calls.map((c) => (c.body['metadata'] as { name: string }).name)).size, 4, 'distinct names');
});

test('a failed write is retried retryDelayMs apart, then given up to onError; publish never rejects', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const { client, calls, state } = recordingClient();
  const errors: unknown[] = [];
  const recorder = eventRecorder(client, { controller: 'ctl', scheduler, attempts: 3, retryDelayMs: 10_000, onError: (error) => errors.push(error) });
  state.failures = 2;
  await settle(scheduler, recorder.publish(created));
  t.is(calls.length, 1, 'third try wrote it');
  t.is(scheduler.now(), 20_000, 'two waits of 10 s');
  state.failures = 3;
  await settle(scheduler, recorder.publish({ ...created, reason: 'Other' }));
  t.is(calls.length, 1);
  t.deepEqual(errors.map((e) => (e as Error).message), ['boom']);
});

test('an aborted signal gives the event up: publish resolves at once, no try after the abort, no retry timer left (a run awaiting it ends with its term)', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const { client, calls, state } = recordingClient();
  const errors: unknown[] = [];
  const recorder = eventRecorder(client, { controller: 'ctl', scheduler, attempts: 12, retryDelayMs: 10_000, onError: (error) => errors.push(error) });
  state.failures = 100;
  const abort = new AbortController();
  let done = false;
  const published = recorder.publish(created, { signal: abort.signal }).then(() => (done = true));
  for (let i = 0; i < 100 && state.failures === 100; i++) await new Promise((resolve) => setImmediate(resolve));
  t.is(state.failures, 99, 'the first try failed and a retry waits');
  abort.abort(new Error('term ended'));
  for (let i = 0; i < 100 && !done; i++) await new Promise((resolve) => setImmediate(resolve)); // the virtual clock does not move
  t.true(done, 'publish resolved without the retry delay passing');
  t.is(scheduler.actions.length, 0, 'the retry timer is cancelled');
  await settle(scheduler, published);
  advance(scheduler, 200_000);
  t.is(state.failures, 99, 'no try after the abort');
  t.is(calls.length, 0);
  t.is(errors.length, 1, 'the given-up event is reported');
  await settle(scheduler, recorder.publish(created, { signal: abort.signal }));
  t.is(state.failures, 99, 'an already aborted signal: not tried at all');
});

test('a long-lived signal passed to many publishes keeps no listener once each is written', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const { client, calls } = recordingClient();
  const recorder = eventRecorder(client, { controller: 'ctl', scheduler });
  const lifetime = new AbortController();
  for (let i = 0; i < 20; i++) await settle(scheduler, recorder.publish({ ...created, reason: `R${i}` }, { signal: lifetime.signal }));
  t.is(calls.length, 20);
  t.is(getEventListeners(lifetime.signal, 'abort').length, 0);
});

test('a series whose Event is gone on the server (404) starts a new Event', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const { client, calls, state } = recordingClient();
  const recorder = eventRecorder(client, { controller: 'ctl', scheduler, attempts: 1 });
  await settle(scheduler, recorder.publish(created));
  state.failures = 1;
  state.error = new KubeApiError({ verb: 'patch', resource: 'events.events.k8s.io', code: 404 });
  await settle(scheduler, recorder.publish(created));
  t.deepEqual(calls.map((c) => c.verb), ['create', 'create']);
});

test('repeats published at once are written one after another: one create, then patches', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const { client, calls } = recordingClient();
  const recorder = eventRecorder(client, { controller: 'ctl', scheduler });
  await settle(scheduler, Promise.all([recorder.publish(created), recorder.publish(created), recorder.publish(created)]));
  t.deepEqual(calls.map((c) => [c.verb, (c.body['series'] as { count?: number } | undefined)?.count]), [
    ['create', undefined],
    ['patch', 2],
    ['patch', 3],
  ]);
});

test('bad events go to onError, a bad config throws', async (t) => {
  const { client, calls } = recordingClient();
  const errors: string[] = [];
  const recorder = eventRecorder(client, { controller: 'ctl', onError: (e) => errors.push((e as Error).message) });
  await recorder.publish({ ...created, type: 'Info' as never });
  await recorder.publish({ ...created, regarding: { kind: 'Set' } as never });
  t.is(calls.length, 0);
  t.is(errors.length, 2);
  t.throws(() => eventRecorder(client, {} as never), { instanceOf: TypeError, message: /controller/ });
  t.throws(() => eventRecorder(client, { controller: 'c', attempts: 0 }), { instanceOf: TypeError, message: /attempts/ });
});

test('against the API server: the Event is stored and its series counts the repeats', async (t) => {
  const server = await createTestApiServer();
  const client = resourceClient(server.kubeConfig);
  try {
    const recorder = eventRecorder(client, { controller: 'demo.example.com/ctl', instance: 'test' });
    const cm = server.create('configmaps', { metadata: { name: 'c', namespace: 'n' } });
    for (let i = 0; i < 3; i++) await recorder.publish({ type: 'Warning', reason: 'Drifted', action: 'Repair', note: `try ${i}`, regarding: cm as KubeObject });
    const events = server.list('events.events.k8s.io', 'n');
    t.is(events.length, 1);
    t.like(events[0], { type: 'Warning', reason: 'Drifted', note: 'try 0', reportingController: 'demo.example.com/ctl', series: { count: 3 }, regarding: { kind: 'ConfigMap', name: 'c', namespace: 'n' } });
  } finally {
    client.close();
    await server.close();
  }
});
