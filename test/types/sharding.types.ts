/**
 * Type-level tests of sharding's options (issue 39 item 4): `ShardingConfig` is the common options
 * and those of one mode, so an option of the other mode is a type error, and `sharded`'s work gets
 * the shard of its mode. Checked by `npm run typecheck`: a line marked `@ts-expect-error` that
 * stops being an error fails the build.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { EMPTY } from 'rxjs';
import { labelSharder, sharded, sharder, type LabelShardingConfig, type ServerShardingConfig, type ShardingConfig } from '../../src/controllerEntry.js';

declare const kubeConfig: KubeConfig;
const common = { kubeConfig, ring: 'configmaps', namespace: 'demo', resource: { apiVersion: 'v1', kind: 'ConfigMap' } } as const;

// Each mode with its own options.
const label: LabelShardingConfig = { ...common, shardKey: (o) => o.metadata?.name ?? '', virtualNodes: 100, sharderConcurrency: 4 };
const server: ServerShardingConfig = { ...common, mode: 'server', shardField: 'object.metadata.namespace', shardBuckets: 128 };
const either: ShardingConfig[] = [label, server, common, { ...common, mode: 'label' }];
void either;

// An option of the other mode is a type error.
// @ts-expect-error shardBuckets is a server-mode option
const labelWithBuckets: ShardingConfig = { ...common, shardBuckets: 128 };
// @ts-expect-error shardField is a server-mode option
const labelWithField: ShardingConfig = { ...common, mode: 'label', shardField: 'object.metadata.uid' };
// @ts-expect-error sharderConcurrency is a label-mode option: no sharder runs in server mode
const serverWithSharder: ShardingConfig = { ...common, mode: 'server', sharderConcurrency: 4 };
// @ts-expect-error shardKey is a label-mode option: the API server hashes shardField
const serverWithKey: ShardingConfig = { ...common, mode: 'server', shardKey: () => '' };
// @ts-expect-error virtualNodes is a label-mode option
const serverWithPoints: ServerShardingConfig = { ...common, mode: 'server', virtualNodes: 10 };
void [labelWithBuckets, labelWithField, serverWithSharder, serverWithKey, serverWithPoints];

// The work gets the shard of its mode.
sharded(common, (shard) => (shard.labelSelector.length, EMPTY));
sharded(server, (shard) => (shard.ranges.length, shard.selector.shardSelector.length, EMPTY));
// @ts-expect-error a label-mode shard has no ranges
sharded(common, (shard) => (shard.ranges, EMPTY));
// @ts-expect-error a server-mode shard has no labelSelector
sharded(server, (shard) => (shard.labelSelector, EMPTY));

// The sharder is label mode's alone.
labelSharder(label);
sharder(label);
// @ts-expect-error no sharder runs in server mode
labelSharder(server);
