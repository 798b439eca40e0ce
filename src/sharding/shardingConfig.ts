import type { KubeConfigLike } from '../client/kubeConfigLike.js';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { SchedulerLike } from 'rxjs';
import type { KubeObject } from '../store/kubeObject.js';
import { groupOf } from '../store/objectRef.js';
import type { Leadership } from '../coordination/electionState.js';
import { resolveElectionConfig } from '../coordination/leaderElectionConfig.js';
import { describe, optionChecks } from '../options/optionChecks.js';
import { defaultVirtualNodes } from './label/hashRing.js';
import { leaseClient, type LeaseClient } from '../coordination/leaseClient.js';
import { monotonicScheduler } from '../coordination/monotonicScheduler.js';
import { resourceClient, type ResourceClient } from '../client/resourceClient.js';
import { shardLabels, type ShardLabels } from './label/shardLabels.js';
import type { ShardField, ShardRange } from '../sources/shardSelector.js';
import { defaultShardBuckets } from './server/shardRanges.js';

/** The primary objects of a sharded controller: a kind, in one namespace or in all. */
export interface ShardedResource {
  /** `group/version` of the primary kind (`v1` for the core group), e.g. `apps/v1`. */
  readonly apiVersion: string;
  /** The primary kind, e.g. `Deployment`. */
  readonly kind: string;
  /** Absent: all namespaces (or a cluster-scoped kind). */
  readonly namespace?: string;
}

/** What happened in a ring, as {@link ShardingConfig.onEvent} hears it. */
export type ShardingEvent =
  | {
      /** This replica's campaign for the sharder's Lease (label mode) changed. */
      readonly type: 'sharder';
      /** Whether this replica now runs the sharder, or who does. */
      readonly leadership: Leadership;
    }
  | {
      /** This replica's membership: a term began (`joined`) or ended (`left`). */
      readonly type: 'joined' | 'left';
      /** The membership identity of the term (`identityPrefix` and a random suffix). */
      readonly identity: string;
    }
  | {
      /**
       * The live members this replica sees changed: in label mode the sharder's view (emitted by the
       * replica that runs the sharder), in server mode every member's own view (each emits it).
       */
      readonly type: 'members';
      /** The identities of the live members, as now seen. */
      readonly members: readonly string[];
    }
  | {
      /** The sharder labelled an object: a first owner (`assigned`), away from a dead owner (`moved`), or asked a live owner to let go (`draining`). */
      readonly type: 'assigned' | 'moved' | 'draining';
      /** The object's key (`namespace/name`). */
      readonly key: string;
      /** The owner it leaves (`moved`, `draining`); absent for `assigned`. */
      readonly from?: string;
      /** The member it goes to. */
      readonly to: string;
    }
  | {
      /** This replica, as owner, let go of a drained object. */
      readonly type: 'released';
      /** The object's key (`namespace/name`). */
      readonly key: string;
      /** The membership identity that let go of it. */
      readonly identity: string;
    }
  | {
      /** Server-side mode: this replica now works on `ranges` (empty: on nothing). */
      readonly type: 'ranges';
      /** The membership identity that works on them. */
      readonly identity: string;
      /** The hash ranges this member now works on. */
      readonly ranges: readonly ShardRange[];
    };

/** Options of {@link sharded} in both modes, and of {@link labelSharder}. */
export interface ShardingCommonConfig {
  /** Credentials for the informers the ring runs (its member Leases; the sharder's caches in label mode). */
  readonly kubeConfig: KubeConfigLike;
  /** The ring's name (a DNS label of ≤ 50 characters): part of the label keys and of the Lease names. */
  readonly ring: string;
  /** Where the member Leases (and, in label mode, the sharder's Lease) live. */
  readonly namespace: string;
  /** The primary objects that are sharded. */
  readonly resource: ShardedResource;
  /** Membership and sharder Leases: as {@link leaderElection}'s. Defaults 15 000 / 10 000 / 2 000 (`defaultElectionTimings`). */
  readonly leaseDurationMs?: number;
  /** How long after the start of its last successful renewal a holder stops holding a Lease it cannot renew, in milliseconds. Default 10 000. */
  readonly renewDeadlineMs?: number;
  /** Milliseconds between tries: renewals every `retryPeriodMs`, acquisitions every `retryPeriodMs`·(1 + 1.2·random). Default 2 000. */
  readonly retryPeriodMs?: number;
  /** Start of every membership identity (a random suffix follows). Default: the host name, made a DNS label. */
  readonly identityPrefix?: string;
  /** Writes labels (label mode) and deletes the Leases of terms that ended. Default `resourceClient(kubeConfig)`. */
  readonly client?: ResourceClient;
  /** Reads and writes Leases. Default `leaseClient(client)`. */
  readonly leases?: LeaseClient;
  /** Clock and timers of the elections, the sharder and the handshake. Default: monotonic. */
  readonly scheduler?: SchedulerLike;
  /** Hears what happens: terms, the live members, the sharder's moves and releases (label mode), ranges (server mode). */
  readonly onEvent?: (event: ShardingEvent) => void;
  /** Failed requests of the elections, the sharder and the handshake's fresh reads (all retried). */
  readonly onError?: (error: unknown) => void;
}

/**
 * Label mode (the default): a sharder labels every object with its owner and each replica selects
 * its label — any Kubernetes version; a membership change writes every object that moves. The
 * server mode's options are type errors here.
 */
export interface LabelModeConfig {
  /** `'label'`, or absent. */
  readonly mode?: 'label';
  /** What is hashed onto the ring for an object. Default `<group>/<kind>/<namespace>/<name>`; hash a controller owner reference instead to keep children with their owner. */
  readonly shardKey?: (object: KubeObject) => string;
  /** Ring points per member (see {@link hashRing}). Default 2 000 (`defaultVirtualNodes`). */
  readonly virtualNodes?: number;
  /** Label writes the sharder has in flight at once. Default 8. */
  readonly sharderConcurrency?: number;
  /** Server mode's alone: a type error here. */
  readonly shardField?: never;
  /** Server mode's alone: a type error here. */
  readonly shardBuckets?: never;
}

/**
 * Server mode: each replica asks the API server for its hash ranges with a `shardSelector`
 * (Kubernetes 1.36+, kube-apiserver `--feature-gates=ShardedListAndWatch=true`); no sharder, no
 * labels, no object writes (the first live member deletes the Leases of terms that ended, as the
 * sharder does in label mode). A server without it ends the work with a {@link ShardSelectorError}.
 * The label mode's options are type errors here.
 */
export interface ServerModeConfig {
  /** `'server'`. */
  readonly mode: 'server';
  /** What is hashed. Default `object.metadata.uid`; `object.metadata.namespace` keeps a namespace on one replica. */
  readonly shardField?: ShardField;
  /** Equal slices of the hash space dealt out to the members (see {@link shardRanges}). Default 64. */
  readonly shardBuckets?: number;
  /** Label mode's alone (the API server hashes `shardField`): a type error here. */
  readonly shardKey?: never;
  /** Label mode's alone: a type error here. */
  readonly virtualNodes?: never;
  /** Label mode's alone (no sharder runs): a type error here. */
  readonly sharderConcurrency?: never;
}

/** Options of {@link sharded} in label mode, and of {@link labelSharder}. */
export type LabelShardingConfig = ShardingCommonConfig & LabelModeConfig;
/** Options of {@link sharded} in server mode. */
export type ServerShardingConfig = ShardingCommonConfig & ServerModeConfig;
/** Options of {@link sharded}: the common ones and those of one mode (`mode`, label by default); an option of the other mode is a type error. */
export type ShardingConfig = ShardingCommonConfig & (LabelModeConfig | ServerModeConfig);

/** @internal The config with defaults filled in and checked. */
export interface ResolvedShardingConfig extends Required<Omit<ShardingCommonConfig, 'onEvent' | 'onError' | 'identityPrefix'>> {
  readonly mode: 'label' | 'server';
  readonly shardField: ShardField;
  readonly shardBuckets: number;
  readonly shardKey: (object: KubeObject) => string;
  readonly virtualNodes: number;
  readonly sharderConcurrency: number;
  readonly labels: ShardLabels;
  readonly identityPrefix: string;
  readonly onEvent: (event: ShardingEvent) => void;
  readonly onError: ((error: unknown) => void) | undefined;
  /** A fresh identity for one membership term. */
  newIdentity(): string;
  /** The member Lease of `identity`. */
  memberLease(identity: string): { readonly namespace: string; readonly name: string };
}

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * @internal Checks the config at call time and fills in every default; the lease timings are
 * `defaultElectionTimings`, the ring's points `defaultVirtualNodes`.
 *
 * @param factory The name in the error messages: the function the user called.
 * @throws {TypeError} naming what is wrong.
 */
export function resolveShardingConfig(config: ShardingConfig, factory: 'sharded' | 'labelSharder' | 'sharder'): ResolvedShardingConfig {
  const check = optionChecks(factory, config, false);
  const labels = shardLabels(config.ring);
  const { namespace, resource } = config;
  if (typeof namespace !== 'string' || !dnsLabel.test(namespace)) check.fail(`namespace must be a namespace name, got ${describe(namespace)}`);
  const mode = check.oneOf('mode', config.mode, ['label', 'server']) ?? 'label';
  const shardField = check.oneOf('shardField', config.shardField, ['object.metadata.uid', 'object.metadata.namespace']) ?? 'object.metadata.uid';
  const shardBuckets = check.positiveInteger('shardBuckets', config.shardBuckets) ?? defaultShardBuckets;
  if (shardBuckets > 4096) check.fail(`shardBuckets must be at most 4096, got ${shardBuckets}`);
  if (resource === null || typeof resource !== 'object' || typeof resource.apiVersion !== 'string' || resource.apiVersion === '' || typeof resource.kind !== 'string' || resource.kind === '') {
    check.fail('resource must be { apiVersion, kind, namespace? }');
  }
  const sharderConcurrency = check.positiveInteger('sharderConcurrency', config.sharderConcurrency) ?? 8;
  const virtualNodes = check.positiveInteger('virtualNodes', config.virtualNodes) ?? defaultVirtualNodes;
  const shardKey = check.func('shardKey', config.shardKey);
  const identityPrefix = config.identityPrefix ?? (hostname().toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 40).replace(/^-+|-+$/g, '') || 'replica');
  if (typeof identityPrefix !== 'string' || identityPrefix.length > 40 || !dnsLabel.test(identityPrefix)) check.fail(`identityPrefix must be a DNS label of at most 40 characters, got ${describe(identityPrefix)}`);
  const client = config.client ?? resourceClient(config.kubeConfig);
  const leases = config.leases ?? leaseClient(client);
  // The elections check their timings when a term starts; check them now, at the call, and take
  // their defaults from the one place they are written.
  const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = resolveElectionConfig(
    { leases, lease: { namespace, name: config.ring }, identity: 'check', leaseDurationMs: config.leaseDurationMs, renewDeadlineMs: config.renewDeadlineMs, retryPeriodMs: config.retryPeriodMs },
    factory,
  );
  const group = groupOf(resource.apiVersion);
  const onEvent = config.onEvent ?? (() => undefined);
  return {
    kubeConfig: config.kubeConfig,
    ring: config.ring,
    namespace,
    resource: { apiVersion: resource.apiVersion, kind: resource.kind, ...(resource.namespace ? { namespace: resource.namespace } : {}) },
    mode,
    shardField,
    shardBuckets,
    shardKey: shardKey ?? ((object) => `${group}/${resource.kind}/${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`),
    virtualNodes,
    leaseDurationMs,
    renewDeadlineMs,
    retryPeriodMs,
    sharderConcurrency,
    identityPrefix,
    client,
    leases,
    scheduler: config.scheduler ?? monotonicScheduler,
    labels,
    onEvent,
    onError: config.onError,
    newIdentity: () => `${identityPrefix}-${randomBytes(4).toString('hex')}`,
    memberLease: (identity) => ({ namespace, name: `${config.ring}-${identity}` }),
  };
}
