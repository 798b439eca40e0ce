/**
 * One stage of bench/replicaFloor.ts, in its own process under tsx: imports what STAGE names
 * (`empty`, `client-node`, `library`: what a bench replica imports), then prints its heap after a
 * full GC and its RSS as one JSON line. Run with --expose-gc.
 */
const stage = process.env.STAGE ?? 'empty';
if (stage === 'client-node' || stage === 'library') await import('@kubernetes/client-node');
if (stage === 'library') {
  await import('../src/controller/controller.js');
  await import('../src/informer/informer.js');
  await import('../src/sharding/sharded.js');
  await import('../src/sources/listWatch.js');
}
(globalThis as { gc?: () => void }).gc?.();
const { heapUsed, rss } = process.memoryUsage();
console.log(JSON.stringify({ heapUsed, rss }));
