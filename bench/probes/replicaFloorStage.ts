/**
 * One stage of bench/probes/replicaFloor.ts, in its own process under tsx: imports what STAGE names
 * (`empty`, `client-node`, `library`: what a bench replica imports), then prints its heap after a
 * full GC and its RSS as one JSON line. Run with --expose-gc.
 */
const stage = process.env.STAGE ?? 'empty';
if (stage === 'client-node' || stage === 'library') await import('@kubernetes/client-node');
// The library as a bench replica loads it: compiled (BENCH_RX_LIB, which bench/probes/replicaFloor.ts builds).
if (stage === 'library') await (await import('../core/library.js')).loadLibrary();
(globalThis as { gc?: () => void }).gc?.();
const { heapUsed, rss } = process.memoryUsage();
console.log(JSON.stringify({ heapUsed, rss }));
