/**
 * One replica of the sharded test controller, as its own process (spawned by sharding.e2e.ts, killed
 * with SIGKILL there). It reconciles the ConfigMaps of one namespace through sharded() and appends
 * to a JSON-lines log what the test checks: every reconcile run (`start` before it, `end` after it,
 * with the member identity and the object's resourceVersion), every sharding event, and its cache
 * sizes. Lines are written synchronously, so a SIGKILL loses nothing written before it.
 *
 * Environment: KUBECONFIG, SHARD_NAMESPACE, SHARD_LOG, SHARD_NAME, the lease timing
 * SHARD_LEASE_MS / SHARD_RENEW_MS / SHARD_RETRY_MS, and SHARD_MODE (`label`, the default, or
 * `server`: hash ranges by shard selector, logged as `ranges` events in hex).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { appendFileSync } from 'node:fs';
import { fromEvent } from 'rxjs';
import { controller } from '../../../src/controller/controller.js';
import type { Observable } from 'rxjs';
import type { ServerShard } from '../../../src/sharding/server/serverShard.js';
import type { Shard } from '../../../src/sharding/label/shard.js';
import { sharded } from '../../../src/sharding/sharded.js';
import type { ShardingEvent } from '../../../src/sharding/shardingConfig.js';
import { informer } from '../../../src/informer/informer.js';
import { listWatch } from '../../../src/sources/listWatch.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`[replica] ${name} is not set`);
  return value;
};
const namespace = env('SHARD_NAMESPACE');
const logPath = env('SHARD_LOG');
const name = env('SHARD_NAME');
const now = (): number => performance.timeOrigin + performance.now();
const log = (entry: Record<string, unknown>): void => appendFileSync(logPath, `${JSON.stringify({ at: now(), ...entry })}\n`);

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(env('KUBECONFIG'));
let runs = 0;
let caches: Array<() => number> = [];

const mode = process.env.SHARD_MODE === 'server' ? 'server' : 'label';
const config = {
  kubeConfig,
  ring: 'e2e',
  namespace,
  resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace },
  identityPrefix: name,
  leaseDurationMs: Number(process.env.SHARD_LEASE_MS ?? 15_000),
  renewDeadlineMs: Number(process.env.SHARD_RENEW_MS ?? 10_000),
  retryPeriodMs: Number(process.env.SHARD_RETRY_MS ?? 2_000),
  sharderConcurrency: 32,
  onEvent: (event: ShardingEvent) => {
    if (event.type === 'sharder') log({ event: 'sharder', state: event.leadership.state, holder: event.leadership.holder ?? null });
    else if (event.type === 'assigned' || event.type === 'moved' || event.type === 'draining') log({ event: event.type, key: event.key, from: event.from ?? null, to: event.to });
    else if (event.type === 'ranges') log({ event: 'ranges', identity: event.identity, ranges: event.ranges.map((r) => [r.start.toString(16), r.end.toString(16)]) });
    else log({ event: event.type, ...event });
  },
};
const work = (shard: Shard | ServerShard): Observable<unknown> => {
  const configMaps = informer(listWatch<KubeObject>(kubeConfig, { version: 'v1', plural: 'configmaps', namespace }, { ...shard.selector }));
  caches = [() => configMaps.snapshot.size];
  return controller(configMaps, {
    concurrency: 16,
    ...('initialPriority' in shard ? { initialPriority: shard.initialPriority } : {}),
    reconcile: shard.reconciler(async (cm, { ref }) => {
      const id = `${name}-${runs++}`;
      const key = `${ref.namespace}/${ref.name}`;
      log({ event: 'start', id, key, member: shard.identity, rv: cm?.metadata?.resourceVersion ?? null });
      // Some work: 5–25 ms, as a reconcile that calls out would take.
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      log({ event: 'end', id, key, member: shard.identity });
    }),
  });
};
/** The options without the label mode's (`sharderConcurrency` is a type error in server mode). */
const serverOptions = <C extends { readonly sharderConcurrency?: number }>({ sharderConcurrency: _, ...common }: C): Omit<C, 'sharderConcurrency'> => common;
const subscription = (mode === 'server' ? sharded({ ...serverOptions(config), mode }, work) : sharded(config, work)).subscribe({
  error: (error: unknown) => {
    log({ event: 'error', message: String((error as Error)?.stack ?? error) });
    process.exit(1);
  },
});

// What this replica holds, for the memory figures.
setInterval(() => log({ event: 'memory', cached: caches.map((size) => size()), heapUsed: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss }), 2_000).unref();
fromEvent(process, 'SIGTERM').subscribe(() => {
  subscription.unsubscribe();
  setTimeout(() => process.exit(0), 1_000).unref();
});
log({ event: 'started', pid: process.pid });
