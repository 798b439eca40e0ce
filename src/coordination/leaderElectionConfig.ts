import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { SchedulerLike } from 'rxjs';
import type { LeaseRef } from './lease.js';
import type { LeaseClient } from './leaseClient.js';
import { monotonicScheduler } from './monotonicScheduler.js';

/** Options of {@link leaderElection}. The defaults are client-go's and controller-runtime's. */
export interface LeaderElectionConfig {
  /** Reads and writes the lease: {@link leaseClient} over a KubeConfig, or a fake in tests. */
  readonly leases: LeaseClient;
  /** The lease every candidate campaigns for. */
  readonly lease: LeaseRef;
  /**
   * This candidate's name in `holderIdentity`. Default `<hostname>_<random UUID>`, new for every
   * call, so that a restarted process never mistakes its predecessor's lease for its own.
   */
  readonly identity?: string;
  /** How long a contender waits, from the last change of the record it saw, before taking over. Whole seconds. Default 15 000. */
  readonly leaseDurationMs?: number;
  /** How long after the start of its last successful renewal the leader stops leading if it cannot renew. Default 10 000. */
  readonly renewDeadlineMs?: number;
  /** Time between tries: renewals every `retryPeriodMs`, acquisitions every `retryPeriodMs`·(1 + 1.2·random). Default 2 000. */
  readonly retryPeriodMs?: number;
  /**
   * On unsubscribe, if this candidate holds the lease, write an empty holder (1 s duration) so a
   * successor need not wait for it to expire. Safe only when the leader-scoped work has stopped
   * by then: see {@link whileLeading}. Default `false` (controller-runtime's default).
   */
  readonly releaseOnCancel?: boolean;
  /** Labels of the lease when this candidate creates it. */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Clock and timers. Default: the async scheduler's timers with a monotonic clock
   * (`performance.timeOrigin + performance.now()`), which wall-clock steps do not move. The clock
   * also stamps the record's times.
   */
  readonly scheduler?: SchedulerLike;
  /** Source of the acquisition jitter, in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** Called with every failed Lease request (the elector retries regardless). */
  readonly onError?: (error: unknown) => void;
}

/** @internal The config with defaults filled in and checked. */
export interface ResolvedElectionConfig {
  readonly leases: LeaseClient;
  readonly lease: LeaseRef;
  readonly identity: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  readonly releaseOnCancel: boolean;
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly scheduler: SchedulerLike;
  readonly random: () => number;
  readonly onError: ((error: unknown) => void) | undefined;
}

/** client-go's `JitterFactor`: acquisitions wait up to 1.2 retry periods more; the renew deadline must exceed it. */
export const jitterFactor = 1.2;

/**
 * @internal Fills in the defaults and checks the config as client-go's `NewLeaderElector` does.
 *
 * @throws {TypeError} naming the option that is wrong.
 */
export function resolveElectionConfig(config: LeaderElectionConfig): ResolvedElectionConfig {
  const fail = (message: string): never => {
    throw new TypeError(`[informer] leaderElection: ${message}`);
  };
  if (config === null || typeof config !== 'object') fail('config must be an object');
  const { leases, lease, leaseDurationMs = 15_000, renewDeadlineMs = 10_000, retryPeriodMs = 2_000, releaseOnCancel = false } = config;
  if (leases === null || typeof leases !== 'object' || typeof leases.get !== 'function' || typeof leases.create !== 'function' || typeof leases.update !== 'function') {
    fail('leases must be a LeaseClient (get, create, update), e.g. leaseClient(kubeConfig)');
  }
  if (lease === null || typeof lease !== 'object' || !isName(lease.name) || !isName(lease.namespace)) fail('lease must be { namespace, name } with non-empty strings');
  const identity = config.identity ?? `${hostname()}_${randomUUID()}`;
  if (typeof identity !== 'string' || identity === '') fail('identity must be a non-empty string');
  for (const [name, value] of Object.entries({ leaseDurationMs, renewDeadlineMs, retryPeriodMs })) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail(`${name} must be a number > 0, got ${String(value)}`);
  }
  if (leaseDurationMs % 1000 !== 0) fail(`leaseDurationMs must be whole seconds (the Lease stores leaseDurationSeconds), got ${leaseDurationMs}`);
  if (leaseDurationMs <= renewDeadlineMs) fail(`leaseDurationMs (${leaseDurationMs}) must be greater than renewDeadlineMs (${renewDeadlineMs})`);
  if (renewDeadlineMs <= jitterFactor * retryPeriodMs) fail(`renewDeadlineMs (${renewDeadlineMs}) must be greater than ${jitterFactor} × retryPeriodMs (${retryPeriodMs})`);
  if (typeof releaseOnCancel !== 'boolean') fail('releaseOnCancel must be a boolean');
  if (config.random !== undefined && typeof config.random !== 'function') fail('random must be a function');
  if (config.onError !== undefined && typeof config.onError !== 'function') fail('onError must be a function');
  return {
    leases,
    lease: { namespace: lease.namespace, name: lease.name },
    identity,
    leaseDurationMs,
    renewDeadlineMs,
    retryPeriodMs,
    releaseOnCancel,
    labels: config.labels,
    scheduler: config.scheduler ?? monotonicScheduler,
    random: config.random ?? Math.random,
    onError: config.onError,
  };
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
