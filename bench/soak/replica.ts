/**
 * One replica of the soak's operator, as its own process: the ConfigMapSet operator
 * (examples/configMapSet) under leader election, talking to the API server through its own fault
 * proxy (SOAK_KUBECONFIG). It appends JSON lines to SOAK_LOG, synchronously, so a SIGKILL loses
 * nothing written before it: every run of a set (`start`, `end`), every cleanup, every leadership
 * change, and a memory sample every 10 s (after a GC; the process runs with --expose-gc).
 *
 * On SIGTERM it stops (the operator, then the election, releasing the lease), waits for its
 * handles to close, logs what is still open (`leaks`) and exits.
 *
 * Environment: SOAK_KUBECONFIG, SOAK_LOG, SOAK_NAME, SOAK_NAMESPACE, SOAK_WARM (`0`: no warm
 * replicas, the followers hold no cache), and optionally the lease timing SOAK_LEASE_MS,
 * SOAK_RENEW_MS, SOAK_RETRY_MS (all three).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { appendFileSync } from 'node:fs';
import { share } from 'rxjs';
import { leaderElection, leaseClient, resourceClient } from 'rx-informer/controller';
import { configMapSetOperator } from '../../examples/configMapSet/configMapSet.js';
import { activeHandles, env, memorySample } from './processInfo.js';

const logPath = env('SOAK_LOG');
const name = env('SOAK_NAME');
const namespace = env('SOAK_NAMESPACE');
const log = (entry: Record<string, unknown>): void => appendFileSync(logPath, `${JSON.stringify({ at: Date.now(), replica: name, ...entry })}\n`);

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(env('SOAK_KUBECONFIG'));
const leaseRequests = resourceClient(kubeConfig);
const election = leaderElection({
  leases: leaseClient(leaseRequests),
  lease: { namespace, name: 'soak-operator' },
  identity: name,
  // client-go's timings (15 s / 10 s / 2 s) unless the soak is told otherwise.
  ...(process.env.SOAK_LEASE_MS ? { leaseDurationMs: Number(process.env.SOAK_LEASE_MS), renewDeadlineMs: Number(process.env.SOAK_RENEW_MS), retryPeriodMs: Number(process.env.SOAK_RETRY_MS) } : {}),
  releaseOnCancel: true,
  onError: (error) => log({ event: 'electionError', message: String(error) }),
}).pipe(share());

const leadership = election.subscribe({
  next: (state) => log({ event: 'leadership', state: state.state, holder: state.holder ?? null }),
  error: (error: unknown) => log({ event: 'fatal', message: String(error) }),
});
const operator = configMapSetOperator({
  kubeConfig,
  namespace,
  instance: name,
  concurrency: 8,
  resyncMs: 60_000,
  log: (line) => {
    const cleaned = /^cleaned up (\S+)$/.exec(line);
    if (cleaned) log({ event: 'cleanup', key: cleaned[1] });
  },
  // The controller's own leadership option: reconciles only while leading, and with warm replicas
  // (SOAK_WARM, default on) the followers' informers stay synced across terms. Read-your-own-writes
  // and the priority queue are the controller's defaults, on.
  leadership: election,
  warmReplicas: process.env.SOAK_WARM !== '0',
  onRun: (phase, key, set, run) => log({ event: phase, key, run, rv: set?.metadata?.resourceVersion ?? null, deleting: Boolean(set?.metadata?.deletionTimestamp) }),
}).subscribe({
    next: (outcome) => outcome.result !== 'success' && log({ event: 'outcome', key: `${outcome.ref.namespace}/${outcome.ref.name}`, result: outcome.result, error: String(outcome.error) }),
    error: (error: unknown) => log({ event: 'fatal', message: String((error as Error)?.stack ?? error) }),
  });

const sampler = setInterval(() => log({ event: 'memory', ...memorySample() }), 10_000);
log({ event: 'ready', pid: process.pid });

process.once('SIGTERM', () => {
  clearInterval(sampler);
  operator.unsubscribe();
  leadership.unsubscribe();
  leaseRequests.close();
  setImmediate(() => {
    void activeHandles(2_000).then((open) => {
      log({ event: 'leaks', open });
      process.exit(0);
    });
  });
});
