import test from 'ava';
import { TestScheduler } from 'rxjs/testing';
import { informerMetrics } from '../../src/metrics/informerMetrics.js';
import { KubeApiError } from '../../src/errors.js';
import { applyBatch } from '../../src/store/applyBatch.js';
import { emptySnapshot } from '../../src/store/snapshot.js';
import { added, bookmark, deleted, listPage, modified } from '../../src/testing/events.js';
import { configMap } from '../../src/testing/objects.js';
import { cacheEntryBytes, estimateHeapBytes } from '../../src/metrics/estimateHeapBytes.js';

test('counts statuses, events, notifications and reconciles; ages and durations on the given clock', (t) => {
  const scheduler = new TestScheduler(() => undefined);
  scheduler.run(() => {
    const m = informerMetrics({ scheduler });
    // Everything is scheduled from frame 0, so the delay is the virtual time it runs at.
    const at = (ms: number, fn: () => void) => scheduler.schedule(fn, ms);
    at(10, () => m.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 0, itemsSoFar: 0 }));
    at(20, () => {
      m.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 1, itemsSoFar: 2, remainingItemCount: 1 });
      m.onEvent(listPage([configMap('a'), configMap('b')]));
    });
    at(30, () => {
      m.onStatus({ type: 'LISTING', resourceVersion: '0', streaming: false, page: 2, itemsSoFar: 3 });
      const first = applyBatch(emptySnapshot(), {
        deltas: new Map(['a', 'b', 'c'].map((n) => [`default/${n}`, [{ type: 'Replaced' as const, key: `default/${n}`, object: configMap(n, { resourceVersion: '1' }) }]])),
        listed: true,
        resourceVersion: '1',
      });
      m.onUpdate(first);
      m.onStatus({ type: 'WATCHING', resourceVersion: '1' });
      m.onEvent(added(configMap('d')));
      m.onEvent(modified(configMap('a')));
      m.onEvent(deleted(configMap('b')));
      m.onEvent(bookmark('9'));
    });
    at(40, () => {
      const error = new KubeApiError({ verb: 'watch', resource: 'configmaps', code: 410, status: { reason: 'Expired', message: 'too old' } });
      m.onStatus({ type: 'ERROR', error, permanent: false });
      m.onStatus({ type: 'BACKING_OFF', attempt: 1, delay: 800, cause: error, next: 'relist' });
      m.onStatus({ type: 'RELISTING', reason: 'expired', cause: error });
      m.onStatus({ type: 'WATCHING', resourceVersion: '12' });
      m.onReconcile({ key: 'a', result: 'error', retries: 1, error, retryAfterMs: 5, queueDepth: 3 });
      m.onReconcile({ key: 'a', result: 'success', retries: 0, queueDepth: 1 });
    });
    at(100, () => {
      const r = m.read();
      t.is(r.lists, 1);
      t.is(r.listPages, 2);
      t.is(r.watches, 2);
      t.is(r.watchRestarts, 1);
      t.is(r.relists, 1);
      t.deepEqual(r.relistReasons, { expired: 1 });
      t.is(r.backoffs, 1);
      t.is(r.errors, 1);
      t.regex(r.lastError ?? '', /too old/);
      t.deepEqual(r.events, { added: 1, modified: 1, deleted: 1, bookmarks: 1 });
      t.deepEqual(r.notifications, { add: 3, update: 0, sync: 0, delete: 0 });
      t.is(r.objects, 3);
      t.true(r.synced);
      t.is(r.syncDurationMs, 20, 'from the first LISTING at 10 to the synced update at 30');
      t.is(r.lastEventAgeMs, 70, 'the last event was at 30');
      t.deepEqual(r.reconciles, { successes: 1, failures: 1, queueDepth: 1 });
      t.true(Object.isFrozen(r));
    });
  });
});

test('a fresh collector reads as zero and unsynced', (t) => {
  const r = informerMetrics().read();
  t.is(r.lists, 0);
  t.false(r.synced);
  t.is(r.lastEventAgeMs, undefined);
  t.is(r.syncDurationMs, undefined);
});

test('estimatedBytes: each cached object estimated once as it arrives, taken back when it changes or goes; 0 once stopped', (t) => {
  const m = informerMetrics();
  const size = (object: object) => estimateHeapBytes(object) + cacheEntryBytes;
  const a = configMap('a', { data: { k: 'v'.repeat(1000) } });
  const b = configMap('b');
  const listed = applyBatch(emptySnapshot(), {
    deltas: new Map([['default/a', [{ type: 'Replaced' as const, key: 'default/a', object: a }]], ['default/b', [{ type: 'Replaced' as const, key: 'default/b', object: b }]]]),
    listed: true,
  });
  m.onUpdate(listed);
  t.is(m.read().estimatedBytes, size(listed.snapshot.get('default/a')!) + size(listed.snapshot.get('default/b')!));
  t.true(m.read().estimatedBytes > 1000, 'the 1,000-character value counts');
  const smaller = configMap('a', { data: { k: 'v' } });
  const updated = applyBatch(listed.snapshot, { deltas: new Map([['default/a', [{ type: 'Updated' as const, key: 'default/a', object: smaller }]]]) });
  m.onUpdate(updated);
  t.is(m.read().estimatedBytes, size(updated.snapshot.get('default/a')!) + size(listed.snapshot.get('default/b')!));
  const removed = applyBatch(updated.snapshot, { deltas: new Map([['default/b', [{ type: 'Deleted' as const, key: 'default/b', object: b }]]]) });
  m.onUpdate(removed);
  t.is(m.read().estimatedBytes, size(removed.snapshot.get('default/a')!));
  m.onStop();
  t.deepEqual([m.read().objects, m.read().estimatedBytes], [0, 0]);
});

test('estimateHeapBytes: costs objects, arrays, strings and numbers as 64-bit V8 lays them out', (t) => {
  t.is(estimateHeapBytes({ metadata: { name: 'a' }, data: { k: 'value-of-k' } }), 24 + 16 + (24 + 8) + (24 + 8 + 32));
  t.is(estimateHeapBytes(['x', 1, 1.5, null, true]), 48 + 5 * 8 + 16, 'a short string is internalized, a small integer is in the slot');
  t.is(estimateHeapBytes({ a: {} }), 24 + 8, 'an empty {} is the one the cache shares');
  t.is(estimateHeapBytes('é'.repeat(16)), 16 + 16, 'Latin-1: one byte a character');
  t.is(estimateHeapBytes('€'.repeat(16)), 16 + 32, 'beyond: two');
});
