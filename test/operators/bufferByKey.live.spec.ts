import test from 'ava';
import { Observable } from 'rxjs';
import { bufferByKey } from '../../src/operators/bufferByKey.js';
import type { Delta, DeltaBatch, DeltaEvent } from '../../src/store/delta.js';
import { configMap } from '../../src/testing/objects.js';

// Real time, kept apart from the marble specs (see test/informer.live.spec.ts).
const a1: Delta<object> = { type: 'Added', key: 'a', object: configMap('a', { resourceVersion: '1' }) };
const a2: Delta<object> = { type: 'Updated', key: 'a', object: configMap('a', { resourceVersion: '3' }) };
const b1: Delta<object> = { type: 'Added', key: 'b', object: configMap('b', { resourceVersion: '2' }) };
const c1: Delta<object> = { type: 'Replaced', key: 'c', object: configMap('c', { resourceVersion: '4' }) };

test('the default batch is closed on a microtask: a synchronous burst outside virtual time is one batch', async (t) => {
  const batches = await new Promise<DeltaBatch<object>[]>((resolve) => {
    const out: DeltaBatch<object>[] = [];
    new Observable<DeltaEvent<object>>((s) => {
      s.next(a1);
      s.next(b1);
      s.next(a2);
      queueMicrotask(() => {
        s.next(c1);
        setImmediate(() => s.complete()); // a later macrotask: after every microtask flush
      });
    })
      .pipe(bufferByKey())
      .subscribe({ next: (b) => out.push(b), complete: () => resolve(out) });
  });
  t.deepEqual(
    batches.map((b) => [...b.deltas.keys()]),
    [['a', 'b'], ['c']],
  );
});
