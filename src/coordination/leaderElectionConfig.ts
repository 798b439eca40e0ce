import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Observable, SchedulerLike } from 'rxjs';
import type { LeaseRef } from './lease.js';
import type { LeaseClient } from './leaseClient.js';
import { monotonicScheduler } from './monotonicScheduler.js';
import { optionChecks } from '../options/optionChecks.js';

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
  /** How long a contender waits, from the last change of the record it saw, before taking over. Whole seconds. Default 15 000 (`defaultElectionTimings`). */
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
  /**
   * @internal Each value asks a leader between renewals to renew at once instead of at the next
   * retry: a holder whose Lease carries data (a sharded member's claim) gets news out sooner.
   */
  readonly renewWhen?: Observable<unknown>;
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
  readonly renewWhen: Observable<unknown> | undefined;
}

/** client-go's `JitterFactor`: acquisitions wait up to 1.2 retry periods more; the renew deadline must exceed it. */
export const jitterFactor = 1.2;

/**
 * The lease timings of client-go and controller-runtime, written once: a lease lasts 15 s, a leader
 * gives up 10 s after its last successful renewal, and candidates try every 2 s. The sharding
 * config uses them for its member and sharder Leases.
 */
export const defaultElectionTimings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 } as const;

/**
 * @internal Checks the config as client-go's `NewLeaderElector` does and fills in every default in
 * one literal.
 *
 * @param factory The name in the error messages: `leaderElection`, or the sharding factory whose
 *   Leases these timings are.
 * @throws {TypeError} naming the option that is wrong.
 */
export function resolveElectionConfig(config: LeaderElectionConfig, factory = 'leaderElection'): ResolvedElectionConfig {
  const check = optionChecks(factory, config, false);
  const { leases, lease } = config;
  if (leases === null || typeof leases !== 'object' || typeof leases.get !== 'function' || typeof leases.create !== 'function' || typeof leases.update !== 'function') {
    check.fail('leases must be a LeaseClient (get, create, update), e.g. leaseClient(kubeConfig)');
  }
  if (lease === null || typeof lease !== 'object' || !isName(lease.name) || !isName(lease.namespace)) check.fail('lease must be { namespace, name } with non-empty strings');
  const resolved: ResolvedElectionConfig = {
    leases,
    lease: { namespace: lease.namespace, name: lease.name },
    identity: check.nonEmptyString('identity', config.identity) ?? `${hostname()}_${randomUUID()}`,
    leaseDurationMs: check.positive('leaseDurationMs', config.leaseDurationMs) ?? defaultElectionTimings.leaseDurationMs,
    renewDeadlineMs: check.positive('renewDeadlineMs', config.renewDeadlineMs) ?? defaultElectionTimings.renewDeadlineMs,
    retryPeriodMs: check.positive('retryPeriodMs', config.retryPeriodMs) ?? defaultElectionTimings.retryPeriodMs,
    releaseOnCancel: check.boolean('releaseOnCancel', config.releaseOnCancel) ?? false,
    labels: config.labels,
    scheduler: config.scheduler ?? monotonicScheduler,
    random: check.func('random', config.random) ?? Math.random,
    onError: check.func('onError', config.onError),
    renewWhen: config.renewWhen,
  };
  const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = resolved;
  if (leaseDurationMs % 1000 !== 0) check.fail(`leaseDurationMs must be whole seconds (the Lease stores leaseDurationSeconds), got ${leaseDurationMs}`);
  if (leaseDurationMs <= renewDeadlineMs) check.fail(`leaseDurationMs (${leaseDurationMs}) must be greater than renewDeadlineMs (${renewDeadlineMs})`);
  if (renewDeadlineMs <= jitterFactor * retryPeriodMs) check.fail(`renewDeadlineMs (${renewDeadlineMs}) must be greater than ${jitterFactor} × retryPeriodMs (${retryPeriodMs})`);
  return resolved;
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
