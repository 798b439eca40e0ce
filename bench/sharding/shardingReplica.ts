/**
 * One replica of `npm run bench:sharding`, as its own process: an informer and a controller with
 * an empty reconcile over the ConfigMaps of one namespace — unsharded, or one member of a ring in
 * label or server mode. Prints JSON lines on stdout: `progress` (distinct keys reconciled, when
 * the last new one was, process start) when it changes; `memory` (heap after a full GC, RSS, peak
 * RSS) on SIGUSR2. On SIGUSR1 it writes the keys it caches to `<OUT>.keys` and from then on
 * appends every key it reconciles, with the time of the run, to `<OUT>.after` (for the handover
 * figures; written out every 100 ms).
 *
 * Environment: KUBECONFIG, MODE (unsharded | label | server), NS, RING, NAME, OUT, LEASE_MS,
 * RENEW_MS, RETRY_MS, BENCH_RX_LIB (the compiled library's index.js; built here when absent). Run
 * with --expose-gc.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { appendFileSync, writeFileSync } from 'node:fs';
import type { Observable } from 'rxjs';
import type { Informer } from '../../src/informer/informer.js';
import type { ServerShard } from '../../src/sharding/server/serverShard.js';
import type { Shard } from '../../src/sharding/label/shard.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { loadLibrary } from '../core/library.js';

// The library under test, compiled (BENCH_RX_LIB, which bench:sharding builds and hands down).
const { main, controller: controllerEntry } = await loadLibrary();
const { informer, listWatch } = main;
const { controller, sharded } = controllerEntry;

const env = (name: string): string => process.env[name] ?? (() => { throw new Error(`${name} is not set`); })();
const startedAt = performance.timeOrigin + performance.now();
const now = (): number => performance.timeOrigin + performance.now();
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(env('KUBECONFIG'));
const namespace = env('NS');
const out = env('OUT');
const mode = env('MODE');
let lastNewAt = 0;
let marked = false;
let current: Informer<KubeObject> | undefined;

/**
 * The keys reconciled at least once. The benchmark's names are `cm-<index>`: a bit each, in a typed
 * array whose bytes lie outside V8's heap, so that the heap figures are the library's (a `Set` of
 * every key a replica ever reconciled, ~180 bytes a key, grew with what a member held while the ring
 * settled, not with its share). Other names go into a `Set`.
 */
const seen = { bits: new Uint8Array(1 << 14), other: new Set<string>(), count: 0 };
const firstRun = (name: string, key: string): boolean => {
  const index = /^cm-(\d+)$/.exec(name)?.[1];
  if (index === undefined) {
    if (seen.other.has(key)) return false;
    seen.other.add(key);
    return true;
  }
  const i = Number(index);
  if (i >> 3 >= seen.bits.length) {
    const grown = new Uint8Array(Math.max(seen.bits.length * 2, (i >> 3) + 1));
    grown.set(seen.bits);
    seen.bits = grown;
  }
  const bit = 1 << (i & 7);
  if ((seen.bits[i >> 3]! & bit) !== 0) return false;
  seen.bits[i >> 3]! |= bit;
  return true;
};
/** Lines for `<OUT>.after`, written every 100 ms rather than with a synchronous write per run. */
let after: string[] = [];

const run = (namespace: string | undefined, name: string): undefined => {
  const key = `${namespace}/${name}`;
  if (firstRun(name, key)) {
    seen.count += 1;
    lastNewAt = now();
  }
  if (marked) after.push(`${key} ${now()}\n`);
  return undefined;
};
setInterval(() => {
  if (after.length === 0) return;
  appendFileSync(`${out}.after`, after.join(''));
  after = [];
}, 100);
const work = (selector: { labelSelector?: string; shardSelector?: string }, wrap: (r: (cm: unknown, c: { ref: { namespace?: string; name: string } }) => undefined) => never, initialPriority?: ServerShard['initialPriority']): Observable<unknown> => {
  const cms = informer(listWatch<KubeObject>(kubeConfig, { version: 'v1', plural: 'configmaps', namespace }, selector));
  current = cms;
  return controller(cms, { concurrency: 16, initialPriority, reconcile: wrap((_cm, { ref }) => run(ref.namespace, ref.name)) });
};
const timing = { leaseDurationMs: Number(env('LEASE_MS')), renewDeadlineMs: Number(env('RENEW_MS')), retryPeriodMs: Number(env('RETRY_MS')) };
const config = { kubeConfig, ring: env('RING'), namespace, resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace }, identityPrefix: env('NAME'), sharderConcurrency: 32, ...timing };
/** The options without the label mode's (`sharderConcurrency` is a type error in server mode). */
const withoutSharder = <C extends { readonly sharderConcurrency?: number }>({ sharderConcurrency: _, ...common }: C): Omit<C, 'sharderConcurrency'> => common;
const shardWork = (shard: Shard | ServerShard) => work(shard.selector, (r) => shard.reconciler(r as never) as never, 'initialPriority' in shard ? shard.initialPriority : undefined);
(mode === 'unsharded' ? work({}, (r) => r as never) : mode === 'server' ? sharded({ ...withoutSharder(config), mode: 'server' }, shardWork) : sharded(config, shardWork)).subscribe({
  error: (error: unknown) => {
    console.log(JSON.stringify({ event: 'error', message: String(error) }));
    process.exit(1);
  },
});

let told = -1;
setInterval(() => {
  if (seen.count === told) return;
  told = seen.count;
  console.log(JSON.stringify({ event: 'progress', distinct: seen.count, lastNewAt, startedAt }));
}, 250);
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  console.log(JSON.stringify({ event: 'memory', heapUsed: usage.heapUsed, rss: usage.rss, maxRss: process.resourceUsage().maxRSS * 1024, cached: current?.snapshot.size ?? 0 }));
});
process.on('SIGUSR1', () => {
  writeFileSync(`${out}.keys`, [...(current?.snapshot.keys() ?? [])].join('\n'));
  writeFileSync(`${out}.after`, '');
  marked = true;
  console.log(JSON.stringify({ event: 'marked' }));
});
