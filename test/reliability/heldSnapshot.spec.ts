/*
 * A snapshot someone keeps (a baseline to diff against, a forgotten reference) must not make the
 * informer's memory grow with the number of updates since: the versioned store keeps an old
 * snapshot readable through undo records, and rebases its lineage so a held one costs a bounded
 * multiple of the store, not O(changes).
 */
import test from 'ava';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Subject } from 'rxjs';
import { informer, type KubeObject, type RawEvent } from 'rx-informer';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const N = 5_000;
const object = (i: number, rv: number): KubeObject =>
  ({ metadata: { name: `o${i}`, namespace: 'ns', resourceVersion: String(rv) }, data: { v: 'x'.repeat(200) } }) as KubeObject;

test.serial('a snapshot held forever keeps reading as it was, and memory stays flat over 150,000 updates', async (t) => {
  const source = new Subject<RawEvent<KubeObject>>();
  const inf = informer(source);
  const sub = inf.changes$.subscribe();
  source.next({ type: 'LIST_START' });
  source.next({ type: 'LIST_PAGE', items: Array.from({ length: N }, (_, i) => object(i, 1)), page: 1, itemsSoFar: N });
  source.next({ type: 'LIST_DONE', resourceVersion: '1' });
  await turn();
  const held = inf.snapshot;
  let rv = 2;
  const heap: number[] = [];
  for (let round = 0; round < 6; round++) {
    for (let batch = 0; batch < 500; batch++) {
      for (let j = 0; j < 50; j++) source.next({ type: 'MODIFIED', object: object((rv * 7919) % N, rv++) });
      await turn();
    }
    gc();
    gc();
    heap.push(process.memoryUsage().heapUsed / 2 ** 20);
  }
  sub.unsubscribe();
  t.log(`heap after each 25,000 updates (MiB): ${heap.map((h) => h.toFixed(1)).join(', ')}`);
  t.is(held.get('ns/o5')?.metadata?.resourceVersion, '1');
  t.is(held.size, N);
  // Without the rebase, the held snapshot would keep every superseded object: ~150,000 × ~0.4 KB.
  t.true(Math.max(...heap.slice(1)) - heap[1]! < 8, `heap grew from ${heap[1]!.toFixed(1)} to ${Math.max(...heap).toFixed(1)} MiB`);
});
