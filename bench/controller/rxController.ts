/**
 * The rx-informer contender of `npm run bench:controller` (bench/controller/run.ts): `controller()`
 * over a factory's ConfigMap informer, default options but for the ones the harness turns
 * (`priority`, `warmReplicas`, `leadership`). The same flags and JSON lines as
 * bench/controller/controller-runtime/main.go; times are CLOCK_MONOTONIC in ms. The library is the compiled one
 * (BENCH_RX_LIB: dist/index.js; the controller entry beside it).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { cpuUsage } from 'node:process';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { KubeObject } from 'rx-informer';
import { nowMs } from '../core/protocol.js';
import { emit, freshAnnotation } from './protocol.js';

const lib = process.env.BENCH_RX_LIB!;
const { informerFactory } = (await import(pathToFileURL(lib).href)) as typeof import('rx-informer');
const { controller, leaderElection, leaseClient } = (await import(pathToFileURL(lib.replace(/index\.js$/, 'controllerEntry.js')).href)) as typeof import('rx-informer/controller');

const { values: flags } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    n: { type: 'string', default: '0' },
    mark: { type: 'string', default: '0' },
    'cost-ms': { type: 'string', default: '0' },
    priority: { type: 'string', default: 'true' },
    fresh: { type: 'string', default: '' },
    lease: { type: 'string', default: '' },
    warm: { type: 'boolean', default: false },
  },
});
const n = Number(flags.n);
const mark = Number(flags.mark);
const costMs = Number(flags['cost-ms']);
const cpuMs = (): number => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(flags.kubeconfig!);
// Informers that run while held: a cold follower (no --warm) then holds no cache until it leads,
// as controller-runtime's non-warm replicas; the factory's default lifetime would run them anyway.
const factory = informerFactory(kubeConfig, { lifetime: 'held' });
const configMaps = factory.informer<KubeObject>({ version: 'v1', plural: 'configmaps' });
const election = flags.lease
  ? leaderElection({ leases: leaseClient(kubeConfig), lease: { namespace: 'default', name: flags.lease }, leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 500 })
  : undefined;

const seen = new Set<string>();
let reconciles = 0;
let freshDone = false;
const cpuAtStart = cpuMs();
emit({ type: 'start', t: nowMs() });
election?.subscribe((leadership) => leadership.state === 'leading' && emit({ type: 'leader', t: nowMs() }));
controller(configMaps, {
  priority: flags.priority === 'true',
  ...(election ? { leadership: election, warmReplicas: flags.warm } : {}),
  reconcile: async (object, { ref }) => {
    if (costMs > 0) await new Promise((resolve) => setTimeout(resolve, costMs));
    const now = nowMs();
    const key = `${ref.namespace}/${ref.name}`;
    if (++reconciles === 1) emit({ type: 'first', t: now });
    if (!freshDone && key === flags.fresh && object?.metadata?.annotations?.[freshAnnotation]) {
      freshDone = true;
      emit({ type: 'fresh', t: now, reconciles });
    }
    if (!seen.has(key)) {
      seen.add(key);
      if (seen.size === mark) emit({ type: 'mark', t: now });
      if (seen.size === n) emit({ type: 'all', t: now, cpuMs: cpuMs() - cpuAtStart, reconciles });
    }
  },
}).subscribe({ error: (error: unknown) => (console.error(error), process.exit(1)) });
// A follower is ready for a failover once its (warm) informer has synced; a cold one at once.
if (flags.warm) await configMaps.whenSynced();
if (election) emit({ type: 'standby', t: nowMs() });
