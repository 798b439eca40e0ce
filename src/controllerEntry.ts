/**
 * rx-informer/controller: the controller toolkit over informers. A controller builder made of
 * operators you can also use alone, writes that are safe by construction (draft edits as JSON
 * Patch locked on the resourceVersion, server-side apply, create-or-update), finalizers, an event
 * recorder, health probes, and for more than one replica leader election and sharding over
 * `coordination.k8s.io` Leases. `reconcile`, `predicateFilter` and `predicates` are here too (and
 * in the main entry). Work-queue metrics under controller-runtime's names are in
 * `rx-informer/prometheus`. Needs @kubernetes/client-node only for what takes a KubeConfig
 * (`resourceClient`, `leaseClient`, `sharded`).
 *
 * @module rx-informer/controller
 */

/* The controller: triggers → wait for sync → the work queue → outcomes */
export { controller } from './controller/controller.js';
export type { ControllerConfig, ControllerInformer, OwnsConfig, ReadYourWrites, WatchesConfig } from './controller/controller.js';
export { reconcileObjects } from './controller/reconcileObjects.js';
export type { Action, ControllerContext, ControllerOutcome, ErrorPolicy, ReconcileObjectsConfig, Reconciler } from './controller/reconcileObjects.js';
export type { ControllerRequest } from './controller/controllerRequest.js';
export { toSelfRefs } from './controller/toSelfRefs.js';
export type { ToSelfRefsConfig } from './controller/toSelfRefs.js';
export { toOwnerRefs } from './controller/toOwnerRefs.js';
export type { OwnerType, ToOwnerRefsConfig } from './controller/toOwnerRefs.js';
export { toRefs } from './controller/toRefs.js';
export type { ToRefsConfig } from './controller/toRefs.js';
export { reconcileAllOf } from './controller/reconcileAllOf.js';
export { holdUntilSynced } from './controller/holdUntilSynced.js';
export type { HoldUntilSyncedConfig, SyncSource } from './controller/holdUntilSynced.js';
export { objectRef } from './store/objectRef.js';
export type { ObjectRef, TypedObjectRef } from './store/objectRef.js';
export { terminal } from './controller/terminal.js';

/* The work queue and event filters (also in the main entry) */
export { reconcile } from './controller/reconcile.js';
export type { CacheFreshness, QueueOptions, ReconcileConfig, ReconcileContext, ReconcileHandler, ReconcileOutcome, ReconcileRequest, ReconcileResult, RunFacts } from './controller/reconcile.js';
export { lowPriority, maxReasonsPerRun } from './controller/reconcileReason.js';
export type { ReconcileReason } from './controller/reconcileReason.js';
export { createWriteRecord, writeRecord } from './client/writeRecord.js';
export type { WriteRecord, WrittenName, WrittenObject } from './client/writeRecord.js';
export { predicateFilter } from './controller/predicateFilter.js';
export type { PredicateFilterConfig } from './controller/predicateFilter.js';
export { predicates } from './controller/predicates.js';
export type { Predicate } from './controller/predicates.js';
export type { ReconcileMetrics, ReconcileResultLabel } from './metrics/reconcileMetrics.js';

/* Ownership */
export { byControllerOwner, controllerOf, controllerReference, ownedBy, ownerReferencesOf, setControllerReference } from './store/ownerReferences.js';
export type { OwnerMatch, OwnerReference } from './store/ownerReferences.js';

/* Writes */
export { resourceClient } from './client/resourceClient.js';
export type { ApplyOptions, DeleteOptions, EditOptions, PatchOptions, RequestOptions, ResourceClient, ResourceClientConfig, WriteOptions } from './client/resourceClient.js';
export { editPatch } from './client/editPatch.js';
export type { EditPatch, EditPatchConfig, JsonPatchOperation } from './client/editPatch.js';
export { createOrUpdate } from './controller/writes/createOrUpdate.js';
export type { CreateOrUpdateConfig, CreateOrUpdateResult } from './controller/writes/createOrUpdate.js';
export { finalizer } from './controller/writes/finalizer.js';
export type { FinalizerContext, FinalizerHandlers } from './controller/writes/finalizer.js';

/* Events and probes */
export { eventRecorder } from './controller/eventRecorder.js';
export type { EventObjectReference, EventRecorder, EventRecorderConfig, EventToPublish, EventPublishOptions } from './controller/eventRecorder.js';
export { serveHealthProbes } from './controller/healthProbes.js';
export type { HealthCheck, HealthProbeServer, HealthProbesConfig } from './controller/healthProbes.js';
export { informersReady } from './controller/informersReady.js';
export type { ReadinessSource } from './controller/informersReady.js';

/* More than one replica: leader election and sharding over coordination.k8s.io Leases */
export { leaderElection } from './coordination/leaderElection.js';
export type { LeaderElection } from './coordination/leaderElection.js';
export type { LeaderElectionConfig } from './coordination/leaderElectionConfig.js';
export type { Leadership } from './coordination/electionState.js';
export { whileLeading } from './coordination/whileLeading.js';
export { leaseClient } from './coordination/leaseClient.js';
export type { LeaseClient } from './coordination/leaseClient.js';
export type { Lease, LeaseRef, LeaseSpec } from './coordination/lease.js';
export { sharded } from './sharding/sharded.js';
export type { Shard } from './sharding/label/shard.js';
export type { ServerShard } from './sharding/server/serverShard.js';
export { shardRanges } from './sharding/server/shardRanges.js';
export type { ShardRangesConfig } from './sharding/server/shardRanges.js';
/* Server-side shard selectors (KEP-5866): listWatch's `shardSelector` option takes what these build */
export { shardSelectorOf, parseShardSelector, shardSelectorMatches, shardSpaceEnd } from './sources/shardSelector.js';
export type { ShardField, ShardRange, ParsedShardSelector } from './sources/shardSelector.js';
export { hashField } from './sources/hashField.js';
export { labelSharder, sharder } from './sharding/label/labelSharder.js';
export type { ShardingConfig, ShardingCommonConfig, LabelModeConfig, ServerModeConfig, LabelShardingConfig, ServerShardingConfig, ShardingEvent, ShardedResource } from './sharding/shardingConfig.js';
export { hashRing } from './sharding/label/hashRing.js';
export type { HashRing, HashRingConfig } from './sharding/label/hashRing.js';
export { liveMembers } from './sharding/liveMembers.js';
export type { LiveMembersConfig } from './sharding/liveMembers.js';
export { shardLabels } from './sharding/label/shardLabels.js';
export { ringLabel } from './sharding/ringLabel.js';
export type { ShardLabels } from './sharding/label/shardLabels.js';

/* Errors of the toolkit (the catalogue is src/errors.ts) */
export { ControllerError, ShardSelectorError } from './errors.js';
export type { ControllerErrorOptions, ControllerErrorReason } from './errors.js';
